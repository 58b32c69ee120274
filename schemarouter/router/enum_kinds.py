"""What an enum's members mean whatever the question asks: a few kinds of enum an API declares.

An imported parameter often lists its values without saying what they are for. Some enums are of a
kind that needs no question to read: a flag spelled as words ("True"/"False"/"dontcare"), a filter
with one member that keeps every record ("all-sections"), a choice of response format ("json",
"xml": the executor reads JSON), and a choice among counts of days ("1 | 7 | 30": a day, a week or
a month). :mod:`schemarouter.router.param_facts` reads them once per parameter; the value reading
(:mod:`schemarouter.router.values`, :mod:`schemarouter.router.members`) fills them.
"""

from __future__ import annotations

import re
from typing import Any

from schemarouter.graph.text import humanize
from schemarouter.models import Parameter

_TRUE = frozenset(["true", "yes"])
_FLAG_MEMBERS = frozenset(["true", "false", "yes", "no", "dontcare", "any"])


def true_member(enum: list[Any] | None) -> Any:
    """The member meaning "yes" of an enum that is a flag spelled as words ("True", "False",
    "dontcare"), or None for any other enum."""
    if not enum or not all(isinstance(m, str) and m.lower() in _FLAG_MEMBERS for m in enum):
        return None
    return next((m for m in enum if m.lower() in _TRUE), None)


_ALL_MEMBER = re.compile(r"(?:all|any)(?:[-_ ][a-z-]+)?", re.IGNORECASE)


def all_member(enum: list[Any] | None) -> str | None:
    """The one member of ``enum`` that selects every record ("all-access", "all-agents", "all"), or None
    where there is none or more than one ("all-articles" beside "all-users" says which records)."""
    found = [m for m in enum or () if isinstance(m, str) and _ALL_MEMBER.fullmatch(m)]
    return found[0] if len(found) == 1 else None


# the names of response formats an API may let a caller choose among
_FORMATS = frozenset({"json", "jsonp", "xml", "csv", "tsv", "yaml", "yml", "html", "text", "txt", "rss", "atom",
                      "geojson", "ndjson", "jsonld", "json-ld"})


def json_member(enum: list[Any] | None) -> str | None:
    """The JSON member of an ``enum`` of response formats (``["json", "xml"]``), or None where the
    enum names anything else: the executor reads JSON, whichever format a question asks about."""
    members = [m for m in enum or () if isinstance(m, str)]
    if not members or len(members) != len(enum or ()) or any(m.lower() not in _FORMATS for m in members):
        return None
    return next((m for m in members if m.lower() == "json"), None)


# how many days each calendar unit is, as an enum of day counts spells it ("1 | 7 | 30 corresponds to a
# day, a week, or a month")
DAYS_IN = {"day": (1,), "week": (7,), "month": (30, 31), "year": (365, 366)}
_COUNTS_DAYS = re.compile(r"\b(?:number of days|in days|days)\b", re.IGNORECASE)


def counted_unit(p: Parameter, member: Any) -> str | None:
    """The calendar unit a member of an enum of day counts stands for ("7" for a week), where the
    parameter counts days (named ``days`` or described as a number of days); None else."""
    if not (isinstance(member, (str, int)) and str(member).isdigit()):
        return None
    if "days" not in humanize(p.name).split() and not _COUNTS_DAYS.search(p.description or ""):
        return None
    return next((unit for unit, counts in DAYS_IN.items() if int(member) in counts), None)
