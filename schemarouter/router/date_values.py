"""Dates for parameters: which written date a date parameter takes, and how the parameter spells it.

The question's dates are read once (``understand.reading``: ISO dates, dates with a month's name,
dates in digits, months with their year); here a parameter named for a date, or for a bound a
description calls a date, takes the one written after its name's words ("returning on") or else the
first or last of them, a time-of-day parameter ("in 24-hour format 'HH:MM'") the time written alike, a month or year bounds a span by its
first or last day, an endpoint that takes a date in parts gets the parts, and the date is written
as the parameter declares it ("YYYYMMDD", "HH:MM AM/PM"). Split from :mod:`schemarouter.router.values`, which
decides per parameter which of these readings applies.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence

from schemarouter.graph.terms import stem
from schemarouter.models import Parameter
from schemarouter.router.numbers import END, START
from schemarouter.router.param_facts import ParamFacts
from schemarouter.understand.base import Analysis
from schemarouter.understand.reading import month_number

_PARTS = {"year": slice(0, 4), "month": slice(5, 7), "day": slice(8, 10)}


def date_parts(params: list[tuple[Parameter, ParamFacts]], analysis: Analysis,
                taken: set[str]) -> dict[str, str]:
    """Parameter name -> its part of the question's first free date or month (and "" -> that date),
    for an endpoint with a ``month`` or ``day`` parameter beside its ``year`` (``params``: each with
    its facts): nothing otherwise."""
    named = {f.name: part for _, f in params if (part := f.date_part)}
    if set(named.values()) == {"month"}:
        return _month_alone(params, named, analysis, taken)
    if not named or not ({"month", "day"} & set(named.values())) or "year" not in named.values():
        return {}
    # a day needs a whole date; a year and month also take a month written with its year
    written = analysis.dates if "day" in named.values() else [*analysis.dates, *analysis.months]
    date = next((d for d in written if d not in taken), None)
    if date is None:
        return {}
    # a part as written in an ISO date, without a leading zero ("03" -> "3")
    out = {name: str(int(date[_PARTS[part]])) for name, part in named.items()}
    out[""] = date
    return out


def _month_alone(params: list[tuple[Parameter, ParamFacts]], named: dict[str, str], analysis: Analysis,
                 taken: set[str]) -> dict[str, str]:
    """:func:`date_parts` for an endpoint whose only date parameter is a month: the month the question
    names alone ("in December"), as written for a text parameter and as its number for a number."""
    written = next((m for m in analysis.month_names if m not in taken), None)
    if written is None:
        return {}
    number = month_number(written)
    out = {f.name: str(number) if p.type in ("integer", "number") else written for p, f in params if f.name in named}
    out[""] = written
    return out


def clock_parts(clock: str) -> tuple[int, int, int]:
    """(hour, minute, second) of a time of day as the reading writes it ("HH:MM" or "HH:MM:SS")."""
    hour, minute, *second = (int(n) for n in clock.split(":"))
    return hour, minute, second[0] if second else 0


def time_parts(params: list[tuple[Parameter, ParamFacts]], analysis: Analysis,
               taken: set[str]) -> tuple[dict[str, int], tuple[str, ...]]:
    """(parameter name -> its part of the question's first free time of day, what that spends: the
    time and its numbers as written), for an endpoint with an ``hour`` and a ``minute`` parameter
    (one named for hours alone is a duration as often as a time): nothing otherwise. A time written
    to the minute is at second 0."""
    named = {f.name: part for _, f in params if (part := f.time_part)}
    if not {"hour", "minute"} <= set(named.values()):
        return {}, ()
    text = analysis.text or analysis.question
    for clock, (start, end) in zip(analysis.times, analysis.time_spans, strict=True):
        if clock in taken:
            continue
        parts = dict(zip(("hour", "minute", "second"), clock_parts(clock), strict=True))
        return {name: parts[part] for name, part in named.items()}, (clock, *re.findall(r"\d+", text[start:end]))
    return {}, ()


# words of a date or time parameter's name that say it is one, not which one it is
_WHEN_WORDS = frozenset(["date", "day", "time", "of", "the", "on", "at", "in", "iso", "utc", "local"])


def date_for(words: Sequence[str], dates: list[str], taken: set[str],
             before: Sequence[tuple[str, ...]] = ()) -> str | None:
    """The date (or time) for a parameter: the one the question writes after its name's other words
    ("returning on April 22nd" for ``return_date``, with ``before`` the stems written before each);
    else the first written for a start (``start_date``, ``published_since``), the last for an end
    (``end_date``, ``until``), else the first not yet used."""
    if not dates:
        return None
    named = [stem(w) for w in words if w not in _WHEN_WORDS]
    if named and len(before) == len(dates):
        hits = [d for d, said in zip(dates, before, strict=True) if all(any(_akin(n, s) for s in said) for n in named)]
        if len(hits) == 1:
            return hits[0] if hits[0] not in taken else None
    if set(words) & END and len(dates) > 1:
        return dates[-1] if dates[-1] not in taken else None
    if set(words) & START:
        return dates[0] if dates[0] not in taken else None
    return next((d for d in dates if d not in taken), None)


def month_bound(words: Sequence[str], analysis: Analysis) -> tuple[str, str] | None:
    """For a start or an end that the question gives no whole date for, "in March 2024" ("in 2022"):
    (the month or year as written, its first day) for a start, (the last, its last day) for an end,
    both spending it; None for a parameter that bounds nothing or a question with no month or year."""
    said = set(words)
    if not said & (START | END):
        return None
    end = bool(said & END and not said & START)
    if analysis.months:
        month = analysis.months[-1 if end else 0]
        written = month
    else:
        year = analysis.entity("year")
        if year is None:
            return None
        written = str(year.value)
        month = f"{written}-12" if end else f"{written}-01"
    if not end:
        return written, f"{month}-01"
    last = calendar.monthrange(int(month[:4]), int(month[5:7]))[1]
    return written, f"{month}-{last:02d}"


def spelled(iso: str, template: str) -> str:
    """An ISO date (2024-03-01) as the parameter writes dates ("YYYYMMDD" -> 20240301; an hour, where
    the form has one, is the day's first); as it is where the parameter takes ISO 8601."""
    if not template or len(iso) < 10:
        return iso
    return (template.replace("YYYY", iso[:4]).replace("MM", iso[5:7]).replace("DD", iso[8:10])
            .replace("HH", "00"))


def _akin(name_stem: str, said: str) -> bool:
    """A name's word and a word of the question alike enough to be one (departure, departing)."""
    return name_stem == said or (len(name_stem) >= 5 and len(said) >= 5 and name_stem[:5] == said[:5])


def clocked(hhmm: str, template: str) -> str:
    """A time of day ("14:30") as the parameter's template writes one ("HH:MM", "HH:MM:SS", "HH:MM AM/PM")."""
    hour, minute = int(hhmm[:2]), hhmm[3:5]
    if "AM" in template.upper():
        return f"{(hour - 1) % 12 + 1:02d}:{minute} {'PM' if hour >= 12 else 'AM'}"
    seconds = hhmm[6:8] or "00"
    return f"{hhmm[:5]}:{seconds}" if template.upper().count(":") == 2 else hhmm[:5]


def month_taken(spent: str | tuple[str, ...], analysis: Analysis, taken: set[str]) -> bool:
    """Whether a value that spends ``spent`` bounds a span by a month another step already spent: both
    ends of one endpoint's span take the month (:func:`month_bound` does not look at what was taken,
    so that the two may share it), a second endpoint none ("a member's trips in May 2024": the trips'
    dates, not the member's joining date)."""
    if not analysis.months:
        return False
    return any(key in taken and key in analysis.months for key in ((spent,) if isinstance(spent, str) else spent))
