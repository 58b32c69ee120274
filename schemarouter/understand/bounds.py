"""Screening constraints in wording: element lists ("containing Li, Fe and O") and numeric
bounds on a matched quantity ("band gap above 2 eV", "between 1 and 3 eV", "below 0.05").
"""

from __future__ import annotations

import re

from schemarouter.understand import chemistry

_SYMBOL_OR_NAME = r"(?:[A-Z][a-z]?|[a-z]{3,})"
_ELEMENT_LIST = re.compile(
    r"\b(?:contain(?:s|ing)?|with elements?|made of|composed of|consisting of|including)\s+(?:only\s+|both\s+)?"
    r"(" + _SYMBOL_OR_NAME + r"(?:\s*(?:,|and|&|\+)\s*(?:and\s+)?" + _SYMBOL_OR_NAME + r")*)",
)
_NUMBER = r"(-?\d+(?:\.\d+)?)"
_LOWER = re.compile(r"^\W*(?:is\s+|of\s+)?(?:above|over|greater than|more than|larger than|higher than|at least|exceeding|>=?|≥)\s*" + _NUMBER)
_UPPER = re.compile(r"^\W*(?:is\s+|of\s+)?(?:below|under|less than|smaller than|lower than|at most|up to|<=?|≤)\s*" + _NUMBER)
_BETWEEN = re.compile(r"^\W*(?:is\s+|of\s+)?(?:between|from)\s*" + _NUMBER + r"\s*(?:[a-zA-Z/]+\s*)?(?:and|to|-)\s*" + _NUMBER)


def element_list(text: str) -> tuple[list[str], tuple[int, int]] | None:
    """Element symbols listed after 'containing' and the like, with the span they occupy."""
    m = _ELEMENT_LIST.search(text)
    if not m:
        return None
    symbols: list[str] = []
    for word in re.split(r"\s*(?:,|\band\b|&|\+)\s*", m.group(1)):
        word = word.strip()
        if not word:
            continue
        symbol = word if word in chemistry.ELEMENTS and len(word) <= 2 and word[0].isupper() else chemistry.ELEMENT_BY_NAME.get(word.lower())
        if symbol is None:
            break
        symbols.append(symbol)
    return (symbols, m.span(1)) if symbols else None


def bound_after(text: str, end: int) -> tuple[float | None, float | None] | None:
    """A numeric window stated right after a quantity phrase ending at ``end``."""
    tail = text[end : end + 60]
    if m := _BETWEEN.match(tail):
        lo, hi = sorted((float(m.group(1)), float(m.group(2))))
        return lo, hi
    if m := _LOWER.match(tail):
        return float(m.group(1)), None
    if m := _UPPER.match(tail):
        return None, float(m.group(1))
    return None
