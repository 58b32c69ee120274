"""A latitude/longitude pair as people write it in a question.

"at 35.77, -78.64", "lat 51.5, lon -0.12", "60° N, 150° W", "26° S, 50° W", "0°, 0°", "latitude -20,
longitude 300", "25° S latitude, 310° E longitude", "51,6° N, 0,5° E" (a decimal comma). A hemisphere letter gives the sign (south and west
are negative) and tells latitude from longitude whichever comes first ("150° W, 60° N"). Two bare
whole numbers ("10, 20") are no coordinates: each number of a pair must be marked as a coordinate by a
decimal point, a degree sign, a hemisphere letter or its label. The numbers as written come back too,
so that a plan which spends the pair on a latitude and a longitude does not spend them again on
another parameter (an altitude, a year).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# One number of a pair, with what marks it as a coordinate: a label before it ("lat", "longitude"), a
# degree sign, a hemisphere letter (capital: "10.5 s" is seconds), a label after it ("25° S latitude").
_PART = (r"(?:(?P<{n}label>\b(?i:lat(?:itude)?|lon(?:g|gitude)?))\s*[:=]?\s*)?"
         # (a decimal comma only right before a degree sign: "51,6° N" is 51.6, "10,20" two numbers)
         r"(?<![\d.])(?P<{n}num>[-+\u2212]?\d{{1,3}}(?:\.\d+|,\d+(?=\s*[°º]))?)\s*(?P<{n}deg>°|º|\b(?i:deg(?:rees?)?)\b)?"
         r"\s*(?P<{n}hem>[NSEW]\b)?(?:\s+(?P<{n}after>(?i:lat(?:itude)?|lon(?:g|gitude)?))\b)?")
_PAIR = re.compile(_PART.format(n="a") + r"\s*[,;/]?\s*(?P<joined>(?i:and)\s+)?" + _PART.format(n="b"))


@dataclass(frozen=True)
class Coordinates:
    """A pair read from a question: the values, where the pair is written, and its numbers as written."""

    latitude: float
    longitude: float
    span: tuple[int, int]
    written: tuple[str, str]  # (latitude, longitude) as the question writes the numbers


def read_coordinates(text: str) -> Coordinates | None:
    """The first latitude/longitude pair written in ``text``, or None."""
    if not any(ch.isdigit() for ch in text):
        return None
    pos = 0
    while (m := _PAIR.search(text, pos)) is not None:
        found = _pair(m)
        if found is not None:
            return found
        pos = m.start() + 1
    return None


def _pair(m: re.Match[str]) -> Coordinates | None:
    parts = [_part(m, "a"), _part(m, "b")]
    if any(p is None for p in parts):
        return None
    (first, first_kind, first_raw), (second, second_kind, second_raw) = parts  # type: ignore[misc]
    if first_kind == "lon" or second_kind == "lat":  # "150° W, 60° N", "longitude 300, latitude -20"
        (first, first_raw), (second, second_raw) = (second, second_raw), (first, first_raw)
        first_kind, second_kind = second_kind, first_kind
    if first_kind == "lon" or second_kind == "lat":
        return None  # two latitudes, or two longitudes
    if not (-90 <= first <= 90 and -180 <= second <= 360):
        return None
    if m.group("joined") and not (first_kind or second_kind):
        return None  # "between 10.5 and 20.25" is a span, not a place
    return Coordinates(first, second, m.span(), (first_raw, second_raw))


def _part(m: re.Match[str], n: str) -> tuple[float, str, str] | None:
    """(value, "lat"/"lon"/"" as the part says, the number as written), or None for a number that
    nothing marks as a coordinate."""
    raw = m.group(f"{n}num")
    label = (m.group(f"{n}label") or m.group(f"{n}after") or "").lower()
    hemisphere = (m.group(f"{n}hem") or "").upper()
    if not ("." in raw or m.group(f"{n}deg") or hemisphere or label):
        return None
    value = float(raw.replace("\u2212", "-").replace(",", "."))
    if hemisphere in ("S", "W"):
        value = -abs(value)
    kind = "lat" if hemisphere in ("N", "S") or label.startswith("lat") else \
        "lon" if hemisphere in ("E", "W") or label.startswith("lon") else ""
    return value, kind, raw
