"""The default understand backend: deterministic, offline, vocabulary from the schema graph.

Source names, concept and field aliases and intent keywords come from the graph's phrase
index; entity recognizers (formulas, identifiers, names) and wording cues (provenance,
comparison, requests to act) add the rest. Intent is chosen by evidence: keywords,
what the matched concepts' fields serve, what the entities can be sent to, and which intents
the named sources serve.
"""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict

from schemarouter.graph import SchemaGraph
from schemarouter.graph.lexical import LexicalIndex
from schemarouter.graph.phrases import Match, Term, tokenize
from schemarouter.graph.terms import question_terms
from schemarouter.graph.text import humanize
from schemarouter.plan import Understanding
from schemarouter.understand import wording
from schemarouter.understand.actions import decline_reason, requested_action
from schemarouter.understand.base import Analysis
from schemarouter.understand.bounds import bound_after, element_list
from schemarouter.understand.entities import Entity, recognize
from schemarouter.understand.evidence import entity_param_concepts, intent_evidence
from schemarouter.understand.names import identifier_tokens
from schemarouter.understand.params import entity_params
from schemarouter.understand.pipeline import Backend

MAX_CHARS = 4000  # longer questions are read up to here; the rest cannot change a routing decision
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_MIN_INTENT_SCORE = 0.7
COMPARE_INTENT = "cross_source_comparison"


class RulesUnderstander(Backend):
    """The offline understand backend: vocabulary from the graph, recognizers and wording cues."""
    name = "rules"

    def read(self, question: str, graph: SchemaGraph) -> Analysis:
        """Read ``question`` into an Analysis (deterministic, no network)."""
        text = _CONTROL.sub(" ", question[:MAX_CHARS])
        tokens = tokenize(text)
        ids = [(e.start, e.end) for e in identifier_tokens(text, [])]
        # "MP:0008521" names a mouse phenotype, not the Materials Project
        matches = [m for m in graph.phrases.scan(tokens, text)
                   if not any(s <= m.char_start and m.char_end <= e for s, e in ids)]
        matches = _words_not_names(matches, graph)
        chem_hint = _chemistry_context(matches, graph)
        entities = recognize(text, chemistry_context=chem_hint, readers=graph.value_readers)
        if chem_hint:
            entities = _compound_from_subject(text, entities)
        listed = element_list(text)
        if listed:
            symbols, (start, end) = listed
            inside = [e for e in entities if start <= e.start < end]
            if not any(e.kind == "formula" and not e.extra.get("name") and e not in inside for e in entities):
                entities = [e for e in entities if e not in inside]
                entities.append(Entity("elements", symbols, start, end, text[start:end]))
                entities.sort(key=lambda e: e.start)
        titles = [(e.start, e.end) for e in entities if e.kind == "title"]
        matches = [m for m in matches if not any(s <= m.char_start and m.char_end <= e for s, e in titles)]
        analysis = analyze(question, text, matches, entities, graph, [start for start, _ in ids])
        analysis.text = text
        analysis.source_spans = [(m.char_start, m.char_end) for m in matches if any(t.kind == "source" for t in m.terms)]
        analysis.prompt_tokens = 0  # no language-model prompt is sent
        return analysis


# How many other sources must declare a word before a source named by that one word alone is no
# longer named by it written in lower case (chosen on the tune splits)
ORDINARY_SOURCES = 3


def _words_not_names(matches: list[Match], graph: SchemaGraph) -> list[Match]:
    """Source mentions written in lower case that are words of the question, not names (a source's own
    capitalized name stays a name), for either of two reasons:

    - the word is one another source the question names declares: "the wiki pages of OSF project
      ezcuj" names OSF, whose paths say wikis, so its "wiki" is that word, not Wikipedia;
    - the source's name is one ordinary word of this registry, one the declarations of at least
      :data:`ORDINARY_SOURCES` other sources use: among thousands of tools, "the nearest attractions to
      my current location" names no tool titled "Location" (written as a name, "Ask Location ...", or
      as part of a longer name, it still does)."""
    named = {t.target for m in matches for t in m.terms if t.kind == "source"}
    lex = graph.lexical

    def is_word(sources: set[str], words: list[str]) -> bool:
        if len(words) == 1 and _declared_elsewhere(lex, words[0], sources):
            return True
        others = named - sources
        return bool(others) and all(lex.source_strength(w, others) > 0 for w in words)

    out: list[Match] = []
    for m in matches:
        sources = {t.target for t in m.terms if t.kind == "source"}
        words = question_terms(m.text) if sources and m.text.islower() else []
        if words and is_word(sources, words):
            rest = tuple(t for t in m.terms if t.kind != "source")
            if rest:
                out.append(dataclasses.replace(m, terms=rest))
            continue  # no longer a source's name: its words are words of the question
        out.append(m)
    return out


def _declared_elsewhere(lex: LexicalIndex, term: str, sources: set[str]) -> bool:
    """Whether endpoints of at least :data:`ORDINARY_SOURCES` sources besides ``sources`` declare ``term``
    (endpoints are numbered source by source, so a common word reaches that count within a few)."""
    posting = lex.postings.get(term)
    if posting is None:
        return False
    others: set[str] = set()
    for number in posting[0]:
        source = lex.keys[number][0]
        if source not in sources:
            others.add(source)
            if len(others) >= ORDINARY_SOURCES:
                return True
    return False


def analyze(question: str, text: str, matches: list[Match], entities: list[Entity], graph: SchemaGraph,
            id_starts: list[int]) -> Analysis:
    """The Analysis of a question from its vocabulary matches, entities and where its
    identifier-shaped tokens start."""
    kinds = {e.kind for e in entities}
    named: list[str] = []
    concepts: dict[str, str] = {}
    keyword_hits: dict[str, float] = defaultdict(float)
    partial: set[str] = set()  # keys only matched as part of a field name
    drop: list[tuple[int, int]] = [(e.start, e.end) for e in entities if e.kind not in ("formula", "compound", "company")]
    drop += wording.sort_spans(text)
    bounds: dict[str, list[float | None]] = {}
    for m in matches:
        terms = _resolve_case(m, kinds, graph)
        window = bound_after(text, m.char_end)
        if window is not None:
            for t in terms:
                if t.kind in ("concept", "field"):
                    bounds.setdefault(t.target, list(window))
        for t in terms:
            if t.kind == "source":
                if t.target not in named:
                    named.append(t.target)
                drop.append((m.char_start, m.char_end))
            elif t.kind == "intent":
                keyword_hits[t.target] += 1.5 if " " in t.phrase else 1.0
            elif (t.kind == "concept" and graph.concept_fields.get(t.target)) or (t.kind == "field" and not any(x.kind == "concept" and graph.concept_fields.get(x.target) for x in terms)):
                concepts.setdefault(t.target, m.text)
            elif t.kind == "field_part":
                concepts.setdefault(t.target, m.text)
                partial.add(t.target)
    compare = keyword_hits.pop(COMPARE_INTENT, 0.0) > 0
    topic_start = wording.literature_topic_start(text)
    if topic_start is not None:
        # "papers on the band gap of GaN": the band gap and GaN are the papers' topic
        inside = {c for c, words in concepts.items() if text.find(words, topic_start) >= 0 and text.find(words) >= topic_start}
        evidence_concepts = [c for c in concepts if c not in inside]
        evidence_entities = [e for e in entities if e.start < topic_start]
        hits = {i: w for i, w in _keyword_hits(matches, kinds, graph, before=topic_start).items() if i != COMPARE_INTENT}
        scores = intent_evidence(graph, hits, evidence_concepts, evidence_entities, named)
    else:
        scores = intent_evidence(graph, keyword_hits, list(concepts), entities, named)
    named = [s for s in named if _takes_identifiers(graph, s, entities)]
    named = _targets(named, matches, sorted({e.start for e in entities} | set(id_starts)), text)
    served = {i for s in named for info in graph.source_endpoints(s) for i in info.intents}
    choices = {i: v for i, v in scores.items() if i in served} if served else scores
    intent, best = max(choices.items(), key=lambda kv: (kv[1], kv[0]), default=(None, 0.0))
    constraint = wording.source_constraint(text)
    # "Translate RGD ID 2218 to an Ensembl ID": a read endpoint of the registry does that
    verb = requested_action(text, graph)
    decline = decline_reason(verb) if verb is not None else None
    if decline or ((intent is None or best < _MIN_INTENT_SCORE) and not named):
        intent = None  # the vocabulary sees nothing: retrieval over what sources declare may still
    elif compare and _comparable(graph, intent):
        intent = COMPARE_INTENT
    analysis = Analysis(
        question=question,
        understanding=Understanding(
            intent=intent,
            concepts=[] if decline else list(concepts),
            named_tools=[] if decline else named,
            source_constraint=None if decline else constraint,
        ),
        entities=entities,
        matched=concepts,
        compare=compare,
        action=verb,
        decline=decline,
        intent_scores=dict(scores),
    )
    if not decline:
        analysis.topic = wording.topic_text(text, drop)
        analysis.subject = _subject(text, entities)
        analysis.understanding.params = entity_params(analysis, text)
        if not _takes_free_text(graph, intent, named):
            analysis.understanding.params.pop("query_text", None)  # kept on analysis.topic
        if bounds:
            analysis.understanding.params["bounds"] = bounds
    return analysis


def _chemistry_context(matches: list[Match], graph: SchemaGraph) -> bool:
    """Whether the question asks for something only chemistry sources answer (SMILES, boiling point)."""
    for m in matches:
        for t in m.terms:
            if t.kind == "intent" and graph.decls.intents[t.target].domains == ["chemistry"]:
                return True
            if t.kind in ("concept", "field") and _answered_by_chemistry(graph, t.target):
                return True
    return False


def _answered_by_chemistry(graph: SchemaGraph, target: str) -> bool:
    """Whether a field of a chemistry source answers ``target``: one carrying it as a concept if any field
    does, else one named so (both sets are indexed at build time)."""
    if graph.concept_fields.get(target):
        return target in graph.index.chemistry_concepts
    return target in graph.index.chemistry_names


_ASKED_ABOUT = re.compile(r"\b(?:is|are|does|do)\s+(?:the\s+)?([^?.!,;:]+?)\s*(?:have|has|melt|boil|weigh)?\s*[?.!]*$", re.I)
_GENERIC_SUBJECTS = frozenset(
    ["compound", "molecule", "substance", "chemical", "it", "this", "that", "them", "these", "those", "material", "drug", "sample", "product"]
)
_TRAILING = re.compile(r"\s+(?:at|in|near|under|from|according|per|with)\b.*$", re.I)


def _compound_from_subject(text: str, entities: list[Entity]) -> list[Entity]:
    """A compound the name lists do not know: the thing the question is about ("SMILES for
    citalopram", "How dense is diethylene glycol?"), or a suffix guess widened to that phrase."""
    if any(e.kind in ("compound", "cid", "inchikey", "formula") and not e.extra.get("guessed") for e in entities):
        return entities
    subject = wording.subject_phrase(text)
    if not subject:
        m = _ASKED_ABOUT.search(text)
        subject = m.group(1) if m else None
    if not subject:
        return entities
    subject = _TRAILING.sub("", subject).strip()
    if not subject or len(subject.split()) > 5 or len(subject) < 3 or subject.lower() in _GENERIC_SUBJECTS:
        return entities
    if len(re.findall(r"[A-Za-z]", subject)) < 2:
        return entities  # a date, a number or a code ("2020-06-21") names no compound
    start = text.find(subject)
    kept = [e for e in entities if not (e.kind == "compound" and e.extra.get("guessed"))]
    kept.append(Entity("compound", subject, start, start + len(subject), subject, {"guessed": True}))
    return sorted(kept, key=lambda e: e.start)


def _keyword_hits(matches: list[Match], kinds: set[str], graph: SchemaGraph, before: int) -> dict[str, float]:
    hits: dict[str, float] = defaultdict(float)
    for m in matches:
        if m.char_start >= before:
            continue
        for t in _resolve_case(m, kinds, graph):
            if t.kind == "intent":
                hits[t.target] += 1.5 if " " in t.phrase else 1.0
    return hits


def _resolve_case(m: Match, kinds: set[str], graph: SchemaGraph) -> tuple[Term, ...]:
    """Short capitalised words ("MP") may be a source or a property abbreviation: decide by context."""
    if not m.loose:
        return m.terms
    chemistry = "compound" in kinds or "cid" in kinds
    materials = "formula" in kinds or "chemsys" in kinds
    sources = [t for t in m.terms if t.kind == "source"]
    loose_concepts = [t for t in m.loose if t.kind in ("concept", "field")]
    if (sources and loose_concepts and chemistry and not materials
            and all(graph.sources[s.target].domain != "chemistry" for s in sources)):
        return tuple(loose_concepts)
    loose_sources = [t for t in m.loose if t.kind == "source"]
    if loose_sources and not m.terms and materials and not chemistry and m.text.isupper():
        return tuple(loose_sources)
    return m.terms


_IDENTIFIERS = {"doi": "doi", "pmid": "pmid", "arxiv_id": "arxiv_id", "cid": "cid", "material_id": "material_id",
                "inchikey": "inchikey"}


def _takes_identifiers(graph: SchemaGraph, source: str, entities: list[Entity]) -> bool:
    """A source named next to an identifier it cannot take ("the PubChem 2023 update, 10.1093/...")
    is the topic of the question, not its target."""
    wanted = {_IDENTIFIERS[e.kind] for e in entities if e.kind in _IDENTIFIERS}
    if not wanted:
        return True
    params = [p for info in graph.source_endpoints(source) for p in info.parameters]
    taken = {p.concept for p in params}
    if "query_text" in taken:  # a search box takes an identifier as text
        return True
    # a source declared without concepts takes a DOI in a parameter named for it (``doi``, ``resource_doi``)
    named = {c for c in wanted for p in params if p.concept is None and c.replace("_", " ") in humanize(p.name)}
    if not any(taken) and any(humanize(p.name).split()[-1:] in (["id"], ["ids"], ["identifier"]) for p in params):
        # a source declared without concepts says nothing of whose identifiers its ``entry_id`` takes:
        # the user who names it with one (an OPTIMADE provider's "mp-149") asks it
        return True
    return bool(wanted & (taken | named)) or not any(graph.index.by_param_concept.get(c) for c in wanted)


# nothing, or the identifier scheme written in capitals after at most one more word: "UniProt
# P04637", "Crossref DOI 10.1038/...", "PubChem compound CID 2244" (not "Crossref say 10.1038/...")
_QUALIFIER_GAP = re.compile(r"\s+(?:(?:[A-Za-z][\w-]*\s+)?[A-Z]{2,}[A-Za-z]*\s+)?")


def _targets(named: list[str], matches: list[Match], starts: list[int], text: str) -> list[str]:
    """The named sources the question asks, without those named only as the namespace of an
    identifier (an entity or identifier-shaped token starting at one of ``starts``) written right
    after them ("In CROssBAR, what is the SMILES of PubChem compound CID 2244?" asks CROssBAR;
    "UniProt P04637" says whose accession it is) when another is named too."""
    if len(named) < 2:
        return named
    qualifiers = set()
    for m in matches:
        for t in m.terms:
            if t.kind == "source" and any(
                    s >= m.char_end and _QUALIFIER_GAP.fullmatch(text[m.char_end:s]) for s in starts):
                qualifiers.add(t.target)
    return [s for s in named if s not in qualifiers] or named


def _takes_free_text(graph: SchemaGraph, intent: str | None, named: list[str]) -> bool:
    """Whether any endpoint that could answer has a free-text parameter (else the topic is noise)."""
    index = graph.index
    return (intent or "") in index.free_text_intents or any(s in index.free_text_sources for s in named)


def _comparable(graph: SchemaGraph, intent: str | None) -> bool:
    base = graph.decls.intents.get(intent or "")
    compare = graph.decls.intents.get(COMPARE_INTENT)
    return bool(base and compare and set(base.domains) & set(compare.domains))


def _subject(text: str, entities: list[Entity]) -> str | None:
    from schemarouter.understand import chemistry

    for e in entities:
        if e.kind in ("compound", "company"):
            return e.text
        if e.kind == "formula":
            name = e.extra.get("name")
            systematic = chemistry.systematic_name(e.value)
            return systematic or name or e.value
    return wording.subject_phrase(text)


__all__ = ["RulesUnderstander", "analyze", "entity_param_concepts"]
