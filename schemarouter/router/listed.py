"""Lists a question writes in prose, for a parameter that takes a list.

A list parameter (``companies``, ``data``, ``network_ids``) is given what the question lists, and a
question rarely writes brackets: "stock prices of Microsoft and Google", "scores 85, 90, 88, 92 and
86", "the networks 'n1', 'n2' and 'n3'". Each reader here finds one shape of such a list; the value
reader (:mod:`schemarouter.router.values`) asks them for list parameters only, after a list the
question writes in brackets.
"""

from __future__ import annotations

import re
from typing import Any

from schemarouter.router.numbers import parse_number, written_lists
from schemarouter.understand.base import Analysis

# three or more numbers joined by commas (a space after each: "12,000" is one number), the last one
# perhaps by "and"/"or": "85, 90, 88, 92, 86, 89, 91", "0.4, 0.6 and 0.8"
_NUMBER = r"-?\d+(?:\.\d+)?"
_NUMBER_RUN = re.compile(rf"(?<![\w.,\-]){_NUMBER}(?:,\s+{_NUMBER}){{1,}}(?:,?\s+(?:and|or)\s+{_NUMBER})?(?![\w.]|,\d)")
# what may stand between two names of one list
_NAME_JOINT = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")


def numbers_listed(question: str, taken: set[str]) -> list[Any]:
    """The first run of three or more numbers the question writes joined by commas (none of them
    taken), as numbers; [] where it writes none."""
    bracketed = [(at, at + len(text)) for at, text in written_lists(question)]
    for m in _NUMBER_RUN.finditer(question):
        if any(start <= m.start() < end for start, end in bracketed):
            continue  # a list in brackets is read whole, as written
        items = re.findall(_NUMBER, m.group())
        if len(items) >= 3 and not any(i in taken for i in items):
            return [parse_number(i) for i in items]
    return []


def names_listed(analysis: Analysis, taken: set[str]) -> tuple[list[str], tuple[str, ...]]:
    """Two or more names the question joins into one list ("Microsoft and Google", "Paris, Rome or
    Vienna"), in order, and the names of the question they spend; ([], ()) where it joins none. A
    name read as one run across "and" ("Microsoft and Google") is split where each part is capitalized."""
    question = analysis.text or analysis.question
    names = [e for e in analysis.names if str(e.value) not in taken]
    for i, first in enumerate(names):
        parts = [p.strip() for p in str(first.value).split(" and ")]
        if len(parts) > 1 and all(p[:1].isupper() for p in parts):
            return parts, (str(first.value), *parts)
        out, end = [str(first.value)], first.end
        for later in names[i + 1:]:
            joint = _NAME_JOINT.fullmatch(question[end:later.start])
            if joint is None:
                break
            out.append(str(later.value))
            end = later.end
        if len(out) > 1:
            return out, tuple(out)
    return [], ()


def joined_after(question: str, first: str) -> list[str]:
    """``first`` and the values of its shape joined to it by commas, "and" or "or" where the question
    writes it ("'n1', 'n2' and 'n3'", "KRDU and KJFK"), in order; ``[first]`` where none follow."""
    m = re.search(rf"(['\"]?){re.escape(first)}\1", question)
    if m is None:
        return [first]
    quote = m.group(1)
    item = rf"{quote}([^\s,'\"]+){quote}" if quote else r"([A-Za-z0-9][\w.:\-]*)"
    joint = re.compile(rf"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+){item}")
    out, at = [first], m.end()
    while (more := joint.match(question, at)) is not None:
        if not quote and not _same_shape(first, more.group(1)):
            break
        out.append(more.group(1))
        at = more.end()
    return out


def _same_shape(a: str, b: str) -> bool:
    """Whether two unquoted values are written alike (codes of capitals, or tokens with digits)."""
    return (a.isupper() and b.isupper()) or (any(c.isdigit() for c in a) and any(c.isdigit() for c in b))
