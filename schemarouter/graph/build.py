"""The schema graph: the lookup indexes routing needs, plus typed nodes and edges on demand.

Built from registry declarations only (``Registry.load()``, or ``Registry.batches()`` a batch of
sources at a time), never from plugin objects, so a router needs nothing but the registry. Everything
a plan needs per field (unit, effective source type, license, attribution) is resolved here once, not
per question.
"""

from __future__ import annotations

import dataclasses
import gc
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from schemarouter.declarations import Declarations, Owner
from schemarouter.gcpause import gc_paused
from schemarouter.graph.alike import one_per_value
from schemarouter.graph.dense import restore_vectors, stored_vectors
from schemarouter.graph.index import GraphIndex
from schemarouter.graph.lexical import LexicalBuilder, LexicalIndex
from schemarouter.graph.links import Link, add_source_links
from schemarouter.graph.model import Edge, Node
from schemarouter.graph.order import IntentGroup, IntentOrderBuilder, group_places
from schemarouter.graph.phrases import PhraseIndex
from schemarouter.graph.records import EndpointInfo, FieldInfo
from schemarouter.graph.shares import Counts, IntentCounter
from schemarouter.graph.shelf import ConceptShelf, SectionRefs, SourceShelf, Spill
from schemarouter.graph.structure import build_structure, field_meta
from schemarouter.graph.text import STOPWORDS, humanize, normalize
from schemarouter.graph.value_readers import ValueReader, note_integer_concepts, value_readers_of
from schemarouter.memos import Memos
from schemarouter.models import Auth, DomainConcept, Endpoint, ResponseField, Source

if TYPE_CHECKING:
    from schemarouter.registry.batches import SourceBatches

# Single words too generic to stand for a field on their own when they are only part of its name.
_GENERIC_PARTS = frozenset(
    ["number", "count", "value", "values", "name", "names", "total", "type", "date", "code", "list", "data", "string", "symbol", "id", "ids", "per", "atom", "amount", "div", "item", "entry", "file", "page", "result", "results", "info", "score", "link", "url", "year"]
)


@dataclass(repr=False)  # the generated repr would spell out every index: gigabytes at scale
class SchemaGraph:
    """Nodes, edges and indexes over one registry state (``fingerprint``)."""

    fingerprint: str | None
    decls: Declarations
    endpoints: dict[tuple[str, str], EndpointInfo] = field(default_factory=dict)
    phrases: PhraseIndex = field(default_factory=PhraseIndex)
    concept_fields: dict[str, list[FieldInfo]] = field(default_factory=lambda: defaultdict(list))
    numeric_concepts: set[str] = field(default_factory=set)  # concepts some numeric field carries
    intent_endpoints: dict[str, list[tuple[str, str]]] = field(default_factory=lambda: defaultdict(list))
    source_by_alias: dict[str, str] = field(default_factory=dict)
    index: GraphIndex = field(default_factory=GraphIndex)
    intent_order: dict[str, list[IntentGroup]] = field(default_factory=dict)
    intent_places: dict[str, dict[tuple[str, str], int]] = field(default_factory=dict)  # see order.group_places
    concept_intent_counts: dict[str, Counts] = field(default_factory=dict)  # see graph.shares
    name_intent_counts: dict[str, Counts] = field(default_factory=dict)
    lexical: LexicalIndex = field(default_factory=LexicalIndex)  # BM25F over every endpoint's declaration
    numbers: dict[tuple[str, str], int] = field(default_factory=dict)  # endpoint key -> number in ``lexical``
    # readers of the values concepts declare a written form for (identifiers), and those concepts
    value_readers: tuple[ValueReader, ...] = ()
    identifier_concepts: frozenset[str] = frozenset()
    links: dict[tuple[str, str], dict[str, list[Link]]] = field(default_factory=dict)  # consumer -> param -> links
    # what the layers above work out once about this graph, each in a memo class of its own
    memos: Memos = field(default_factory=Memos, repr=False, compare=False)
    _built_structure: tuple[dict[str, Node], list[Edge]] | None = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        return (f"SchemaGraph(fingerprint={self.fingerprint!r}, sources={len(self.decls.sources)}, "
                f"endpoints={len(self.endpoints)})")

    def __getstate__(self) -> dict[str, object]:
        # What other layers worked out about this graph, and the typed structure, are made again on
        # first use: a graph read back from a cache file (graph.persist) starts as a fresh build does.
        # The dense vectors are the exception: embedding every endpoint again costs seconds at
        # 10,000 sources, and they depend on nothing but the declarations and the model.
        state = dict(self.__dict__)
        state["memos"] = None
        state["_built_structure"] = None
        state["_dense"] = stored_vectors(self)
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        dense = state.pop("_dense", None)
        self.__dict__.update(state)
        self.memos = Memos()
        restore_vectors(self, dense)  # type: ignore[arg-type]

    @property
    def nodes(self) -> dict[str, Node]:
        """Typed nodes by id (built on first use; routing never needs them)."""
        return self._structure()[0]

    @property
    def edges(self) -> list[Edge]:
        """Typed edges (built on first use, with the nodes)."""
        return self._structure()[1]

    def _structure(self) -> tuple[dict[str, Node], list[Edge]]:
        built = self._built_structure
        if built is None:
            built = self._built_structure = build_structure(self.decls)
        return built

    @property
    def sources(self) -> dict[str, Source]:
        """Every source, by id."""
        return self.decls.sources

    def source_prose(self) -> Iterator[tuple[str, str]]:
        """Every source's (title, description), without reading back the sources of a cached graph."""
        sources = self.decls.sources
        if isinstance(sources, SourceShelf):
            return sources.prose()
        return ((s.title, s.description) for s in sources.values())

    def source_auths(self) -> list[Auth]:
        """How every source that needs a key is sent it, without reading back the sources of a cached graph."""
        sources = self.decls.sources
        if isinstance(sources, SourceShelf):
            return sources.auths()
        return [s.auth for s in sources.values() if s.auth is not None]

    @property
    def intents(self) -> dict[str, object]:
        """Every declared intent, by name."""
        return self.decls.intents  # type: ignore[return-value]

    def intent_groups(self, intent: str | None) -> list[str]:
        """The field groups ``intent`` wants (none for an unknown or missing intent)."""
        found = self.decls.intents.get(intent or "")
        return list(found.field_groups) if found else []

    def source_endpoints(self, source: str) -> list[EndpointInfo]:
        """The endpoints of ``source``, in declaration order."""
        return list(self.index.by_source.get(source, ()))

    def fields_named(self, name: str) -> list[FieldInfo]:
        """Fields called ``name``, in ``iter_fields`` order."""
        return self.index.fields_by_name.get(name, [])

    def resolve_source(self, name: str) -> str | None:
        """A source id from its id, title or alias (any capitalization)."""
        if name in self.decls.sources:
            return name
        return self.source_by_alias.get(normalize(name))

    def iter_fields(self) -> Iterator[FieldInfo]:
        """Every field of every endpoint, in graph order."""
        for info in self.endpoints.values():
            yield from info.fields.values()


def build_graph(decls: Declarations, fingerprint: str | None) -> SchemaGraph:
    """The schema graph over ``decls``, labelled with their ``fingerprint``."""
    with gc_paused():  # millions of long-lived objects and no cycles (schemarouter.gcpause)
        builder = GraphBuilder(decls, fingerprint)
        builder.add(sorted(decls.sources.values(), key=lambda s: s.id), decls.owners)
        return builder.finish(list(decls.sources))


def build_graph_in_batches(batches: SourceBatches) -> SchemaGraph:
    """The schema graph of a registry read a batch of sources at a time (:meth:`Registry.batches`), the
    same graph :func:`build_graph` makes of the whole read, but each batch's declarations pickled to a
    temporary file once the graph's records and indexes have what they need of them, and read back from
    there on first use, as a graph read from its cache file reads them (:mod:`schemarouter.graph.shelf`).
    A cold start of a large registry thus never holds every declaration at once beside the graph."""
    with gc_paused():
        spill = Spill()
        builder = GraphBuilder(batches.header, batches.header.fingerprint, spill)
        batches.header.concepts = {}  # the graph's now (put away): the header lets go of the models
        for batch in batches:
            builder.add(batch.sources.values(), batch.owners)
            del batch  # its sources are spilled: nothing holds them now
        return builder.finish(batches.order, spill.refs())


# Phrases a graph built batch by batch gathers as term objects before it keeps them as columns
# (PhraseIndex.compact): each compaction copies the columns, so only this many at a time (about 27 MB of
# terms), and not at the end, where it would save nothing of the peak (at 10,000 sources, compacting
# every 100,000 terms and at the end cost a second of a 4.7 s build for 5 MB)
PHRASES_COMPACTED_AT = 250_000


class GraphBuilder:
    """Builds a graph source by source, in id order: each source's records, phrases and index entries,
    and what the graph-wide indexes need of its declarations, are taken while it is added, so that a
    source's declarations are not read again once it is (they may be spilled, :func:`build_graph_in_batches`)."""

    def __init__(self, header: Declarations, fingerprint: str | None, spill: Spill | None = None) -> None:
        # The graph reads its sources through a shelf: live while the graph is built, pickled on their
        # own in the cache file (or the spill) and read back on first use (graph.shelf). Declarations are
        # read-only once in a graph.
        self.shelf = SourceShelf()
        self.spill = spill
        self.owners: dict[str, Owner] = {}
        decls = dataclasses.replace(
            header, sources=cast(dict[str, Source], self.shelf),
            # concepts' names are read at every question, their declarations almost never (graph.shelf)
            concepts=cast(dict[str, DomainConcept], ConceptShelf(header.concepts)), owners={})
        self.graph = g = SchemaGraph(fingerprint=fingerprint, decls=decls)
        _add_vocabulary(g)
        # the concepts whose values have a written form (a few; their readers are compiled at the end)
        self.patterned = [concept for concept in header.concepts.values() if concept.patterns]
        if spill is not None:
            # all the build reads of the rest was their names and aliases, just indexed: at 100,000 sources
            # 134,000 models, kept as one pickle from here as a graph read back from its cache file keeps them
            cast(ConceptShelf, decls.concepts).put_away()
        self.memo = _Memo(self.shelf)
        self.lexical = LexicalBuilder()
        self.order = IntentOrderBuilder(decls.intents)
        self.counts = IntentCounter(decls.intents)
        self.links: dict[tuple[str, str], dict[str, list[Link]]] = {}
        self.integer: dict[str, bool] = {}  # see value_readers.note_integer_concepts

    def add(self, sources: Iterable[Source], owners: Mapping[str, Owner]) -> None:
        """Add sources (in id order, after every source added before), and their owners."""
        g, memo, added = self.graph, self.memo, []
        for source in sources:
            self.shelf.add(source)
            infos = _add_source(g, source, memo)
            for info in infos:
                self.lexical.add(info)
                self.order.add(info)
                self.counts.add(info)
            add_source_links(infos, self.links)
            note_integer_concepts(source, self.integer)
            added.append((source.id, infos))
        self.owners.update(owners)
        if self.spill is not None:
            self.shelf.spill([sid for sid, _infos in added], self.spill.writer)
            for _sid, infos in added:
                for info in infos:
                    info.shelve()
            self.lexical.release()
            self.memo.forget_batch()
            if len(self.graph.phrases.entries) > PHRASES_COMPACTED_AT:
                self.graph.phrases.compact()

    def finish(self, order: Sequence[str], stored: SectionRefs | None = None) -> SchemaGraph:
        """The graph: ``order`` is every source id added, in the registry's order; ``stored`` where the
        spilled sources lie."""
        g = self.graph
        self.shelf.settle(order, stored)
        # one object per owner: a plugin's sources share it (read back from a registry, each had its own)
        g.decls.owners = one_per_value(self.owners)
        del self.memo  # its sets are free again for the indexes below to reuse
        g.index.freeze()
        g.intent_order = self.order.finish()
        # with the graph, not on first use: at 100,000 sources an intent's first question paid 60-90 ms for it
        g.intent_places = {intent: group_places(groups) for intent, groups in g.intent_order.items()}
        g.concept_intent_counts, g.name_intent_counts = self.counts.finish()
        g.value_readers = value_readers_of(self.patterned, self.integer)
        g.identifier_concepts = frozenset(reader.concept for reader in g.value_readers)
        g.lexical = self.lexical.finish()
        g.numbers = {key: i for i, key in enumerate(g.lexical.keys)}
        g.links = self.links
        # The graph lives as long as the process routes over it and holds no garbage: keep the cyclic
        # collector from re-walking its millions of objects (a full pass costs seconds at 10,000 sources).
        gc.freeze()
        return g


class _Memo:
    """Per-build memory of work that depends only on a name: thousands of sources share field names
    and aliases, so each is humanized, normalized and turned into phrases once (and its strings shared)."""

    def __init__(self, shelf: SourceShelf) -> None:
        self.shelf = shelf  # every record's way to its declaration once read back from a cache file
        self.name_words: dict[str, tuple[str, str]] = {}  # field name -> (humanized, normalized)
        # source id -> (source type, license id, attribution) of its fields that override neither
        self.source_meta: dict[str, tuple[str, str, str | None]] = {}
        self.normal: dict[str, str] = {}
        self.names_done: set[str] = set()  # field names whose name phrases are in the index
        # (field name, alias) pairs in the index: copies of a source repeat them thousands of times
        self.aliases_done: set[tuple[str, str]] = set()
        self.parts_done: set[str] = set()  # field-name parts in the index ("band gap" of many names)
        self.alias_words: dict[tuple[str, ...], tuple[str, ...]] = {}  # aliases as declared -> normalized
        self.groups: dict[frozenset[str], frozenset[str]] = {}  # an endpoint's field groups, one object each

    def forget_batch(self) -> None:
        """Forget what only saves work on later sources (a graph built batch by batch, between batches):
        phrases the index already has are found there again (it keeps each once), an alias is normalized
        again. What it held of each alias would otherwise outlive the batch's declarations, and at
        100,000 sources a million aliases are a large part of a cold start's memory."""
        for done in (self.names_done, self.aliases_done, self.parts_done):
            done.clear()
        self.normal.clear()
        self.alias_words.clear()
        self.source_meta.clear()  # by source id: a source is added once

    def words(self, name: str) -> tuple[str, str]:
        found = self.name_words.get(name)
        if found is None:
            found = self.name_words[name] = (humanize(name), normalize(name))
        return found

    def normalize(self, text: str) -> str:
        found = self.normal.get(text)
        if found is None:
            found = normalize(text)
            found = self.normal[text] = text if found == text else found  # keep one copy of the string
        return found


def _add_vocabulary(g: SchemaGraph) -> None:
    for intent in g.decls.intents.values():
        g.phrases.add("intent", intent.name, humanize(intent.name))
        for keyword in intent.keywords:
            g.phrases.add("intent", intent.name, keyword)
    for concept in g.decls.concepts.values():
        g.phrases.add("concept", concept.name, humanize(concept.name))
        for alias in concept.aliases:
            g.phrases.add("concept", concept.name, alias)


def _add_source(g: SchemaGraph, source: Source, memo: _Memo) -> list[EndpointInfo]:
    # a word of the title written with a capital inside ("BioLink" of "Monarch Initiative BioLink
    # API") is a name of its own, alone and with the rest of the title: users call the source by it
    words = _TITLE_WORD.findall(source.title)
    inner = [name for i, w in enumerate(words) if _INNER_CAPITAL.search(w) for name in (w, " ".join(words[i:]))]
    for name in dict.fromkeys([source.id, humanize(source.id), source.title, *source.aliases, *inner]):
        normal = normalize(name)  # lower-case words joined by spaces: the phrase index's key too
        g.phrases.add("source", source.id, name, key=normal)
        g.source_by_alias.setdefault(name if normal == name else normal, source.id)
    infos: list[EndpointInfo] = []
    for ep in source.endpoints:
        fields: dict[str, FieldInfo] = {}
        for f in ep.fields:
            field_info = _field_info(source, ep, f, memo)
            fields[f.name] = field_info
            _add_field(g, field_info, memo)
        groups = frozenset(f.group for f in ep.fields)
        groups = memo.groups.setdefault(groups, groups)  # one object per distinct set: endpoints repeat them
        info = EndpointInfo(source, ep, fields, groups, memo.shelf)
        for intent in ep.intents:
            g.intent_endpoints[intent].append(info.key)  # the record's key: one object per endpoint
        g.endpoints[info.key] = info
        g.index.add_endpoint(info)
        infos.append(info)
    return infos


_TITLE_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]+")
_INNER_CAPITAL = re.compile(r"^[A-Z]?[a-z]+[A-Z]")  # BioLink, FireBrowse, OpenAlex; not API, not NASA


def _field_info(source: Source, ep: Endpoint, f: ResponseField, memo: _Memo) -> FieldInfo:
    # most fields override neither source type nor license: theirs is their source's, made once
    if f.source_type is None and f.license is None:
        meta = memo.source_meta.get(source.id)
        if meta is None:
            meta = memo.source_meta[source.id] = field_meta(source, f)
    else:
        meta = field_meta(source, f)
    st, license_id, attribution = meta
    words, raw = memo.words(f.name)
    aliases: tuple[str, ...] = ()
    if f.aliases:
        # one tuple per distinct alias list: a field returned by several endpoints (or read back shared,
        # registry.mapping) declares the same aliases each time
        written = tuple(f.aliases)
        aliases = memo.alias_words.get(written, ())
        if not aliases:
            known = memo.normal.get
            aliases = memo.alias_words[written] = tuple(dict.fromkeys([known(a) or memo.normalize(a) for a in written]))
    return FieldInfo(source.id, ep.id, f, words, st, license_id, attribution, aliases, raw, memo.shelf)


def _add_field(g: SchemaGraph, info: FieldInfo, memo: _Memo) -> None:
    f = info.field
    for concept in f.concepts:
        g.concept_fields[concept].append(info)
        if f.type == "number":
            g.numeric_concepts.add(concept)
    for alias in f.aliases:
        pair = (f.name, alias)
        if pair not in memo.aliases_done:
            memo.aliases_done.add(pair)
            # normalized for the field's info just before: the phrase index's key
            g.phrases.add("field", f.name, alias, key=memo.normal[alias])
    if f.name in memo.names_done:
        return  # the phrases below depend on the name only, and the index keeps each phrase once
    memo.names_done.add(f.name)
    words = info.words.split()
    if len(words) > 1 or len(f.name) > 2:
        # the name's normal form is its normalized raw words, already worked out (and kept) for the field
        g.phrases.add("field", f.name, f.name, case_sensitive=len(f.name) <= 3, key=info.raw_words)
        # humanized words are lower-case words joined by spaces: their own normal form
        g.phrases.add("field", f.name, info.words, case_sensitive=len(f.name) <= 3, key=info.words)
        if len(words) == 1 and len(f.name) > 3 and not f.name.endswith("s"):
            g.phrases.add("field", f.name, info.words + "s", case_sensitive=False, key=info.words + "s")
    if len(words) >= 2:
        for part in _parts(words):
            phrase = " ".join(part)
            if phrase not in memo.parts_done:  # a part names the same target whichever name has it
                memo.parts_done.add(phrase)
                g.phrases.add("field_part", "_".join(part), phrase, case_sensitive=False, key=phrase)


def _parts(words: list[str]) -> Iterator[list[str]]:
    n = len(words)
    for size in range(n - 1, 0, -1):
        for i in range(n - size + 1):
            part = words[i : i + size]
            meaningful = [w for w in part if w not in STOPWORDS and w not in _GENERIC_PARTS and not w.isdigit()]
            if not meaningful or (size == 1 and len(part[0]) < 5):
                continue
            if part[0] in _GENERIC_PARTS or (part[-1] in _GENERIC_PARTS and size == 1):
                continue
            yield part
            if size == 1:
                yield [part[0] + "s"]
