"""Quantities a scientist writes by convention rather than as a number in the parameter's unit.

The value reading (:mod:`schemarouter.router.values`) asks these for a parameter its other readings
leave empty: a time of day in hours for a number that is the hour of the day ("22:30 UTC" -> 22.5),
the middle of a year for a year taken as a decimal ("mid-2021" -> 2021.5), an altitude said in words
("at sea level" -> 0), and the code written in brackets after a name ("Dubai (DXB)" -> DXB). (An
element's particles read as an atomic number are :mod:`schemarouter.router.atomic_numbers`.)
"""

from __future__ import annotations

import re

from schemarouter.router.date_values import clock_parts

# the middle of a year, for a year taken as a decimal
_MID_YEAR = re.compile(r"\b(?:mid-?|(?:the\s+)?middle\s+of\s+|half\s*way\s+through\s+)((?:19|20)\d\d)\b", re.IGNORECASE)
# an altitude or elevation (``param_facts.ELEVATION_WORDS``) a question gives in words as zero: "at sea
# level", "back to ground level", "at the surface", not "sea-level pressure"
_ZERO_ELEVATION = re.compile(r"\b(?:at|to|from|on)\s+(?:mean\s+)?(?:sea|ground)[- ]level\b"
                             r"|\bat\s+the\s+(?:earth'?s\s+)?surface\b", re.IGNORECASE)


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
