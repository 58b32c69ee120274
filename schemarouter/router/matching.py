"""ConceptMatch: how well an endpoint's fields answer the question's concepts.

Exact field name (3) above concept or alias (2) above substring of the field name (1); the
endpoint's score is the sum over concepts of its best field per concept, so asking for more
things never rewards an endpoint for merely having more fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from schemarouter.graph import EndpointInfo
from schemarouter.graph.text import humanize, normalize

EXACT, ALIAS, SUBSTRING = 3.0, 2.0, 1.0


@dataclass
class EndpointMatch:
    score: float = 0.0
    fields: dict[str, tuple[float, str]] = field(default_factory=dict)  # field -> (score, why)
    unmatched: list[str] = field(default_factory=list)  # concepts no field answers


def match_endpoint(info: EndpointInfo, concepts: list[str], matched_words: dict[str, str]) -> EndpointMatch:
    result = EndpointMatch()
    for concept in concepts:
        words = normalize(matched_words.get(concept, concept))
        concept_words = humanize(concept)
        best = 0.0
        for f in info.fields.values():
            score, why = _field_score(f.name, f.words, f.field.concepts, f.field.aliases, concept, concept_words, words)
            if score <= 0:
                continue
            best = max(best, score)
            previous = result.fields.get(f.name)
            if previous is None or previous[0] < score:
                result.fields[f.name] = (score, why)
        if best == 0:
            result.unmatched.append(concept)
        result.score += best
    return result


def _field_score(
    name: str, name_words: str, concepts: list[str], aliases: list[str], concept: str, concept_words: str, said: str
) -> tuple[float, str]:
    if concept == name or concept_words == name_words:
        if said in (name_words, normalize(name), concept_words):
            return EXACT, f"field name matched '{said}'"
        return ALIAS, f"field alias matched '{said}'"
    if concept in concepts:
        return ALIAS, f"concept {concept} matched '{said}'"
    if any(normalize(a) == said for a in aliases):
        return ALIAS, f"field alias matched '{said}'"
    if len(concept_words) >= 4 and (f" {concept_words} " in f" {name_words} " or (len(name_words) >= 5 and f" {name_words} " in f" {concept_words} ")):
        return SUBSTRING, f"field name contains '{concept_words}'"
    return 0.0, ""
