"""A number written with a unit, or after the quantity's name, and a comparison fills the bound
parameter of that end.

Filters on a quantity are often named for the bound and the unit, not for the words a question uses:
a database import gives ``distance_km_min`` ("Rows of trips whose distance km is at least this
value"), an API ``min_duration_seconds`` or ``milliseconds_max``. A question says "trips longer than
10 km" or "tracks over 5 minutes". The unit ties the number to the parameter: the comparison says
which end it bounds ("more than", "over", "at least" a lower one; "less than", "under", "at most"
an upper one), and the number is converted to the parameter's unit where the two differ but measure
the same thing (5 minutes is 300000 for ``milliseconds_min``). A parameter's unit is the one its
name says (:mod:`schemarouter.unit_names`), else one its description closes with, in brackets
("... at least this value (km).", as the database import writes it) or after "in" ("Maximum price
in USD."). Without a unit, the
quantity's name does it: "stations with a capacity of at least 20" for ``capacity_min``, never
``capacity_max``. And a parameter that is no bound but whose declaration states its unit ("the
radius, measured in kilometers", "the time to wait, specified in seconds") takes the quantity the
question writes in a unit of that kind, converted, where no number is written after its name.

A text parameter named for a unit ("unit": "The unit of measurement for the radius", "to_unit",
"units") takes a unit's name as the question writes it (:func:`unit_named`): the one it asks the
answer in ("the distance in miles", "the temperature in Celsius") for a unit to convert to, the one
written after its number ("a radius of 4 inches", "2 tablespoons") for a unit to convert from, and
for a unit alone the one asked for, else the number's.
"""

from __future__ import annotations

import re
from functools import lru_cache

from schemarouter.execution.units import compatible, convert, registry
from schemarouter.graph.terms import stem
from schemarouter.models import Parameter
from schemarouter.router.name_words import name_words
from schemarouter.router.numbers import question_tokens
from schemarouter.unit_names import unit_in_name

_LOWER_WORDS = frozenset(["min", "minimum", "from", "gte", "gt", "least", "lower", "start"])
_UPPER_WORDS = frozenset(["max", "maximum", "to", "lte", "lt", "most", "upper", "end"])
_NUMBER = r"(-?\d+(?:\.\d+)?)"
# the comparison, the number, the unit as written ("longer than 10 km", "over 5 minutes", "at most 2.5 h")
_SAID = re.compile(
    r"\b(?P<cmp>more than|longer than|greater than|higher than|larger than|bigger than|heavier than|older than|"
    r"faster than|taller than|pricier than|over|above|at least|exceeding|less than|shorter than|smaller than|"
    r"lower than|fewer than|lighter than|cheaper than|younger than|slower than|under|below|at most|up to|within)"
    r"\s+" + _NUMBER + r"\s*(?P<unit>%|[A-Za-zµ°][A-Za-z/°²³]*)",
    re.IGNORECASE)
_LOWER_CMP = frozenset(["more than", "longer than", "greater than", "higher than", "larger than", "bigger than",
                        "heavier than", "older than", "faster than", "taller than", "pricier than", "over", "above",
                        "at least", "exceeding"])
# a unit a description closes with: "... at most this value (km).", "Maximum price in USD."
_DESCRIBED = re.compile(r"(?:\(([^()\s]{1,12})\)|\bin\s+([A-Za-zµ°/%]{1,12}))\s*\.?\s*$")
# a quantity as a question writes it: a number and the unit after it ("15 minutes", "10 km", "50%")
_QUANTITY = re.compile(r"(?<![\w.])" + _NUMBER + r"\s*(%|[A-Za-zµ°][A-Za-z/°²³]*)")
# short words written after a number that are no unit symbol ("in 2019 by Sabaton", "5 of them")
_NOT_SYMBOLS = frozenset(["a", "an", "and", "or", "of", "in", "on", "at", "by", "to", "for", "the", "is", "are",
                          "was", "per", "from", "with", "as", "it", "its", "me", "my", "we", "us", "you", "i",
                          "am", "pm", "st", "nd", "rd", "th", "no", "not", "but", "so", "if", "do", "did", "be",
                          "all", "any", "new", "top", "more", "less", "than", "over", "into", "up", "out", "off"])


def bound_of(p: Parameter) -> tuple[str, str] | None:
    """("lower" or "upper", the unit) of a numeric parameter named for one end of a range in a unit,
    or None."""
    if p.type not in ("number", "integer"):
        return None
    return _bound(p.name, p.description)


@lru_cache(maxsize=65_536)  # per name and description: every numeric parameter of every candidate asks
def _bound(name: str, description: str | None) -> tuple[str, str] | None:
    words = name_words(name)
    if len(words) < 2:
        return None
    if words[-1] in _LOWER_WORDS or words[-1] in _UPPER_WORDS:
        end, rest = words[-1], words[:-1]
    elif words[0] in _LOWER_WORDS or words[0] in _UPPER_WORDS:
        end, rest = words[0], words[1:]
    else:
        return None
    unit = unit_in_name("_".join(rest))
    if unit is None and description:
        m = _DESCRIBED.search(description)
        said = (m.group(1) or m.group(2)) if m else None
        unit = said if said and _measures(said) else None
    if unit is None:
        return None
    return ("lower" if end in _LOWER_WORDS else "upper"), unit


# what :func:`unit_bound` answers for a bound parameter whose quantity the question bounds only at the
# other end ("shorter than 15 minutes" for duration_min_min), or whose comparison is in a unit of
# another kind ("longer than 20 minutes" for distance_km_min): nothing, and no other reading either
OTHER_END = (None, "")


def unit_bound(p: Parameter, question: str, taken: set[str]) -> tuple[float | int | None, str] | None:
    """(the value, the number as written) for bound parameter ``p`` from a comparison the question
    writes in a unit of the same kind; :data:`OTHER_END` where its comparisons bound that quantity
    only at the other end, or another kind of quantity; None where it writes no comparison in a unit."""
    bound = bound_of(p)
    if bound is None:
        return None
    end, unit = bound
    other = False
    for m in _SAID.finditer(question):
        said = _question_unit(m.group("unit"))
        if said is None:
            continue
        if not compatible(unit, said):
            # "longer than 20 minutes" bounds a time: its number is no distance either
            other = other or m.group(2) not in taken
            continue
        if ("lower" if m.group("cmp").lower() in _LOWER_CMP else "upper") != end or m.group(2) in taken:
            other = True
            continue
        value = convert(float(m.group(2)), said, unit)
        if p.type == "integer":
            value = round(value)
        return value, m.group(2)
    return OTHER_END if other else None


@lru_cache(maxsize=256)
def _question_unit(word: str) -> str | None:
    """The unit a question's word after a number says ("km", "minutes", "min", "%"), or None."""
    if word == "%":
        return "percent"
    named = unit_in_name(word)
    if named is not None:
        return named
    # a symbol ("kg", "GPa", "MeV"): the units library is asked only of short words that are no
    # common English word, so a question with "in 2019 by ..." never loads it
    if len(word) > 4 or word.lower() in _NOT_SYMBOLS:
        return None
    return word if _measures(word) else None


@lru_cache(maxsize=256)
def _measures(word: str) -> bool:
    """Whether the units library reads ``word`` as a unit with a dimension (not a bare number)."""
    try:
        return not registry().parse_units(word).dimensionless
    except Exception:  # pint raises several error types for unknown or malformed units
        return False


@lru_cache(maxsize=256)
def units_written(question: str) -> tuple[str, ...]:
    """The units of the quantities the question writes ("trips shorter than 15 minutes" -> min)."""
    found = (_question_unit(m.group(2)) for m in _QUANTITY.finditer(question))
    return tuple(dict.fromkeys(u for u in found if u is not None))


def in_unit_written(unit: str | None, question: str) -> str | None:
    """The unit of a quantity the question writes that ``unit`` measures alike (a field in minutes
    for "15 minutes", in metres for "10 km"), or None."""
    if not unit:
        return None
    # a pure number ("50%") measures nothing: only a field in that very unit answers it
    return next((u for u in units_written(question) if u == unit or (_measures(u) and compatible(unit, u))), None)


_LOWER_SAID = frozenset(["least", "more", "over", "above", "greater", "higher", "larger", "exceeding", "minimum", "min"])
_UPPER_SAID = frozenset(["most", "less", "under", "below", "fewer", "lower", "smaller", "maximum", "max"])
_NUMBER_TOKEN = re.compile(_NUMBER)
_REACH = 5  # words between the quantity's name and its number ("capacity of at least 20")


def named_bound(p: Parameter, question: str, taken: set[str]) -> tuple[float | int | None, str] | None:
    """(the value, the number as written) for a parameter named for a quantity and one end of its range
    (``capacity_min``) from the question's comparison after the quantity's name ("a capacity of at
    least 20"); :data:`OTHER_END` where the comparison bounds the other end; None where the question
    writes none."""
    if p.type not in ("number", "integer"):
        return None
    words = name_words(p.name)
    if len(words) < 2 or (words[-1] not in ("min", "max") and words[0] not in ("min", "max")):
        return None
    end = "lower" if "min" in (words[0], words[-1]) else "upper"
    named = [stem(w) for w in (words[:-1] if words[-1] in ("min", "max") else words[1:])]
    tokens, stems = question_tokens(question)
    for i in range(len(stems) - len(named) + 1):
        if list(stems[i:i + len(named)]) != named:
            continue
        said: set[str] = set()
        for j in range(i + len(named), min(len(tokens), i + len(named) + _REACH + 1)):
            if _NUMBER_TOKEN.fullmatch(tokens[j]):
                if tokens[j] in taken or not said:
                    break
                if ("lower" if said & _LOWER_SAID else "upper" if said & _UPPER_SAID else None) != end:
                    return OTHER_END if said & (_LOWER_SAID | _UPPER_SAID) else None
                value = float(tokens[j])
                return (round(value) if p.type == "integer" else value), tokens[j]
            said.add(tokens[j].lower())
    return None


# where a description states the unit its number is in: "measured in kilometers", "(in miles)",
# "the time in seconds to wait", "specified in seconds"
# (one word: "in meters per second squared" is a unit this reading does not take apart)
# "in kilometers", "in (km)", "Altitude (km)", "(in km)", and a range written in the unit ("0 km to 600 km")
_UNIT_PHRASE = re.compile(r"(?:\bin\s+(?:the\s+)?\(?|\(\s*(?:in\s+)?(?=[A-Za-zµ°][A-Za-z°²³]*\s*\))|\d\s*(?=[A-Za-zµ°][A-Za-z°²³]*\s+to\s+\d))"
                          r"([A-Za-zµ°][A-Za-z°²³]*)\b(?!\s*(?:/|per\b|squared\b|\^))"
                          # "Month in MM format": how it is written, not a unit (MM is no millimetre)
                          r"(?!\s+format\b)")
# a unit named in words right before a match of :data:`_UNIT_PHRASE` ("in henries (H)")
_AFTER_IN = re.compile(r"\bin\s+[A-Za-z]+\s*$", re.IGNORECASE)
# a quantity as written for :func:`unit_value`: thousands may be grouped ("12,000 miles") and the unit
# is a whole word ("10 phút" has none)
_WHOLE_QUANTITY = re.compile(r"(?<![\w.,])(-?\d{1,3}(?:,\d{3})+|-?\d+(?:\.\d+)?)\s*([A-Za-zµ°][A-Za-z°²³]*)(?![\w/^])")


@lru_cache(maxsize=65_536)  # per name and description, as ``_bound``
def stated_unit(name: str, description: str | None) -> str | None:
    """The unit a numeric parameter's name or description says its number is in, one with a dimension
    (a length, a time...): ``timeout`` "... time in seconds to wait" -> s; None where none is said."""
    unit = unit_in_name(name)
    if unit is not None:
        return unit if _measures(unit) else None
    # a unit said after "in" first, then the symbol in brackets after it: a letter in brackets after
    # the quantity's name is its symbol, not a unit ("The inductance (L) in henries (H)": henries, H)
    text = description or ""

    def said_after_in(m: re.Match[str]) -> int:
        if m.group().lower().startswith("in"):
            return 0
        return 1 if _AFTER_IN.search(text, 0, m.start()) else 2

    for m in sorted(_UNIT_PHRASE.finditer(text), key=said_after_in):
        said = _question_unit(m.group(1)) if len(m.group(1)) > 4 or m.group(1).lower() not in _NOT_SYMBOLS else None
        if said is not None and _measures(said):
            return said
    return None


# a unit per something, as a declaration states it ("energy in MeV/n") and as a question writes it
# ("250 MeV/nucleon"): what is measured, then what it is per
_PER_UNIT_STATED = re.compile(r"\bin\s+([A-Za-zµ°]+)/([A-Za-z]+)\b")
_PER_UNIT_WRITTEN = re.compile(r"(?<![\w.,])(-?\d+(?:\.\d+)?)\s*([A-Za-zµ°]+)/([A-Za-z]+)\b")


def _per_unit_value(p: Parameter, question: str, taken: set[str]) -> tuple[float | int, str] | None:
    """(the value, as written) where the declaration states a unit per something ("in MeV/n") and the
    question writes a number in the same unit per the same thing, abbreviated or not ("250
    MeV/nucleon"); the units library reads neither, so no other unit is converted."""
    stated = _PER_UNIT_STATED.search(p.description or "")
    if stated is None:
        return None
    unit, per = stated.group(1), stated.group(2).lower()
    for m in _PER_UNIT_WRITTEN.finditer(question):
        written, said, said_per = m.group(1), m.group(2), m.group(3).lower()
        if written in taken or said != unit or not (said_per.startswith(per) or per.startswith(said_per)):
            continue
        if "." not in written:
            return int(written), written
        if p.type == "number":
            return float(written), written
    return None


def unit_value(p: Parameter, question: str, taken: set[str]) -> tuple[float | int, str] | None:
    """(the value, the number as written) for a numeric parameter whose unit its declaration states,
    from the first quantity the question writes in a unit of that kind, converted ("within 50km" for a
    radius "measured in kilometers", "wait up to 10 minutes" for a time "in seconds": 600); None where
    it writes none."""
    if p.type not in ("number", "integer"):
        return None
    unit = stated_unit(p.name, p.description)
    if unit is None:
        return _per_unit_value(p, question, taken)
    for m in _WHOLE_QUANTITY.finditer(question):
        written = m.group(1).replace(",", "")
        said = _question_unit(m.group(2))
        if said is None or written in taken or not _measures(said) or not compatible(unit, said):
            continue
        # twelve significant digits: 100 µF is 0.0001 F, not the float noise 9.999999999999999e-05
        value = float(f"{convert(float(written), said, unit):.12g}")
        whole = p.type == "integer" or (value == round(value) and "." not in written)
        return (round(value) if whole else value), written
    return None


_TO_WORDS = frozenset(["to", "target", "output", "result", "into", "desired"])
_FROM_WORDS = frozenset(["from", "source", "input", "original"])
# the unit a question asks its answer in: "in miles?", "in km/h if ...", "into Fahrenheit, please"
_ASKED_IN = re.compile(r"\b(?:in|into)\s+(?:the\s+)?([A-Za-zµ°][A-Za-z/°²³]*)"
                       r"(?=\s*(?:[.,;:?!)]|$|\s+(?:and|or|if|please|for|with|instead|units?)\b))")
_AFTER_NUMBER = re.compile(r"(?<![\w.,])-?\d+(?:\.\d+)?\s*([A-Za-zµ°][A-Za-z/°²³]*)")


# words the units library reads as units that a question means otherwise: "30 units", "33.4 N" (north)
_NOT_UNIT_NAMES = frozenset(["unit", "units", "N", "S", "E", "W"])


def _is_unit(word: str) -> bool:
    """Whether ``word`` names a unit with a dimension ("inches", "Celsius", "km/h", "tablespoons"); the
    units library is asked of any word here, as only the words after a number or "in" are read."""
    return (word not in _NOT_UNIT_NAMES and word.lower() not in _NOT_SYMBOLS
            and (_question_unit(word) is not None or _measures(word)))


def _a_duration(word: str) -> bool:
    """Whether the unit ``word`` names measures time ("days", "min")."""
    unit = _question_unit(word) or word
    return _measures(unit) and compatible(unit, "s")


def unit_named(words: list[str] | tuple[str, ...], question: str, taken: set[str]) -> str | None:
    """For a text parameter whose name's ``words`` end in "unit" or "units": the unit's name the
    question writes for it, as written (see the module docstring), or None."""
    if not words or words[-1] not in ("unit", "units"):
        return None
    asked = [w for w in _ASKED_IN.findall(question) if w not in taken and _is_unit(w)]
    # ... not a stretch of time after a number ("the next 5 days" is how far ahead, no unit to report in)
    written = [w for w in _AFTER_NUMBER.findall(question) if w not in taken and _is_unit(w) and not _a_duration(w)]
    role = set(words[:-1])
    found = written if role & _FROM_WORDS else asked if role & _TO_WORDS else [*asked, *written]
    return found[0] if found else None
