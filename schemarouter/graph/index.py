"""Inverted indexes over a built graph, so routing a question touches only what its words reach.

Routing used to score every endpoint and walk every field per question, which grows with the
inventory. These maps are filled once per graph (``build_graph``) and answer "which fields could
match these words", "which endpoints does this source have", "which endpoints take this
parameter concept" in a few dict lookups. They only narrow the search: every decision is still
made by the same scoring functions, so a narrowed search decides exactly what a full scan would.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from schemarouter.graph.records import FieldInfo

if TYPE_CHECKING:
    from schemarouter.graph.records import EndpointInfo


@dataclass
class GraphIndex:
    """Lookups from a source, field name, words, alias or concept to the endpoints and fields that have it."""
    by_source: dict[str, list[EndpointInfo]] = field(default_factory=lambda: defaultdict(list))
    fields_by_name: dict[str, list[FieldInfo]] = field(default_factory=lambda: defaultdict(list))
    fields_by_words: dict[str, list[FieldInfo]] = field(default_factory=lambda: defaultdict(list))
    # alias -> the fields declaring it: the field itself where only one does (most aliases name one field,
    # and a list each was tens of megabytes at 100,000 sources), else a list
    fields_by_alias: dict[str, FieldInfo | list[FieldInfo]] = field(default_factory=dict)
    names_by_word: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))  # word -> humanized names
    by_param_concept: dict[str, list[EndpointInfo]] = field(default_factory=lambda: defaultdict(list))
    # concept -> keys of the endpoints keeping a field that carries it (each once)
    concept_endpoints: dict[str, list[tuple[str, str]]] = field(default_factory=lambda: defaultdict(list))
    free_text_sources: set[str] = field(default_factory=set)  # sources with a query_text parameter
    free_text_intents: set[str] = field(default_factory=set)  # intents served by such an endpoint
    chemistry_concepts: set[str] = field(default_factory=set)  # carried by a field of a chemistry source
    chemistry_names: set[str] = field(default_factory=set)  # names of fields of chemistry sources

    def add_endpoint(self, info: EndpointInfo) -> None:
        """Index one endpoint (called in graph order, so every list keeps ``graph.endpoints`` order)."""
        self.by_source[info.key.source].append(info)
        concepts = {p.concept for p in info.endpoint.parameters if p.concept}
        for concept in concepts:
            self.by_param_concept[concept].append(info)
        if "query_text" in concepts:
            self.free_text_sources.add(info.key.source)
            self.free_text_intents.update(info.intents)
        if info.domain == "chemistry":
            for declared in info.endpoint.fields:
                self.chemistry_concepts.update(declared.concepts)
            self.chemistry_names.update(info.fields)
        key = info.key
        for f in info.fields.values():
            for concept in f.field.concepts:
                keys = self.concept_endpoints[concept]
                if not keys or keys[-1] != key:
                    keys.append(key)
            self.fields_by_name[f.name].append(f)
            same_words = self.fields_by_words[f.words]
            if not same_words:
                for word in set(f.words.split()):
                    self.names_by_word[word].append(f.words)
            same_words.append(f)
            for alias in f.alias_words:
                found = self.fields_by_alias.get(alias)
                if found is None:
                    self.fields_by_alias[alias] = f
                elif isinstance(found, list):
                    found.append(f)
                else:
                    self.fields_by_alias[alias] = [found, f]

    def freeze(self) -> None:
        """From here on a lookup of a missing key must not insert it: the indexes stop making defaults
        (in place: a copy of each would briefly double them while the graph is built)."""
        for name in ("by_source", "fields_by_name", "fields_by_words", "names_by_word",
                     "by_param_concept", "concept_endpoints"):
            index = getattr(self, name)
            if isinstance(index, defaultdict):
                index.default_factory = None

    def match_candidates(self, concept_fields: list[FieldInfo], concept_words: str, said: str) -> list[FieldInfo]:
        """Fields other than ``concept_fields`` (those carry the concept) that could score above zero for
        it (see ``router.matching``): its name is the concept's, the words said are one of its aliases, or
        (for a concept of 4+ characters) one name contains the other as whole words. A superset; scoring
        decides."""
        out: dict[int, FieldInfo] = {}  # id() only dedupes within this call; nothing is cached by it

        def take(fields: Sequence[FieldInfo]) -> None:
            # a field met again keeps its first place (a dict updated in place keeps its order); zip and
            # map, not a comprehension: a common name's run is tens of thousands of fields at 100,000 sources
            out.update(zip(map(id, fields), fields, strict=True))

        take(self.fields_by_words.get(concept_words, ()))
        aliased = self.fields_by_alias.get(said, ())
        take((aliased,) if isinstance(aliased, FieldInfo) else aliased)
        if len(concept_words) >= 4:
            words = concept_words.split()
            if words:
                rarest = min(words, key=lambda w: len(self.names_by_word.get(w, ())))
                padded = f" {concept_words} "
                for name in self.names_by_word.get(rarest, ()):
                    if padded in f" {name} ":
                        take(self.fields_by_words[name])
                for size in range(1, len(words) + 1):  # field names that are a run of the concept's words
                    for i in range(len(words) - size + 1):
                        part = " ".join(words[i : i + size])
                        if len(part) >= 5:
                            take(self.fields_by_words.get(part, ()))
        pop = out.pop
        for key in map(id, concept_fields):
            pop(key, None)
        return list(out.values())
