"""Intent evidence: which intents a question's keywords, concepts, entities and named sources
point to. Everything except keyword weights is derived from the graph (which endpoints serve
which intents, which parameters take which concepts), so new sources shift it automatically.
"""

from __future__ import annotations

from collections import defaultdict

from schemarouter.graph import SchemaGraph
from schemarouter.understand.entities import Entity
from schemarouter.understand.memos import UnderstandGraphMemo

# Which parameter concept an entity the readers of this package find is sent as. A value read by a
# concept's declared pattern (an identifier) is of that concept: see ``entity_concept``.
ENTITY_CONCEPT = {
    "formula": "formula", "elements": "element", "chemsys": "chemsys", "compound": "compound_name",
    "company": "corp_name", "tag": "tag", "author": "author", "title": "title",
}
_ENTITY_WEIGHT = 1.5
_NAME_WEIGHT = 1.25
_CONCEPT_WEIGHT = 0.8
_NAMED_WEIGHT = 0.8
_UNCARRIED_KEYWORD = 0.5  # a keyword's weight for an intent that carries none of the question's concepts
_EXCLUDED = frozenset({"cross_source_comparison"})  # a comparison is a flag on top of another intent


def entity_param_concepts() -> dict[str, str]:
    """Entity kind -> the parameter concept that takes such a value (of the kinds read in code)."""
    return dict(ENTITY_CONCEPT)


def entity_concept(e: Entity) -> str | None:
    """The parameter concept that takes the value of ``e``: its concept when a declared pattern read it,
    else the concept of its kind, or None."""
    return e.kind if e.extra.get("declared") else ENTITY_CONCEPT.get(e.kind)


def _memo(graph: SchemaGraph) -> dict[tuple[str, str], dict[str, float]]:
    return graph.memos.of(UnderstandGraphMemo).evidence


def _param_concept_intents(graph: SchemaGraph, concept: str) -> dict[str, float]:
    """Share of the sources taking ``concept`` as a parameter whose endpoints (those taking it)
    serve each intent. Counted per source, so a source with one endpoint per intent (DART's
    company and financial statement) backs each of its intents fully."""
    memo = _memo(graph)
    key = ("param", concept)
    if key not in memo:
        endpoints = list(graph.index.by_param_concept.get(concept, ()))
        if concept == "title":  # a quoted title names a publication, not a page or a question
            endpoints = [i for i in endpoints if i.domain == "literature"] or endpoints
        served: dict[str, set[str]] = defaultdict(set)
        for info in endpoints:
            served[info.key.source] |= set(info.intents)
        counts: dict[str, float] = defaultdict(float)
        for intents in served.values():
            for intent in intents:
                counts[intent] += 1.0 / len(served)
        memo[key] = dict(counts)
    return memo[key]


def _concept_intents(graph: SchemaGraph, concept: str) -> dict[str, float]:
    """Share of the fields matching ``concept`` (by concept or name) whose endpoint's intent wants their group.

    Counted at build time (``graph.shares``); each share is 1/n added once per field, in that order,
    as a walk over the fields would add it."""
    memo = _memo(graph)
    key = ("concept", concept)
    if key not in memo:
        n_concept, by_concept = graph.concept_intent_counts.get(concept, (0, ()))
        n_named, by_name = graph.name_intent_counts.get(concept, (0, ()))
        total = n_concept + n_named
        per_intent: dict[str, int] = dict(by_concept)
        for intent, k in by_name:
            per_intent[intent] = per_intent.get(intent, 0) + k
        counts: dict[str, float] = {}
        for intent, k in per_intent.items():
            share = 0.0
            for _ in range(k):
                share += 1.0 / total
            counts[intent] = share
        memo[key] = counts
    return memo[key]


def intent_evidence(
    graph: SchemaGraph,
    keyword_hits: dict[str, float],
    concepts: list[str],
    entities: list[Entity],
    named: list[str],
) -> dict[str, float]:
    """Intent -> evidence for it from keywords, concepts, entities and named sources (weighted sum)."""
    scores: dict[str, float] = defaultdict(float)
    carried = {intent for concept in concepts for intent in _concept_intents(graph, concept)}
    for intent, weight in keyword_hits.items():
        # "What is the density of iron?" asks for a quantity: wording alone ("what is") is weak evidence
        # for an intent whose sources carry none of what is asked
        scores[intent] += weight if not carried or intent in carried else weight * _UNCARRIED_KEYWORD
    for concept in concepts:
        for intent, share in _concept_intents(graph, concept).items():
            scores[intent] += _CONCEPT_WEIGHT * share
    weights: dict[str, float] = {}
    for e in entities:
        # a formula read from a common name ("lithium", "quartz") is weaker evidence than one written out
        w = _NAME_WEIGHT if e.kind == "formula" and e.extra.get("name") else _ENTITY_WEIGHT
        taken_as = entity_concept(e)
        if taken_as:
            weights[taken_as] = max(weights.get(taken_as, 0.0), w)
    for param_concept, weight in weights.items():
        for intent, share in _param_concept_intents(graph, param_concept).items():
            scores[intent] += weight * share
    for source in named:
        served = {i for info in graph.source_endpoints(source) for i in info.intents}
        for intent in served:
            scores[intent] += _NAMED_WEIGHT / len(served) * 2
    return {i: round(s, 4) for i, s in scores.items() if i not in _EXCLUDED and i in graph.decls.intents}
