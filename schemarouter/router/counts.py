"""What a question counts, read for a parameter named for a count.

"the second season" for ``season_number``, "a 7-day forecast" for ``days``, "two smoking rooms" for
``number_of_rooms``, "10 entries per page" for ``perPage``: the understand step reads each number
with the words it counts (``Analysis.counts``); this module says which of them a parameter's name
asks for. Split from :mod:`schemarouter.router.values`, which decides what each parameter takes.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from schemarouter.graph.terms import stem
from schemarouter.models import Parameter
from schemarouter.router.name_words import name_words
from schemarouter.router.param_facts import PEOPLE_NOUNS, count_word, names_a_size
from schemarouter.router.superlatives import ANY_SUPERLATIVE
from schemarouter.understand.base import Analysis
from schemarouter.understand.reading import CARDINALS

_CARDINALS = {**CARDINALS, "twenty": 20, "fifty": 50, "hundred": 100}  # how many records, as words
_NUMBER = r"(\d{1,4}|" + "|".join(_CARDINALS) + r")"
# "the top 5", "at most 20", "limit it to 50", "only 3", or a number of results ("10 results", "20 entries")
_HOW_MANY = re.compile(
    r"\b(?:top|first|at most|up to|no more than|maximum(?: of)?|max|limit(?:ed|ing)?(?: (?:it|them|the results?|results))? to"
    r"|only|just)\s+" + _NUMBER + r"\b(?![.,:/\-]\d)"
    r"|(?<![\w.,])" + _NUMBER + r"\s+(?:results?|records?|entries|entry|items?|hits?|rows?|matches)\b"
    # "the 3 longest trips", "five most expensive repairs": a number before a superlative
    r"|(?<![\w.,])" + _NUMBER + r"\s+(?:" + ANY_SUPERLATIVE + r"|best|worst)\b",
    re.IGNORECASE,
)


def count_for(p: Parameter, analysis: Analysis, other_words: bool = False) -> tuple[str, int] | None:
    """``season_number`` -> (season, 2) for "the second season" or "season 2"; ``days`` -> (day, 7) for
    "a 7-day forecast"; with ``other_words``, ``star_rating`` -> (star, 3) for "a 3-star hotel" (the
    count of another word of a short name, where the word it is read for has none: for an enum, whose
    members then check it; for a number, "two notes" would give first_note_frequency 2); ``perPage`` ->
    (per page, 10) for "10 entries per page"; ``limit`` -> (results, 5) for "at most 5" or "the top 5"."""
    words = name_words(p.name)
    if "per" in words[:-1]:
        # ``perPage``, ``results_per_page``: the number written before "per page" ("10 entries per page")
        unit = words[words.index("per") + 1]
        m = re.search(rf"(?<![\w.])(\d{{1,4}})\s+(?:[A-Za-z]+\s+){{0,2}}per\s+{re.escape(unit)}s?\b",
                      analysis.question, re.IGNORECASE)
        return (f"per {unit}", int(m.group(1))) if m else None
    if names_a_size(words):
        # ``limit``, ``max_results``, ``page_size``, ``top_k``: how many records the question asks for
        said = _HOW_MANY.search(analysis.question)
        if said is not None:
            written = next(g for g in said.groups() if g)
            n = int(written) if written.isdigit() else _CARDINALS[written.lower()]
            return ("results", n) if n > 0 else None  # "the 0 longest" asks for no number of records
        counted = _counted_before_superlative(analysis)
        if counted is not None:
            return counted
    word = count_word(words) if analysis.counts else None
    if word is None:
        return None
    noun = noun_for(word, analysis.counts, len(words) > 1)
    if noun in analysis.counts:
        return noun, analysis.counts[noun]
    if noun in PEOPLE_NOUNS:
        # "a bus for two people" for num_passengers, "4 ppl" for number_of_adults: a count of people
        # is a count of whichever people the parameter names
        people = next((n for n in analysis.counts if n in PEOPLE_NOUNS), None)
        if people is not None:
            return people, analysis.counts[people]
    if not other_words or len(words) > 3:
        return None
    other = next((stem(w) for w in words if w != word and stem(w) in analysis.counts), None)
    return (other, analysis.counts[other]) if other is not None else None


def free_key(value: str, question: str, taken: Collection[str]) -> str | None:
    """The key a number of the question is spent under: the number as written where it is not taken,
    else, where the question writes it again ("2 bedrooms and 2 bathrooms", "5% ... for 5 years"),
    the key of its next writing (``2#2``); None where every writing is spent."""
    if value not in taken:
        return value
    written = len(re.findall(rf"(?<![\w.]){re.escape(value)}(?![\w]|\.\d)", question))
    for k in range(2, written + 1):
        key = f"{value}#{k}"
        if key not in taken:
            return key
    return None


def noun_for(word: str, nouns: dict[str, Any], compound: bool = True) -> str:
    """The question's noun a parameter-name word stands for: its stem, or for a short abbreviation the
    one noun it begins ("v" in ``v_number`` for "version 2"); the stem when none or several fit. A
    one-letter name alone (``compound`` false) is a variable ("a", "c" of a quadratic), no abbreviation."""
    term = stem(word)
    if term in nouns or len(word) > 3 or not word.isalpha() or (len(word) == 1 and not compound):
        return term
    starting = [n for n in nouns if n.startswith(word) and len(n) > len(word)]
    return starting[0] if len(starting) == 1 else term


# "Which 2 measurements have the highest band gap?": a count of the records asked for, then a superlative
_COUNTED_TOP = re.compile(r"(?<![\w.,])" + _NUMBER + r"\s+([A-Za-z]+)\b[^?.!]{0,40}?\b(?:the\s+)?(?:"
                          + ANY_SUPERLATIVE + r")\b", re.IGNORECASE)


def _counted_before_superlative(analysis: Analysis) -> tuple[str, int] | None:
    """(the counted noun, how many) where the question counts the records it asks for and then orders
    them by a superlative ("Which 2 measurements have the highest band gap?"), else None."""
    m = _COUNTED_TOP.search(analysis.question)
    if m is None or not m.group(2).isalpha():
        return None
    n = int(m.group(1)) if m.group(1).isdigit() else _CARDINALS[m.group(1).lower()]
    return (m.group(2).lower(), n) if 0 < n < 1000 else None  # "in 2019 the latest papers": a year counts nothing
