"""Numbers a question writes beside a parameter's name, and the spans it gives.

"a pChEMBL value of at least 7", "at 300 km altitude", "between 1000000 and 5000000": read per
question and parameter name for :mod:`schemarouter.router.values`, which decides what each
parameter takes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from schemarouter.graph.terms import name_terms, stem
from schemarouter.router.memos import QuestionMemo
from schemarouter.understand.base import Analysis

# the words that name a lower and an upper bound (``start_date``, ``stop``, ``min_size``, ``until``)
START = frozenset(["start", "from", "since", "begin", "after", "min"])
END = frozenset(["end", "stop", "to", "until", "till", "before", "max"])


# a number may carry an exponent ("1e-9", "6.02E23"); a word may hold dots, colons and hyphens
# ("HGNC:1100", "e.g") but ends on a letter or digit: "rating." ends a sentence, "rating:" labels a value
# (and a number may group its thousands with commas: "$200,000" is one number, read as 200000)
# (a token of digits, letters and digits again, "3f2a", "12ab34", is an identifier's, read whole: a number
# glued to a unit, "6cm", "440Hz", is still a number and a word)
_TOKEN = re.compile(r"(?<![\w.])\d+[A-Za-z]+\d\w*|[A-Za-z](?:[\w.:\-]*\w)?|-?\d{1,3}(?:,\d{3})+(?![\d,])(?:\.\d+)?"
                    r"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_NUMBER = re.compile(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
# words that scale the number written before them ("213 million")
_SCALE = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_SCALED = re.compile(r"\s+(" + "|".join(_SCALE) + r")\b", re.IGNORECASE)
_NUMBER_REACH = 4  # words between a parameter's name and its number ("confidence above 0.6", "of at least 7")


@lru_cache(maxsize=256)
def question_tokens(question: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The question's tokens and their stems, once per question (every candidate endpoint asks)."""
    tokens: list[str] = _TOKEN.findall(question)
    return tuple(tokens), tuple(stem(t.lower()) for t in tokens)


def has_numbers(question: str) -> bool:
    """Whether the question writes a number as a token of its own (what ``number_after`` reads): a
    token that does not open with a letter (its tokens are words or numbers; no stems needed)."""
    return any(not t[:1].isalpha() for t in _TOKEN.findall(question))


def number_after(name: str, analysis: Analysis, strict: bool = False) -> str | None:
    """``_number_after_name`` for a parameter called ``name``, once per question and name (the same
    names recur across a registry's endpoints). ``strict`` (a text parameter's): the whole name
    only, and only words that say what it is ("of", "is") between it and the number."""
    memo = analysis.memos.of(QuestionMemo).number_after
    key = f"{name}\0strict" if strict else name
    if key not in memo:
        if strict:
            tokens, terms = question_tokens(analysis.question)
            named = list(name_terms(name))
            memo[key] = _number_after_terms(named, tokens, terms, strict=True, leads=_VALUE_LEADS) if named else None
        else:
            memo[key] = _number_after_name(name, analysis.question)
    return memo[key]


def _number_after_name(name: str, question: str) -> str | None:
    """The number written shortly after a numeric parameter's name: ``pchemblValue`` -> 7 in "a
    pChEMBL value of at least 7", ``confidence`` -> 0.6 in "with a confidence above 0.6" (not a
    number another noun labels: "altitude above latitude 45" gives altitude nothing); else the number
    written right before it, a short unit between: ``altitude`` -> 300 in "at 300 km altitude"."""
    named = list(name_terms(name))
    if not named:
        return None
    tokens, terms = question_tokens(question)
    found = _number_after_terms(named, tokens, terms)
    if found is None and len(named) > 1 and named[-1] not in _GENERIC_HEADS and named[-1] not in named[:-1]:
        # "an average rating of at least 4.9" for ``avg_rating``: the name's head noun, where the
        # question does not write the whole name, with nothing but leading words before the number
        found = _number_after_terms(named[-1:], tokens, terms, strict=True)
    for kin in _KIN_HEADS.get(named[-1], ()) if found is None else ():
        # "a review score of 4.5" (after the noun, as its head), "4.5 stars or more" (before it too)
        found = _number_after_terms([kin], tokens, terms, strict=kin != "star")
        if found is not None:
            break
    return found


def _number_after_terms(named: list[str], tokens: Sequence[str], terms: Sequence[str],
                        strict: bool = False, leads: frozenset[str] | None = None) -> str | None:
    leads = leads or _NUMBER_LEADS
    for i in range(len(tokens) - len(named) + 1):
        if list(terms[i:i + len(named)]) == named:
            end = i + len(named)
            for j in range(end, min(len(tokens), end + 1 + _NUMBER_REACH)):
                if not _NUMBER.fullmatch(tokens[j]):
                    if strict and tokens[j].lower() not in leads:
                        break  # "the note C4, 16 measures": 16 measures something else
                    continue
                before = tokens[j - 1].lower()
                if j > end and before.isalpha() and before not in leads:
                    break  # "latitude 45": the number of another noun
                return tokens[j].replace(",", "")
            if strict:
                continue
            if i >= 1 and _NUMBER.fullmatch(tokens[i - 1]):
                return tokens[i - 1].replace(",", "")
            if i >= 2 and _NUMBER.fullmatch(tokens[i - 2]) and tokens[i - 1].isalpha() and len(tokens[i - 1]) <= 3:
                return tokens[i - 2].replace(",", "")  # "300 km altitude"
    return None


# words that may stand between a parameter's name and its number ("a value of at least 7")
_NUMBER_LEADS = frozenset(["of", "at", "least", "most", "above", "below", "over", "under", "than", "to", "is", "be",
                           "equal", "equals", "around", "about", "approximately", "near", "exactly", "from", "by",
                           "minimum", "maximum", "min", "max", "up", "greater", "less", "more", "fewer", "with",
                           "preferably", "ideally", "roughly", "some", "not", "no"])
# the words that may stand between a text parameter's name and its number: what it is, not a bound
# ("a width of 500"; "a recipe under 500 calories" gives the recipe no number)
_VALUE_LEADS = frozenset(["of", "is", "be", "equal", "equals", "exactly"])
# other nouns a question measures the same thing by: a rating is a score, or so many stars
_KIN_HEADS = {"rate": ("score", "star")}
# head nouns that say what kind of number a name holds, not what it counts ("page_number", "max_count")
_GENERIC_HEADS = frozenset(["number", "num", "count", "valu", "id", "size", "total", "amount", "limit", "level"])


def with_scale(token: str, question: str) -> str:
    """``token`` times the scale word the question writes right after it ("213 million" ->
    "213000000"); ``token`` itself where none follows its first writing (or it is no number)."""
    m = re.search(rf"(?<![\w.]){re.escape(token)}(?![\w.])", question)
    scale = _SCALED.match(question, m.end()) if m is not None else None
    if scale is not None:
        try:
            value = Decimal(token) * _SCALE[scale.group(1).lower()]
        except InvalidOperation:
            return token
        return str(int(value)) if value == value.to_integral_value() else str(value.normalize())
    return token


def written_lists(question: str) -> list[tuple[int, str]]:
    """(position, text) of every list the question writes in square brackets, outermost only
    ("[[10, 20], [30, 40]]" is one list of two)."""
    out: list[tuple[int, str]] = []
    depth, start = 0, -1
    for i, ch in enumerate(question):
        if ch == "[":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "]" and depth:
            depth -= 1
            if depth == 0:
                out.append((start, question[start:i + 1]))
    return out


def list_items(text: str) -> list[Any]:
    """A written list's items: as JSON where it is JSON (nested lists, quoted strings), else split at
    commas, numbers as numbers and text unquoted."""
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    if isinstance(parsed, list):
        return parsed
    inner = text[1:-1] if text[:1] in "[(" and text[-1:] in "])" else text
    out: list[Any] = []
    for part in inner.split(","):
        part = part.strip().strip("\"'")
        if part:
            number = parse_number(part)
            out.append(part if number is None else number)
    return out


def parse_number(text: str) -> int | float | None:
    """A number as written ("1,500", "0.05", "1e-9"): an int where it is written as a whole number,
    else a float; None for text that is no number."""
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        return None
    return int(value) if value.is_integer() and not re.search(r"[.eE]", text) else value


def span_bound(words: Sequence[str], spans: list[tuple[str, str]], taken: set[str]) -> str | None:
    """For a parameter named for a bound (``start``, ``stop``, ``min``, ``max``), that end of the
    first span of numbers the question writes; None for any other parameter."""
    named = set(words)
    if not spans or not named & (START | END) or (named & START and named & END):
        return None
    low, high = spans[0]
    value = high if named & END else low
    return value if value not in taken else None


# words of a parameter name for a quantity a question writes as a percentage and an API takes as a
# fraction (``interest_rate`` 0.05 for "5%"), unless the name says it takes a percentage
_RATE_WORDS = frozenset(["rate", "yield", "ratio", "fraction"])
_PERCENT_WORDS = frozenset(["percent", "percentage", "pct", "percentages"])


def as_fraction(name: str, value: float, token: str, question: str) -> float:
    """``value`` / 100 where the question writes ``token`` as a percentage ("5%", "5 percent") and the
    parameter is named for a rate (``annual_yield``, ``discount_rate``); else ``value``."""
    words = set(name_terms(name)) | {w.lower() for w in re.split(r"[^A-Za-z]+|(?<=[a-z])(?=[A-Z])", name) if w}
    if not words & _RATE_WORDS or words & _PERCENT_WORDS:
        return value
    if re.search(rf"(?<![\w.]){re.escape(token)}\s*(?:%|percent\b)", question) is None:
        return value
    return value / 100
