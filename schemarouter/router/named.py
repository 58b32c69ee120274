"""Names a question ties to a parameter by the parameter's own words.

An imported endpoint that finds films may take ``directed_by`` and ``cast``, a music search
``artist`` and ``album``: plain strings whose declarations say nothing of a value's shape. The
question ties a name to one of them by writing that parameter's word next to it: "directed by
Jordan Peele", "the album Gotta Be Me", "with Bill Murray in the cast", "Peter Strickland as the
director". The name right after the word (past a few small words) or right before it is that
parameter's value, tied as firmly as a value written after its noun.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from schemarouter.graph.terms import stem
from schemarouter.router.param_facts import label_head
from schemarouter.understand.base import Analysis

# small words that may stand between a name and the word it is tied to
_BETWEEN = frozenset(["by", "of", "the", "a", "an", "as", "in", "is", "was", "called", "named", "titled"])
_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*")
MIN_STEM = 4  # "director" answers ``directed_by`` through their common stem; shorter stems are too loose


def name_tied(words: Sequence[str], analysis: Analysis, taken: set[str]) -> str | None:
    """The first unspent name of the question written next to the word the parameter named by
    ``words`` is for, or None."""
    head = label_head(words)
    if head is None or not analysis.names:
        return None
    wanted = stem(head.lower())
    if len(wanted) < MIN_STEM:
        return None
    question = analysis.question
    for e in analysis.names:
        value = str(e.value)
        if value in taken:
            continue
        before = _WORD.findall(question[max(0, e.start - 60):e.start])
        after = _WORD.findall(question[e.end:e.end + 60])
        if _tied(reversed(before), wanted) or _tied(after, wanted):
            return value
    return None


def _tied(words: Iterable[str], wanted: str) -> bool:
    """Whether the first word past the small ones (at most three of them) is the parameter's."""
    skipped = 0
    for word in words:
        low = word.lower()
        if low in _BETWEEN and skipped < 3:
            skipped += 1
            continue
        said = stem(low)
        return said == wanted or (len(said) >= MIN_STEM and (said.startswith(wanted) or wanted.startswith(said)))
    return False
