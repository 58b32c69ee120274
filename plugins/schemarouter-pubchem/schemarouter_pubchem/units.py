"""Parse PubChem PUG View experimental values and convert them to each field's declared unit.

A PUG View value is ``{"Number": [16.6], "Unit": "°C"}`` or free text such as
``"1.0446 g/cu cm at 25 °C"`` or ``"15.7 [mmHg]"``. The first number and the unit right after it
are read; the conversion to the declared unit is explicit (a value whose unit cannot be converted
is skipped, never guessed).
"""

from __future__ import annotations

import re
from typing import Any

_NUMBER = re.compile(r"(?<![\w.])([-+\u2212]?\d+(?:[.,]\d+)?(?:\s*[xX×]\s*10\s*[-+\u2212]?\d+|[eE][-+]?\d+)?)")

# Declared unit -> {spelled unit (lowercase, no spaces) -> function to the declared unit}.
CONVERSIONS: dict[str, dict[str, Any]] = {
    "degC": {"°c": lambda v: v, "degc": lambda v: v, "c": lambda v: v, "deg c": lambda v: v,
             "°f": lambda v: (v - 32) * 5 / 9, "degf": lambda v: (v - 32) * 5 / 9, "f": lambda v: (v - 32) * 5 / 9,
             "k": lambda v: v - 273.15},
    "mmHg": {"mmhg": lambda v: v, "[mmhg]": lambda v: v, "torr": lambda v: v, "kpa": lambda v: v * 7.50062,
             "pa": lambda v: v * 0.00750062, "atm": lambda v: v * 760.0, "bar": lambda v: v * 750.062},
    "g/cm^3": {"g/cucm": lambda v: v, "g/cm3": lambda v: v, "g/cm^3": lambda v: v, "g/ml": lambda v: v,
               "kg/m3": lambda v: v / 1000, "kg/cum": lambda v: v / 1000, "g/l": lambda v: v / 1000},
    "kJ/mol": {"kj/mol": lambda v: v, "kj/mole": lambda v: v, "kcal/mol": lambda v: v * 4.184,
               "kcal/mole": lambda v: v * 4.184, "j/mol": lambda v: v / 1000},
}


def _to_float(text: str) -> float:
    text = text.replace("\u2212", "-").replace(" ", "")
    mantissa = re.split(r"[xX×]10", text)
    if len(mantissa) == 2:
        return float(mantissa[0].replace(",", ".")) * 10 ** float(mantissa[1])
    return float(text.replace(",", "")) if text.count(",") and "." in text else float(text.replace(",", "."))


def _unit_after(text: str) -> str:
    match = re.match(r"\s*(\[?[°a-zA-Z][\w°/^ .\]]*)", text)
    if not match:
        return ""
    unit = match.group(1).strip().lower()
    for stop in (" at ", " @", " (", ";", ","):
        unit = unit.split(stop)[0]
    unit = unit.replace("deg ", "deg").replace("mm hg", "mmhg").replace("cu cm", "cucm").replace("cu m", "cum")
    return unit.replace(" ", "").rstrip(".")


def read_value(value: dict[str, Any]) -> tuple[float, str, str] | None:
    """``(number, unit as written, original text)`` of one PUG View value, or None when it has no number."""
    if value.get("Number"):
        number = value["Number"][0]
        unit = str(value.get("Unit") or "")
        return float(number), unit.split("(")[0].strip().lower().replace(" ", ""), f"{number} {unit}".strip()
    for item in value.get("StringWithMarkup") or []:
        text = str(item.get("String") or "")
        match = _NUMBER.search(text)
        if match:
            try:
                number = _to_float(match.group(1))
            except ValueError:
                continue
            return number, _unit_after(text[match.end():]), text
    return None


DIMENSIONLESS = ("1", "dimensionless")  # how a declaration says "a pure number"


def convert(number: float, unit: str, target: str | None) -> float | None:
    """``number`` in ``unit`` expressed in ``target``; None when the units are not convertible."""
    if target is None or target in DIMENSIONLESS:
        # a pure number (logP, declared unit "1"): a number with no unit, or a log-unit label, is fine
        return number if unit in ("", "logkow", "logp") else None
    table = CONVERSIONS.get(target, {})
    if unit == "" and target == "g/cm^3":
        return number  # PubChem lists bare densities (relative to water ~ g/cm^3)
    func = table.get(unit)
    return None if func is None else round(func(number), 6)
