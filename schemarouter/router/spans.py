"""How long a stretch of time a question asks about, for a parameter named for one.

A parameter named ``duration``, ``period``, ``timeframe`` or ``time_window`` takes a stretch of
time as text ("for the last 2 weeks" -> "2 weeks", "this weekend" -> "weekend"): the count and the
calendar unit the question writes, without the words that place it ("last", "next", "this"). Dates
and clock times are read elsewhere (:mod:`schemarouter.router.date_values`); a stretch given as an
enum member ("six_months") is read as members are (:mod:`schemarouter.router.members`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# words of a parameter name for a stretch of time; "frame", "range" and "window" only beside "time"
_SPAN_WORDS = frozenset(["duration", "period", "timeframe", "timespan", "span", "timewindow"])
_TIMED_WORDS = frozenset(["frame", "range", "window"])
_COUNT = r"\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few|couple\s+of"
_UNITS = ("hour", "day", "week", "weekend", "fortnight", "month", "quarter", "year", "decade")
_UNIT = rf"(?:{'|'.join(_UNITS)})s?"
# "the last 2 weeks", "next month", "past three years", "this weekend", "for 6 months"
_SPAN = re.compile(
    rf"\b(?:(?:the\s+)?(?:last|past|next|coming|previous|following|this|upcoming)\s+(?P<placed>(?:(?:{_COUNT})\s+)?{_UNIT})"
    rf"|(?:for|over|within|in)\s+(?:the\s+)?(?P<counted>(?:{_COUNT})\s+{_UNIT}))\b"
    r"(?!['’]s)",  # "this week's lab report" owns the report; it asks for no stretch
    re.IGNORECASE)


# the calendar units a stretch of time is written in, as a question writes them
SPAN_UNITS = frozenset(unit + s for unit in _UNITS for s in ("", "s"))


def names_a_span(words: Sequence[str]) -> bool:
    """Whether a parameter's name words say it takes a stretch of time (``duration``, ``time_frame``)."""
    said = {w.lower() for w in words}
    return bool(said & _SPAN_WORDS) or ("time" in said and bool(said & _TIMED_WORDS))


def span_cues(words: Sequence[str]) -> frozenset[str]:
    """The words a question writes a stretch of time in, for a parameter named for one (else none):
    whether the reading may give it a value (``param_facts`` cues)."""
    return SPAN_UNITS if names_a_span(words) else frozenset()


def written_span(question: str, taken: set[str]) -> str | None:
    """The first stretch of time the question writes ("2 weeks", "weekend"), or None."""
    for m in _SPAN.finditer(question):
        span = " ".join((m.group("placed") or m.group("counted")).split())
        if span not in taken:
            return span
    return None
