"""Quantities a scientist writes by convention rather than as a number in the parameter's unit.

The value reading (:mod:`schemarouter.router.values`) asks these for a parameter its other readings
leave empty: a time of day in hours for a number that is the hour of the day ("22:30 UTC" -> 22.5),
the middle of a year for a year taken as a decimal ("mid-2021" -> 2021.5), an altitude said in words
("at sea level" -> 0), the code written in brackets after a name ("Dubai (DXB)" -> DXB), and an
element named for a parameter that takes its atomic number ("oxygen nuclei" -> 8).
"""

from __future__ import annotations

import re

from schemarouter.router.date_values import clock_parts
from schemarouter.understand.chemistry import ELEMENT_BY_NAME, ELEMENTS

# the middle of a year, for a year taken as a decimal
_MID_YEAR = re.compile(r"\b(?:mid-?|(?:the\s+)?middle\s+of\s+|half\s*way\s+through\s+)((?:19|20)\d\d)\b", re.IGNORECASE)
# an altitude or elevation (``param_facts.ELEVATION_WORDS``) a question gives in words as zero: "at sea
# level", "back to ground level", "at the surface", not "sea-level pressure"
_ZERO_ELEVATION = re.compile(r"\b(?:at|to|from|on)\s+(?:mean\s+)?(?:sea|ground)[- ]level\b"
                             r"|\bat\s+the\s+(?:earth'?s\s+)?surface\b", re.IGNORECASE)


# a parameter that takes an element as its atomic number ("Particle atomic number", "charge number Z")
_ATOMIC_NUMBER = re.compile(r"\b(?:atomic|proton|charge)[\s_-]+number\b", re.IGNORECASE)
_ELEMENT_NAME = re.compile(r"\b(" + "|".join(sorted(ELEMENT_BY_NAME, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_ATOMIC_NUMBERS = {symbol: z for z, symbol in enumerate(ELEMENTS, start=1)}  # ELEMENTS is in periodic order


def in_hours(clock: str, whole: bool) -> int | float:
    """A time of day ("HH:MM[:SS]") in hours: the hour alone where ``whole``, else a decimal (22.5)."""
    hour, minute, second = clock_parts(clock)
    if whole:
        return hour
    hours = hour + minute / 60 + second / 3600
    return int(hours) if hours == int(hours) else round(hours, 4)


def mid_year(question: str) -> tuple[float, str, str] | None:
    """(the decimal year, the year as written, the words that say it) for "mid-2021", "the middle of
    2021", "halfway through 2021"; None where the question says none."""
    m = _MID_YEAR.search(question)
    return (int(m.group(1)) + 0.5, m.group(1), m.group(0)) if m else None


def zero_elevation(question: str) -> str | None:
    """The words that say an altitude of zero ("at sea level"), or None."""
    m = _ZERO_ELEVATION.search(question)
    return m.group(0) if m else None


def code_after(name: str, question: str) -> str | None:
    """The short code the question writes in brackets right after ``name`` ("Frankfurt (EDDF)"), or None."""
    m = re.search(re.escape(name) + r"\s*\(\s*([A-Z][A-Z0-9]{1,5})\s*\)", question)
    return m.group(1) if m else None


def atomic_number(name: str, description: str, question: str, taken: set[str]) -> tuple[int, str] | None:
    """(the atomic number, the element's name as written) for a parameter whose name or description
    says it takes an atomic number, where the question names an element by name ("galactic cosmic-ray
    oxygen nuclei" -> 8); None otherwise. Only names: a symbol alone is too often a word ("I", "In")."""
    if _ATOMIC_NUMBER.search(f"{name.replace('_', ' ')} {description}") is None:
        return None
    for m in _ELEMENT_NAME.finditer(question):
        if m.group(1) not in taken:
            return _ATOMIC_NUMBERS[ELEMENT_BY_NAME[m.group(1).lower()]], m.group(1)
    return None
