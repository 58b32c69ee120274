"""The longest run of words a question writes that an endpoint's declaration leaves unsaid.

What a free-text search is given where the question names nothing to search for ("journals about
marine biology" -> "marine biology" for a journal search), and the last-resort guess for a required
text parameter (:mod:`schemarouter.router.guesses`): the part of the question the endpoint itself does
not describe. Kept apart from :mod:`schemarouter.router.values`, which asks it.
"""

from __future__ import annotations

from collections.abc import Callable

from schemarouter.router.numbers import question_tokens
from schemarouter.understand.base import Analysis

# prepositions and verb particles: a word that places or attaches others ("find *out*", "concerts *near*
# me", "*under* 30 minutes") is never itself a value to send, and a run of words stops at it
_NO_VALUE = frozenset(["out", "up", "off", "down", "away", "back", "near", "nearby", "under", "over", "above",
                       "below", "beneath", "beyond", "within", "without", "around", "across", "along", "among",
                       "amongst", "against", "after", "before", "during", "until", "till", "since", "through",
                       "throughout", "toward", "towards", "upon", "onto", "into", "past", "inside", "outside",
                       "beside", "besides", "between", "behind", "except", "unlike", "regarding", "concerning",
                       # participles used as prepositions ("a chocolate cake *including* the steps")
                       "including", "excluding", "involving", "via", "per"])


def longest_run(analysis: Analysis, unexplained: Callable[[str], bool]) -> str | None:
    """The longest run of adjacent content words of the question that ``unexplained`` accepts, as
    written (the first of equal length); None when there is none. A preposition or particle
    (:data:`_NO_VALUE`) is in no run."""
    tokens, _terms = question_tokens(analysis.question)
    at = 0
    runs: list[list[str]] = []
    last = -2
    for written, term in analysis.words:
        try:
            i = tokens.index(written, at)
        except ValueError:
            continue  # not a token as the tokenizer cut it ("recognition'"): no run through it
        at = i + 1
        if not unexplained(term) or term in analysis.asked or written.lower() in _NO_VALUE:
            continue  # the answer's kind is not what to search for, nor is a preposition
        if i == last + 1 and runs:
            runs[-1].append(written)
        else:
            runs.append([written])
        last = i
    best = max(runs, key=len, default=None)
    return " ".join(best) if best else None
