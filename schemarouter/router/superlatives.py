"""What a superlative asks to order by, and which way: "the longest trips", "the most expensive repair".

A parameter that orders the answer (``sort_by`` of a database import, an API's ``order``) lists the
fields it can order by; a question names the quantity by a superlative more often than by the field's
name. "Longest" orders by a length, a duration or a distance, "most expensive" and "cheapest" by a
price or a cost, "latest", "newest", "oldest" by a date; "highest capacity" names the field itself
(the enum reading finds that one). The superlative also says the direction: the high end ("longest",
"latest", "top") is the reversed order, the low end ("shortest", "cheapest", "oldest") the plain one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from schemarouter.graph.terms import name_terms, stem

# the superlatives that ask for an order or say how many of the top ("the 3 longest"): the one list the
# readers of an order (``question_facts``), of a count (``counts``) and of a direction share
SUPERLATIVES = ("most", "least", "highest", "lowest", "largest", "smallest", "biggest", "longest", "shortest", "latest",
                "newest", "oldest", "earliest", "cheapest", "heaviest", "lightest", "fastest", "slowest")
ANY_SUPERLATIVE = "|".join(SUPERLATIVES)

# superlative -> (the terms of the fields it orders by, whether it asks for the high end first)
_SAID: tuple[tuple[re.Pattern[str], tuple[str, ...], bool], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), tuple(stem(w) for w in words), high) for pattern, words, high in (
        (r"\blongest\b", ("length", "duration", "distance", "runtime", "milliseconds", "time"), True),
        (r"\bshortest\b", ("length", "duration", "distance", "runtime", "milliseconds", "time"), False),
        (r"\b(?:most expensive|priciest|costliest|dearest)\b", ("price", "cost", "fare", "fee", "amount", "total"), True),
        (r"\b(?:cheapest|least expensive)\b", ("price", "cost", "fare", "fee", "amount", "total"), False),
        (r"\b(?:latest|newest|most recent)\b", ("date", "time", "timestamp", "year", "created", "started",
                                                      "updated", "opened", "released", "on", "at"), True),
        (r"\b(?:oldest|earliest)\b", ("date", "time", "timestamp", "year", "created", "started", "updated",
                                            "opened", "released", "on", "at"), False),
        (r"\b(?:largest|biggest)\b", ("size", "capacity", "area", "bytes", "volume", "population", "count"), True),
        (r"\bsmallest\b", ("size", "capacity", "area", "bytes", "volume", "population", "count"), False),
        (r"\bheaviest\b", ("weight", "mass"), True),
        (r"\blightest\b", ("weight", "mass"), False),
        (r"\b(?:fastest|quickest)\b", ("speed", "velocity"), True),
        (r"\bslowest\b", ("speed", "velocity"), False),
    ))
# the high end said plainly: "the most ...", "the highest ...", "top 5"
_HIGH = re.compile(r"\b(?:most|highest|largest|biggest|longest|latest|newest|most recent|top|greatest|heaviest|"
                   r"fastest|priciest|most expensive|maximum)\b", re.IGNORECASE)
_LOW = re.compile(r"\b(?:least|lowest|smallest|shortest|oldest|earliest|cheapest|fewest|lightest|slowest|minimum)\b",
                  re.IGNORECASE)


# a name a date or a time goes by whatever it dates: ``repaired_on``, ``createdAt``, ``InvoiceDate``
_DATED = re.compile(r"(?:_on|_at|On|At|[Dd]ate|[Tt]ime(?:stamp)?)$")
_DATE_ORDER = frozenset({stem("date"), stem("time")})


def ordered_member(members: Sequence[Any], question: str) -> Any:
    """The member of an ordering parameter's ``members`` (field names) a superlative of the question
    orders by ("the longest trips" -> duration_min), or None."""
    for pattern, terms, high in _SAID:
        if pattern.search(question):
            # a member that spells its direction ("release_date.asc") must spell the superlative's
            wrong = "asc" if high else "desc"
            fitting = [m for m in members if isinstance(m, str) and wrong not in name_terms(m)]
            for term in terms:
                hit = next((m for m in fitting if term in name_terms(m)), None)
                if hit is not None:
                    return hit
            if _DATE_ORDER & set(terms):
                hit = next((m for m in fitting if _DATED.search(m)), None)
                if hit is not None:
                    return hit
    return None


def high_end_first(question: str) -> bool:
    """Whether the question asks for the high end first ("the longest", "the latest", "top 5") and not
    the low end ("the cheapest", "the oldest")."""
    high, low = _HIGH.search(question), _LOW.search(question)
    return high is not None and (low is None or high.start() < low.start())


_REVERSING = frozenset(["desc", "descending", "reverse", "reversed"])


def reverses(words: Sequence[str]) -> bool:
    """Whether a flag's name words say it reverses the order (``descending``, ``desc``, ``reverse``)."""
    return not _REVERSING.isdisjoint(words)



def most_said(members: Sequence[Any]) -> list[Any]:
    """Of several members the question's words name, the one named by the most words, where one is
    ("the highest band gap of the measurements": band_gap by two words, not measured_on by one)."""
    sizes = [len(name_terms(m)) if isinstance(m, str) else 0 for m in members]
    best = max(sizes)
    top = [m for m, n in zip(members, sizes, strict=True) if n == best]
    return top if len(top) == 1 else list(members)
