"""The unit a numeric field's own name says: ``distance_km``, ``Milliseconds``, ``battery_pct``.

Databases and API documents seldom declare units, but their authors often write the unit into the
name, as its last word (``trip_distance_km``, ``durationSeconds``, ``price_usd``) or as the whole name (a column
``Milliseconds``, ``Bytes``). Each importer reads it here, so a database column and an API field
named alike get the same unit. Only spellings with one meaning in names count: ``min`` is a minute
only beside a word of time (``duration_min``; ``temp_min`` is a minimum), and one-letter words
(``m``, ``s``, ``h``) never count. The units are written as the units library reads them.
"""

from __future__ import annotations

import re

# the last word of a name -> the unit it says
_UNITS = {
    "km": "km", "kilometers": "km", "kilometres": "km", "meters": "m", "metres": "m", "cm": "cm", "mm": "mm",
    "miles": "mile", "kg": "kg", "kilograms": "kg", "grams": "g", "mg": "mg",
    "ms": "ms", "millis": "ms", "milliseconds": "ms", "sec": "s", "secs": "s", "seconds": "s",
    "minutes": "min", "mins": "min", "hours": "h", "hrs": "h", "days": "day", "weeks": "week", "years": "year",
    "pct": "percent", "percent": "percent", "percentage": "percent",
    "kwh": "kWh", "kw": "kW", "watts": "W", "hz": "Hz", "mhz": "MHz", "ghz": "GHz",
    "celsius": "degC", "fahrenheit": "degF", "kelvin": "K", "kpa": "kPa", "mbar": "mbar",
    "bytes": "byte", "kmh": "km/h", "kph": "km/h", "mph": "mph", "ev": "eV",
    # a currency by its ISO 4217 code (``price_usd``, ``fare_eur``), each its own unit
    **{code.lower(): code for code in ("USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "CNY", "INR", "SEK", "NOK",
                                       "DKK", "BRL", "MXN", "KRW")},
    # a coordinate named as such is in degrees (``latitude``, ``start_lat``)
    "latitude": "degree", "longitude": "degree", "lat": "degree", "lon": "degree", "lng": "degree",
}
# "min" says minutes only beside a word of time; else it is a minimum ("temp_min", "price_min")
_TIME_WORDS = frozenset({"duration", "time", "runtime", "length", "delay", "wait", "elapsed", "trip", "ride",
                         "travel", "drive", "walk", "session", "play", "playing", "total"})
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def unit_in_name(name: str) -> str | None:
    """The unit the last word of ``name`` says, or None."""
    words = [w.lower() for w in _WORDS.findall(name)]
    if not words:
        return None
    last = words[-1]
    if last == "min":
        return "min" if len(words) > 1 and set(words[:-1]) & _TIME_WORDS else None
    return _UNITS.get(last)
