"""Cast raw response values to the type a field declares, without ever raising.

APIs send numbers as strings (COD, AFLUX, PubChem MolecularWeight, Europe PMC pubYear), KRW
amounts with thousands separators (OpenDART), sentinels for missing values (JARVIS ``-99999``,
``"na"``), and XML text nodes. A value that cannot be read as the declared type becomes a typed
null with a note saying what arrived, so one odd record never crashes a run.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

# Values providers use for "no value"; they are not data.
_MISSING_STRINGS = {"", "-", "na", "n/a", "none", "null", "nan"}
_SENTINELS = {-99999, -99999.0}
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


@dataclass(frozen=True)
class Cast:
    """A cast value, and a note when the raw value was missing or not of the declared type."""

    value: Any
    note: str | None = None


def _text(value: Any) -> Any:
    """Unwrap an XML element converted by :mod:`schemarouter.execution.xmltree` to its text."""
    if isinstance(value, dict) and "#text" in value:
        return value["#text"]
    return value


def _describe(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _number(value: Any) -> float | int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        text = value.strip().replace(",", "").replace("\u2212", "-")
        if text.startswith("(") and text.endswith(")"):  # accounting negative
            text = "-" + text[1:-1]
        if _NUMBER.match(text):
            number = float(text)
            return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number
    return None


def _is_missing(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, str) and value.strip().lower() in _MISSING_STRINGS:
        return True
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value in _SENTINELS or (isinstance(value, float) and math.isnan(value))
    return False


def cast_value(value: Any, type_: str) -> Cast:
    """Cast ``value`` to the declared ``type_`` (string, integer, number, boolean, date, array, object)."""
    value = _text(value)
    if type_ == "array":
        if value is None:
            return Cast(None)
        items = value if isinstance(value, list) else [value]
        return Cast([_text(item) for item in items])
    if type_ == "object":
        if value is None or isinstance(value, dict):
            return Cast(value)
        return Cast(None, f"expected an object, got {_describe(value)}")
    if type_ == "date" and isinstance(value, list) and value and not isinstance(value[0], (list, dict, str)):
        return _date(value)  # Crossref date-parts: one date, not several values
    if isinstance(value, list):
        present = [v for v in (_text(item) for item in value) if not _is_missing(v)]
        if not present:
            return Cast(None)
        first = cast_value(present[0], type_)
        if len(present) > 1 and first.note is None:
            return Cast(first.value, f"{len(present)} values, first kept")
        return first
    if _is_missing(value):
        return Cast(None)
    if type_ == "number":
        number = _number(value)
        if number is None:
            return Cast(None, f"expected a number, got {_describe(value)}")
        return Cast(float(number) if isinstance(number, float) else number)
    if type_ == "integer":
        number = _number(value)
        if number is None or (isinstance(number, float) and not number.is_integer()):
            return Cast(None, f"expected an integer, got {_describe(value)}")
        return Cast(int(number))
    if type_ == "boolean":
        if isinstance(value, bool):
            return Cast(value)
        lowered = str(value).strip().lower()
        if lowered in {"true", "t", "yes", "1"}:
            return Cast(True)
        if lowered in {"false", "f", "no", "0"}:
            return Cast(False)
        return Cast(None, f"expected a boolean, got {_describe(value)}")
    if type_ == "date":
        return _date(value)
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return Cast(str(value))
    return Cast(None, f"expected a string, got {_describe(value)}")


def _date(value: Any) -> Cast:
    """Dates stay ISO-like strings; Crossref date-parts ``[2012, 3, 21]`` become ``2012-03-21``."""
    if isinstance(value, list):
        parts = [p for p in value if isinstance(p, int) and not isinstance(p, bool)]
        if not parts or len(parts) != len(value):
            return Cast(None, f"expected a date, got {_describe(value)}")
        return Cast("-".join([f"{parts[0]:04d}", *(f"{p:02d}" for p in parts[1:])]))
    if isinstance(value, int) and not isinstance(value, bool):
        return Cast(str(value))
    if isinstance(value, str):
        return Cast(value.strip())
    return Cast(None, f"expected a date, got {_describe(value)}")
