"""ConceptMatch: how well an endpoint's fields answer the question's concepts.

Exact field name (3) above concept or alias (2) above substring of the field name (1); the
endpoint's score is the sum over concepts of its best field per concept, so asking for more
things never rewards an endpoint for merely having more fields.

Two ways to the same result: :func:`match_endpoint` scans one endpoint's fields (for a few
endpoints), :func:`concept_hits` asks the graph's indexes which fields of ALL endpoints answer a
concept (for routing over a large inventory). Both score with :func:`_field_score` and combine
with :func:`_combine`, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from schemarouter.graph import EndpointInfo, FieldInfo, SchemaGraph
from schemarouter.graph.text import humanize, normalize
from schemarouter.router.memos import RouterGraphMemo

EXACT, ALIAS, SUBSTRING = 3.0, 2.0, 1.0

Found = tuple[tuple[str, float, str], ...]  # (field, score, why) in the endpoint's field order
Hit = tuple[float, Found]  # best score, found


@dataclass
class EndpointMatch:
    """How an endpoint's fields answer a question's concepts: total score, matched fields, concepts left."""
    score: float = 0.0
    fields: dict[str, tuple[float, str]] = field(default_factory=dict)  # field -> (score, why)
    unmatched: list[str] = field(default_factory=list)  # concepts no field answers


_MEMO_LIMIT = 64  # per endpoint: distinct (concept, words) pairs remembered
_HITS_LIMIT = 4096  # per graph: distinct (concept, words) pairs remembered
_NO_HIT: Hit = (0.0, ())


def match_endpoint(graph: SchemaGraph, info: EndpointInfo, concepts: list[str],
                   matched_words: dict[str, str]) -> EndpointMatch:
    """Score the fields of ``info`` (an endpoint of ``graph``) against ``concepts`` (each said as
    ``matched_words`` records)."""
    return _combine(concepts, matched_words, lambda concept, said: _endpoint_hit(graph, info, concept, said))


def _endpoint_hit(graph: SchemaGraph, info: EndpointInfo, concept: str, said: str) -> Hit:
    # remembered per graph, so a rebuilt graph can never see another graph's fields
    hits = graph.memos.of(RouterGraphMemo).endpoint_hits
    memo = hits.get(info.key)
    if memo is None:
        memo = hits[info.key] = {}
    key = (concept, said)
    hit = memo.get(key)
    if hit is None:
        hit = _match_concept(info, concept, normalize(said))
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        memo[key] = hit
    return hit


def match_from_hits(
    graph: SchemaGraph, info: EndpointInfo, concepts: list[str], matched_words: dict[str, str],
    hits: dict[tuple[str, str], dict[tuple[str, str], float]],
) -> EndpointMatch:
    """:func:`match_endpoint`, skipping the field scan for concepts :func:`concept_hits` says it has no
    field for (keyed by (concept, said))."""
    key = info.key
    return _combine(
        concepts, matched_words,
        lambda c, s: _endpoint_hit(graph, info, c, s) if key in hits[(c, s)] else _NO_HIT,
    )


def _combine(concepts: list[str], matched_words: dict[str, str], lookup: Callable[[str, str], Hit]) -> EndpointMatch:
    result = EndpointMatch()
    best_by_phrase: dict[str, float] = {}
    for concept in concepts:
        said = matched_words.get(concept, concept)
        best, fields = lookup(concept, said)
        for name, score, why in fields:
            previous = result.fields.get(name)
            if previous is None or previous[0] < score:
                result.fields[name] = (score, why)
        if best == 0:
            result.unmatched.append(concept)
        # one phrase of the question counts once, however many keys it produced
        phrase = normalize(said)
        best_by_phrase[phrase] = max(best_by_phrase.get(phrase, 0.0), best)
    result.score = sum(best_by_phrase.values())
    return result


def concept_hits(graph: SchemaGraph, concept: str, said: str) -> dict[tuple[str, str], float]:
    """Endpoint key -> best field score for every endpoint with a field answering ``concept`` said as
    ``said``; endpoints not listed have none. Remembered on the graph (per graph, never shared).

    Fields carrying the concept score ALIAS whatever their name (the first rule of ``_field_score``),
    so their endpoints come straight from the graph's index; only fields matched by name, alias or
    words are scored one by one."""
    memo = graph.memos.of(RouterGraphMemo).concept_hits
    key = (concept, said)
    hit = memo.get(key)
    if hit is not None:
        return hit
    words = normalize(said)
    concept_words = humanize(concept)
    carrying = graph.concept_fields.get(concept, [])
    best: dict[tuple[str, str], float] = dict.fromkeys(graph.index.concept_endpoints.get(concept, ()), ALIAS)
    by_name: dict[str, tuple[float, float]] = {}  # name -> (score by name, score by words): see _field_score
    get = best.get
    # the index holds only the fields each endpoint keeps, so every candidate is one of its endpoint's
    for f in graph.index.match_candidates(carrying, concept_words, words):
        # none of these carries the concept, so only its alias words vary between fields of one name
        scores = by_name.get(f.name)
        if scores is None:
            scores = by_name[f.name] = _name_scores(f, concept, concept_words, words)
        score = scores[0] or (ALIAS if words in f.alias_words else scores[1])
        if score > get((ep_key := (f.source, f.endpoint)), 0.0):
            best[ep_key] = score
    if len(memo) >= _HITS_LIMIT:
        memo.clear()
    memo[key] = best
    return best


def _name_scores(f: FieldInfo, concept: str, concept_words: str, said: str) -> tuple[float, float]:
    """For a field not carrying ``concept``, the parts of ``_field_score`` its name decides: the score of
    the name rule (checked before aliases) and of the words rule (checked after). Kept next to it."""
    name_words = f.words
    if concept == f.name or concept_words == name_words:
        return (EXACT if said in (name_words, f.raw_words, concept_words) else ALIAS), 0.0
    if len(concept_words) >= 4 and (f" {concept_words} " in f" {name_words} " or (len(name_words) >= 5 and f" {name_words} " in f" {concept_words} ")):
        return 0.0, SUBSTRING
    return 0.0, 0.0


def _match_concept(info: EndpointInfo, concept: str, words: str) -> Hit:
    found = _score_fields(info.fields.values(), concept, humanize(concept), words)
    return max((s for _, s, _ in found), default=0.0), found


def _score_fields(fields, concept: str, concept_words: str, words: str) -> Found:  # type: ignore[no-untyped-def]
    found: list[tuple[str, float, str]] = []
    for f in fields:
        score, why = _field_score(f, concept, concept_words, words)
        if score > 0:
            found.append((f.name, score, why))
    return tuple(found)


def _field_score(f: FieldInfo, concept: str, concept_words: str, said: str) -> tuple[float, str]:
    name, name_words = f.name, f.words
    if concept in f.field.concepts:
        # every field carrying a shared concept answers it equally; the name is no extra merit
        return ALIAS, f"concept {concept} matched '{said}'"
    if concept == name or concept_words == name_words:
        if said in (name_words, f.raw_words, concept_words):
            return EXACT, f"field name matched '{said}'"
        return ALIAS, f"field alias matched '{said}'"
    if said in f.alias_words:
        return ALIAS, f"field alias matched '{said}'"
    if len(concept_words) >= 4 and (f" {concept_words} " in f" {name_words} " or (len(name_words) >= 5 and f" {name_words} " in f" {concept_words} ")):
        return SUBSTRING, f"field name contains '{concept_words}'"
    return 0.0, ""
