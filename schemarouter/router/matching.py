"""ConceptMatch: how well an endpoint's fields answer the question's concepts.

Exact field name (3) above concept or alias (2) above substring of the field name (1); the
endpoint's score is the sum over concepts of its best field per concept, so asking for more
things never rewards an endpoint for merely having more fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from schemarouter.graph import EndpointInfo, FieldInfo
from schemarouter.graph.text import humanize, normalize

EXACT, ALIAS, SUBSTRING = 3.0, 2.0, 1.0


@dataclass
class EndpointMatch:
    score: float = 0.0
    fields: dict[str, tuple[float, str]] = field(default_factory=dict)  # field -> (score, why)
    unmatched: list[str] = field(default_factory=list)  # concepts no field answers


_MEMO_LIMIT = 64  # per endpoint: distinct (concept, words) pairs remembered


def match_endpoint(info: EndpointInfo, concepts: list[str], matched_words: dict[str, str]) -> EndpointMatch:
    result = EndpointMatch()
    best_by_phrase: dict[str, float] = {}
    for concept in concepts:
        said = matched_words.get(concept, concept)
        # the memo lives on the endpoint itself, so a rebuilt graph can never see another graph's fields
        memo = info.match_memo
        if memo is None:
            memo = info.match_memo = {}
        key = (concept, said)
        hit = memo.get(key)
        if hit is None:
            hit = _match_concept(info, concept, normalize(said))
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            memo[key] = hit
        best, fields = hit
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


def _match_concept(info: EndpointInfo, concept: str, words: str) -> tuple[float, tuple[tuple[str, float, str], ...]]:
    concept_words = humanize(concept)
    found: list[tuple[str, float, str]] = []
    for f in info.fields.values():
        score, why = _field_score(f, concept, concept_words, words)
        if score > 0:
            found.append((f.name, score, why))
    return max((s for _, s, _ in found), default=0.0), tuple(found)


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
