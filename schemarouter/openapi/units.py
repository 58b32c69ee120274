"""A numeric field's unit where its document says it in words rather than in ``x-unit``.

Few documents carry ``x-unit``; many say the unit in the field's description ("Sea pressure in
decibar", "Temperature (K)") or in its name (``latitude`` is in degrees, ``distance_km`` in
kilometres: :mod:`schemarouter.unit_names`), an integer ``profiles_count`` a pure number, "1"). A unit read from a description is one the caller's ``known`` accepts (the front
ends pass :func:`schemarouter.checks.units.check_known`, pint with every word read plainly; pint lives
a layer above the importer, so it is handed in, not imported), written where a unit is written: after
"in" or "in units of" at the end of a sentence, or in brackets at the end of the description. Anything
else stays without a unit (the overlay's ``fields.<name>.unit`` gives one), and the import report
says which fields got theirs this way, so a wrong reading is seen and corrected.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from schemarouter.openapi.schema import FlatField
from schemarouter.unit_names import unit_in_name

UnitCheck = Callable[[str], bool]  # whether a word is a unit (``checks.units.check_known``)

_NUMERIC = frozenset({"number", "integer"})
# "... in decibar.", "... in units of eV", "... (K)", "... [m/s]": a unit where one is written, at the end
_SAID = [
    re.compile(r"\bin\s+(?:units\s+of\s+)?([A-Za-zµμÅ°][\w/^*.µμÅ°\-]{0,15})\s*(?:[.;)]|$)"),
    re.compile(r"\s[(\[]([^()\[\]\s]{1,12})[)\]]\s*\.?\s*$"),
]
# words of an integer field's name that make it a pure number (``profiles_count``, ``numResults``, ``rank``)
_PURE = frozenset({"count", "counts", "num", "number", "total", "rank", "index", "year", "position"})
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
# words that read as units but say something else where a description ends with them, and spellings
# pint reads otherwise than data means them ("(C)" is Celsius, not coulomb; "mb" a millibar, not a
# millibarn; "bp" basis points or base pairs)
_NOT_UNITS = frozenset({"a", "an", "the", "it", "use", "order", "total", "general", "range", "percent",
                        "c", "f", "m", "mb", "bp", "b", "g", "t", "p", "r", "h"})
_CASED = frozenset({"m", "g"})  # lower-case metre and gram are what they say


def unit_said(flat: FlatField, known: UnitCheck | None) -> str | None:
    """The unit a numeric field's name or description says, or None (from a description only where
    ``known`` is given and accepts it)."""
    leaf = flat.item_type if flat.type == "array" else flat.type
    if leaf not in _NUMERIC:
        return None
    named = unit_in_name(flat.key)
    if named is not None:
        return named  # ``distance_km``, ``durationSeconds``: the unit is the name's last word
    words = {w.lower() for w in _WORDS.findall(flat.key)}
    if leaf == "integer" and words & _PURE:
        return "1"  # a count, a rank, a year: a pure number
    for pattern in _SAID if known is not None else ():
        m = pattern.search(flat.description)
        if m is None:
            continue
        word = m.group(1).rstrip(".-")
        if (word in _CASED or word.lower() not in _NOT_UNITS) and known is not None and known(word):
            return word
    return None
