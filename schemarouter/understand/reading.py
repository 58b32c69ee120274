"""The reading every understand backend shares: names, identifiers, numbers and content terms.

These are read from the writing of the question alone (no vocabulary, no model), so the offline
rules and the LLM understander give the router the same values for sources nobody tuned the
vocabulary for, and the router never has to go back to the raw question.
"""

from __future__ import annotations

import re

from schemarouter.graph.terms import question_terms, stem
from schemarouter.understand import wording
from schemarouter.understand.actions import action_verb
from schemarouter.understand.base import Analysis
from schemarouter.understand.names import identifier_tokens, proper_names

_LIVE = re.compile(
    r"\b(?:right now|at (?:this|the) (?:moment|instant|time)|as (?:we speak|of now)|currently|real[- ]time|live"
    r"|this (?:instant|very moment)|at present|just now)\b", re.IGNORECASE)
_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "6th": 6, "7th": 7, "8th": 8,
    "9th": 9, "10th": 10,
}
_ORDINAL_NOUN = re.compile(r"\b(" + "|".join(_ORDINALS) + r")\s+([a-z]+)", re.IGNORECASE)
_NOUN_NUMBER = re.compile(r"\b([a-z]{3,})\s+(?:no\.?\s*|number\s+|#)?(\d{1,4})\b(?![.\-/]\d)", re.IGNORECASE)


def read_values(analysis: Analysis, text: str, source_spans: list[tuple[int, int]]) -> None:
    """Fill the shared reading of ``text`` into ``analysis`` (names, identifiers, dates, counts,
    terms, action verb, compared provenances). Entity spans already on the analysis are respected."""
    taken = [(e.start, e.end) for e in analysis.entities] + list(source_spans)
    analysis.names = proper_names(text, taken)
    taken_ids = taken + [(e.start, e.end) for e in analysis.names if e.extra.get("quoted")]
    ids = identifier_tokens(text, taken_ids)
    for e in ids:
        before = re.findall(r"[a-z]+", text[max(0, e.start - 40): e.start].lower())[-3:]
        e.extra["context"] = [stem(w) for w in before]
    analysis.identifiers = ids
    analysis.dates = _DATE.findall(text)
    counts: dict[str, int] = {}
    for m in _ORDINAL_NOUN.finditer(text):
        counts.setdefault(stem(m.group(2).lower()), _ORDINALS[m.group(1).lower()])
    for m in _NOUN_NUMBER.finditer(text):
        counts.setdefault(stem(m.group(1).lower()), int(m.group(2)))
    analysis.counts = counts
    analysis.all_terms = question_terms(text)
    blank = list(text)
    for start, end in [*taken, *((e.start, e.end) for e in analysis.names), *((e.start, e.end) for e in ids)]:
        for i in range(max(0, start), min(end, len(blank))):
            blank[i] = " "
    analysis.terms = question_terms("".join(blank))
    analysis.action = action_verb(text)
    analysis.live = bool(_LIVE.search(text))
    analysis.compare_kinds = wording.constraint_kinds(text) if analysis.compare else []
