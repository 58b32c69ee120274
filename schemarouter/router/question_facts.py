"""What a question carries, read once per question for every parameter that could take from it.

The counterpart of :mod:`schemarouter.router.param_facts`: there, what a declaration could take
whatever the question (a parameter's ``needs`` and ``cues``); here, what the question gives (the
kinds of value it carries, the words it says, the calendar units and order it implies, its
identifiers in order), kept in the question's :class:`~schemarouter.router.memos.QuestionMemo`. :func:`may_take` and :func:`may_fill` put the two
together, so the value reading (:mod:`schemarouter.router.values`) skips unread what cannot take
anything from the question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from schemarouter.graph.terms import stem
from schemarouter.prefilter import prefiltered
from schemarouter.router.endpoint_facts import EndpointFacts
from schemarouter.router.memos import QuestionMemo
from schemarouter.router.numbers import has_numbers
from schemarouter.router.param_facts import (
    COUNT_CUE,
    LABEL_CUE,
    ORDER_CUE,
    SAYS_ADDRESSES,
    SAYS_CODES,
    SAYS_COORDINATES,
    SAYS_COUNTS,
    SAYS_DATES,
    SAYS_ENTITIES,
    SAYS_IDS,
    SAYS_LABELS,
    SAYS_NAMES,
    SAYS_NUMBERS,
    SAYS_SPANS,
    SAYS_TIMES,
    UNIT_CUE,
    ParamFacts,
)
from schemarouter.router.places import known_city_after
from schemarouter.router.superlatives import ANY_SUPERLATIVE, SUPERLATIVES
from schemarouter.understand.base import Analysis
from schemarouter.understand.entities import Entity


def question_says(analysis: Analysis) -> int:
    """The kinds of value the question carries, as the ``SAYS_*`` bits of a parameter's ``needs``
    (once per question)."""
    memo = analysis.memos.of(QuestionMemo)
    found = memo.says
    if found is None:
        kinds = (
            # a US city written in lower case after "in" is a name too (router.places)
            (SAYS_NAMES, analysis.names or known_city_after(analysis.question) is not None), (SAYS_IDS, identifiers(analysis)), (SAYS_ENTITIES, analysis.entities),
            (SAYS_LABELS, analysis.labels), (SAYS_CODES, analysis.codes), (SAYS_DATES, dates_said(analysis)),
            (SAYS_COORDINATES, analysis.coordinates is not None), (SAYS_SPANS, analysis.spans),
            (SAYS_COUNTS, analysis.counts), (SAYS_NUMBERS, has_numbers(analysis.question)),
            (SAYS_TIMES, analysis.times), (SAYS_ADDRESSES, _ADDRESS_LIKE.search(analysis.question) is not None),
        )
        found = memo.says = sum(bit for bit, present in kinds if present)
    return found


# what every address has inside it: an @, a dot between letters or digits ("example.com", "10.0.0.2") or
# an IPv6 "::"
_ADDRESS_LIKE = re.compile(r"@|\w\.\w|::")


def dates_said(analysis: Analysis) -> bool:
    """Whether the question gives a date, a month ("March 2024") or a year: what bounds a span."""
    return bool(analysis.dates or analysis.months or analysis.entity("year"))


def question_words(analysis: Analysis) -> frozenset[str]:
    """Everything the question says in words, as a parameter's ``cues`` name it: its terms and
    compounds, its words as written and in lower case (an enum member, a flag), the calendar units
    it implies, the nouns it writes a value after and the nouns it counts (once per question)."""
    memo = analysis.memos.of(QuestionMemo)
    found = memo.words
    if found is None:
        said = said_sets(analysis)
        cued = [*(UNIT_CUE + unit for unit in units_said(analysis.question)),
                *(LABEL_CUE + noun for noun in analysis.labels), *(COUNT_CUE + noun for noun in analysis.counts),
                *([ORDER_CUE] if said.orders else [])]
        found = memo.words = said.asked | said.written | said.lowered | frozenset(cued)
    return found


def may_take(f: ParamFacts, says: int, words: frozenset[str]) -> bool:
    """Whether a parameter with facts ``f`` may take a value from a question that carries the kinds
    of value ``says`` and the ``words`` (:func:`question_says`, :func:`question_words`): False only
    where the value reading would surely give it nothing."""
    return bool(f.needs & says) or not f.cues.isdisjoint(words)


def may_fill(facts: EndpointFacts, analysis: Analysis) -> bool:
    """Whether any parameter of an endpoint with ``facts`` may take something from the question: one
    the vocabulary rules fill (a concept), free text or part of a date (those also take the question's
    words or a date in parts), or one :func:`may_take` lets through."""
    return facts.concepts or facts.open_text or bool(facts.needs & question_says(analysis)) \
        or not facts.cues.isdisjoint(question_words(analysis))


# Calendar units a question says without naming them: "today's most trending" is a window of a day
_UNITS = {
    "day": prefiltered(r"\b(?:today(?:'s)?|tonight|daily|per day|24 hours)\b", "day", "tonight", "daily", "hours",
                       flags=re.IGNORECASE),
    "week": prefiltered(r"\b(?:weekly|this week(?:'s)?|per week|7 days)\b", "week", "days", flags=re.IGNORECASE),
    "month": prefiltered(r"\b(?:monthly|this month(?:'s)?|per month)\b", "month", flags=re.IGNORECASE),
    "year": prefiltered(r"\b(?:yearly|annually|this year(?:'s)?|per year)\b", "year", "annually", flags=re.IGNORECASE),
    "hour": prefiltered(r"\b(?:hourly|this hour|per hour)\b", "hour", flags=re.IGNORECASE),
}


def unit_terms(question: str, unit: str) -> tuple[str, ...]:
    """The terms of the words that say calendar ``unit`` in the question ("today" for day)."""
    pattern = _UNITS.get(unit)
    m = pattern.search(question) if pattern is not None else None
    return tuple(stem(w.lower()) for w in re.findall(r"[A-Za-z]+", m.group())) if m else ()


@lru_cache(maxsize=256)
def units_said(question: str) -> frozenset[str]:
    """The calendar units the question implies ("today" -> day)."""
    return frozenset(unit for unit, pattern in _UNITS.items() if pattern.search(question))


@dataclass(frozen=True, slots=True)
class QuestionWords:
    """What the question says in words, as the value reading looks it up (once per question)."""

    terms: frozenset[str]
    written: frozenset[str]  # its words as written
    lowered: frozenset[str]  # those in lower case
    asked: frozenset[str]  # its terms and compounds ("full text" -> fulltext)
    orders: bool  # whether it asks for an order (a superlative, "top", "sorted by")


def said_sets(analysis: Analysis) -> QuestionWords:
    """:class:`QuestionWords` of the question, once per question."""
    memo = analysis.memos.of(QuestionMemo)
    found = memo.said
    if found is None:
        written = frozenset(w for w, _ in analysis.words)
        found = memo.said = QuestionWords(
            frozenset(analysis.all_terms), written, frozenset(w.lower() for w in written),
            frozenset((*analysis.all_terms, *analysis.compounds)), bool(_ORDER_CUES.search(analysis.question)),
        )
    return found


# words that ask for the results in an order: a superlative, a rank, or the order itself
_ORDER_WORDS = (*SUPERLATIVES, "top", "best", "worst", "recent", "trending", "popular", "sort", "order", "rank", "priciest")
_ORDER_CUES = prefiltered(r"\b(?:" + ANY_SUPERLATIVE + r"|top|best|worst|recent|trending|popular|sort(?:ed)?|"
                          r"order(?:ed)?|rank(?:ed|ing)?|priciest)\b", *_ORDER_WORDS, flags=re.IGNORECASE)


def identifiers(analysis: Analysis) -> list[Entity]:
    """Identifier-shaped tokens and the identifiers the entity readers recognized, in question order
    (once per question)."""
    memo = analysis.memos.of(QuestionMemo)
    found = memo.identifiers
    if found is None:
        found = [*analysis.identifiers, *(e for e in analysis.entities if e.extra.get("declared"))]
        found.sort(key=lambda e: e.start)
        memo.identifiers = found
    return found


# a value set off in quotes: "double", “curly”, `back` or 'single' (not the apostrophe of "Norris's")
_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|`([^`]+)`|(?<!\w)'([^']+)'(?!\w)")


@lru_cache(maxsize=256)
def quoted_values(question: str) -> tuple[str, ...]:
    """The values a question sets off in quotes, in order, without the quotes (once per question: every
    candidate endpoint's search parameter asks)."""
    return tuple(next(g for g in m.groups() if g) for m in _QUOTED.finditer(question))


_EDGE = "\"'“”‘’([{<>}]),.;:!?"  # what a written word's value does not begin or end with


def written_in_shape(question: str, shape: re.Pattern[str], taken: set[str]) -> str | None:
    """The question's first word (up to its spaces, less quotes, brackets and closing punctuation) that
    has ``shape`` and no other parameter took: "192.168.2.200" of "this IP address, 192.168.2.200,
    was ..."."""
    for word in question.split():
        value = word.strip(_EDGE)
        if value and value not in taken and shape.fullmatch(value):
            return value
    return None
