"""Places as a parameter asks for them: the role a question gives a place, and the region it writes.

Two things an imported declaration says about a place and a question says about it, which the
shape of a value alone cannot tell:

- **Its role.** ``from_city`` and ``to_city``, ``origin`` and ``destination``, ``start_location`` and
  ``end_location`` all take a place; "from Fresno to Los Angeles" says which is which. A parameter
  named for a role takes the value the question writes right after that role's word ("from",
  "to", "between ... and"), not merely the first name it finds.
- **Its region.** Many location parameters describe their format as "City, State" with examples
  such as 'Berkeley, CA' or 'Paris, France'. Where the question writes the region right after the
  place ("Portland, OR", "Long Beach CA", "Berkeley California") or says the place is in it
  ("Lafayette in Louisiana"), such a parameter gets both, in that
  format: a state or province name as its postal code, a country as written. Where the question
  writes none and the parameter asks for a US state ("City, State", 'Berkeley, CA'), a US city of
  50,000 people or more whose name means one city gets its state from a small gazetteer
  (``data/us_cities.json``, from GeoNames: "New York" -> "New York, NY"), and so does a town of
  15,000 or more (``data/us_towns.json``: "Pinole" -> "Pinole, CA"); any other place is sent as
  written: nothing is guessed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files

from schemarouter.models import Parameter
from schemarouter.understand.base import Analysis
from schemarouter.understand.countries import is_country

# words of a parameter name that give it a role in a journey, a transfer or a conversion
SOURCE_WORDS = frozenset({"from", "origin", "start", "departure", "depart", "source", "begin", "starting"})
TARGET_WORDS = frozenset({"to", "destination", "dest", "end", "arrival", "arrive", "ending"})
# "the format of 'City, State'", "City and state, e.g. ...", or an example written that way
_REGION_FORMAT = re.compile(
    r"city,\s*(?:state|country|region|province)|city and (?:state|country)"
    r"|\b[A-Z][a-z]+(?: [A-Z][a-z]+)*, (?:[A-Z]{2}\b|[A-Z][a-z]+)",
)
# what may follow a place as its region: a two-letter code, or one to three capitalized words
_REGION_AFTER = re.compile(r"(?:,\s*|\s+)([A-Z]{2}\b|[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2})")
# ... or said to contain it: "Lafayette in Louisiana", "Springfield in the state of Illinois"
_REGION_IN = re.compile(r"\s+in\s+(?:the\s+state\s+of\s+)?([A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2})\b")
_ROLE_WORD = re.compile(r"\b(from|to|between|and)\s+(?:the\s+)?", re.IGNORECASE)
# a route written as two codes joined by a dash ("a LHR-JFK crossing", "SYD–LAX"): where it starts, where it ends
_ROUTE = re.compile(r"(?<![\w-])([A-Z]{3,4})\s*[-\u2013\u2014]\s*([A-Z]{3,4})(?![\w-])")
# words of a parameter name that make it the place something is in (``location``, ``city``)
PLACE_WORDS = frozenset({"location", "city", "place", "town", "area", "region", "locality", "where", "near"})
# where a question writes the place something is in: "in Seattle", "near LA", "around Paris"
_PLACE_WORD = re.compile(r"\b(?:in|near|around|at)\s+(?:the\s+)?", re.IGNORECASE)
# ... and where it says where someone lives or something is based: "who live in Haarlem", "based in Austin"
_RESIDENCE_WORD = re.compile(r"\b(?:live[sd]?|living|resid(?:e|es|ed|ing)|located|based|situated|headquartered)"
                             r"\s+(?:in|near|at)\s+(?:the\s+)?", re.IGNORECASE)


def role_of(words: tuple[str, ...]) -> str | None:
    """"source" or "target" for a parameter named for one end of a journey, "place" for one named
    for where something is (``location``, ``city``), else None."""
    said = set(words)
    source, target = bool(said & SOURCE_WORDS), bool(said & TARGET_WORDS)
    if source != target:
        return "source" if source else "target"
    return "place" if said & PLACE_WORDS and not source else None


def _declared_form(p: Parameter) -> str:
    """What a declaration says of how a place is written: its description and its example."""
    return " ".join(str(x) for x in (p.description, p.example) if x)


def wants_region(p: Parameter) -> str:
    """Whether the declaration asks for a place written with its region: "state" where that region is a
    US state ("City, State", 'Berkeley, CA'), "any" for another ('Paris, France', "City, Country"),
    "" where it asks for none."""
    text = _declared_form(p)
    if not text or _REGION_FORMAT.search(text) is None:
        return ""
    written = [m.group(1) for m in _EXAMPLE_REGION.finditer(text)]
    if _STATE_FORMAT.search(text) or any(code in _regions().values() for code in written):
        return "state"
    return "any"


_STATE_FORMAT = re.compile(r"city,\s*state|city and state", re.IGNORECASE)
_EXAMPLE_REGION = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)*, ([A-Z]{2})\b")
_COUNTRY_FORMAT = re.compile(r"city,\s*country|city and country", re.IGNORECASE)
_EXAMPLE_COUNTRY = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)*, ([A-Z][a-z]+(?: [A-Z][a-z]+)*)\b")


def country_spelling(p: Parameter) -> str:
    """How the declaration writes a place's country after it, where it asks for one ("City, Country",
    'Paris, France', 'Paris, FR'): "code" where its examples write a country as two letters, "name"
    else; "" where it asks for no country (a US state's code is no country's: 'Berkeley, CA')."""
    text = _declared_form(p)
    if not text:
        return ""
    codes = [c for c in (m.group(1) for m in _EXAMPLE_REGION.finditer(text)) if c not in _regions().values()]
    if codes and any(is_country(c) or c == "UK" for c in codes):
        return "code"
    named = any(is_country(m.group(1)) for m in _EXAMPLE_COUNTRY.finditer(text))
    return "name" if named or _COUNTRY_FORMAT.search(text) else ""


@dataclass(frozen=True)
class Placed:
    """A value the question writes in a role's place, with the question value it spends."""

    value: str
    spent: str


# what a question writes after "in" that is no place: a scale or a system of units ("in Fahrenheit")
_SCALES = frozenset({"fahrenheit", "celsius", "kelvin", "metric", "imperial", "utc", "gmt"})


@lru_cache(maxsize=1024)
def _not_a_place(name: str) -> bool:
    """Whether a name written after "in" is a scale or a language ("in Spanish"), not a place."""
    if name.lower() in _SCALES:
        return True
    import pycountry  # the ISO 639 names: loaded only where a place is asked for

    try:
        return pycountry.languages.get(name=name) is not None
    except LookupError:
        return False


def role_value(role: str, analysis: Analysis, taken: set[str]) -> Placed | None:
    """The name or code the question writes right after the word of ``role`` ("from X", "to Y",
    "between X and Y"), or None when it writes none there."""
    question = analysis.question
    starts = _starts(analysis)
    if role in ("place", "residence"):
        # "restaurants offering Chinese cuisine in Seattle": the name written after "in", not the first
        # one; never a country ("London in the UK": the city is London, which other readings give)
        words = _PLACE_WORD if role == "place" else _RESIDENCE_WORD
        placed = (found for m in words.finditer(question)
                  if (found := starts.get(m.end())) is not None and found not in taken)
        places = [p for p in placed if not _not_a_place(p) and not is_country(p)]
        # "therapists specialized in Family Counseling in Los Altos": a town the gazetteer knows first
        found = next((p for p in places if city_state(p) is not None), places[0] if places else None)
        if found is None:
            return known_city_after(question, taken) if role == "place" else None
        return Placed(found, found)
    between = False
    for m in _ROLE_WORD.finditer(question):
        word = m.group(1).lower()
        if word == "between":
            between = True
        wanted = {"from": "source", "between": "source", "to": "target", "and": "target" if between else None}[word]
        if wanted != role:
            continue
        found = starts.get(m.end())
        if found is not None and found not in taken:
            return Placed(found, found)
    if role in ("source", "target"):
        for route in _ROUTE.finditer(question):
            code = route.group(1 if role == "source" else 2)
            if code not in taken:
                return Placed(code, code)
    return None


def known_city_after(question: str, taken: Collection[str] = ()) -> Placed | None:
    """A US city the gazetteer knows, written in lower case right after "in", "near" or "at" ("a
    counselor in berkeley"): the city as it is spelled, spending the words as written."""
    written = next((w for w in _lower_case_cities(question) if w not in taken), None)
    return Placed(written.title(), written) if written is not None else None


@lru_cache(maxsize=256)  # asked for the question, then for each place parameter of each candidate
def _lower_case_cities(question: str) -> tuple[str, ...]:
    found: list[str] = []
    for m in _PLACE_WORD.finditer(question):
        words = question[m.end():m.end() + 80].split()[:3]  # a bounded look: questions may be long
        for n in range(len(words), 0, -1):
            written = " ".join(words[:n]).rstrip(".,;:?!")
            if written.islower() and written in _us_cities():
                found.append(written)
                break
    return tuple(found)


def written_as_place(analysis: Analysis, name: str) -> bool:
    """Whether the question writes ``name`` where it says where something is ("members who live in
    Haarlem", "stations near Central Plaza")."""
    starts = _starts(analysis)
    return any(starts.get(m.end()) == name for m in _PLACE_WORD.finditer(analysis.question))


def _starts(analysis: Analysis) -> dict[int, str]:
    """Where each name and short code of the question starts -> its text (read once per question:
    every role parameter of every candidate endpoint asks)."""
    return _starts_in(analysis.question, tuple(analysis.codes), tuple((str(e.value), e.start) for e in analysis.names))


@lru_cache(maxsize=256)
def _starts_in(question: str, codes: tuple[str, ...], names: tuple[tuple[str, int], ...]) -> dict[int, str]:
    out: dict[int, str] = {}
    for code in codes:
        for m in re.finditer(rf"(?<![\w-]){re.escape(code)}(?![\w-])", question):
            out.setdefault(m.start(), code)
    for value, at in names:
        # "between New York and Boston" reads as one name ("Procter and Gamble" would): each part
        # where it starts, so that each end of the journey finds its own
        for part in value.split(" and "):
            out[at] = part
            at += len(part) + len(" and ")
    return out


def with_region(value: str, analysis: Analysis, state: bool = False, country: str = "") -> tuple[str, str] | None:
    """``value`` written as "Place, Region" with the region the question writes right after it, and
    the region as written (to spend it); where it writes none and a US ``state`` is asked for, the
    state of a US city the gazetteer knows ("" spent), and where a ``country`` is asked for (spelled
    as a "name" or a "code", :func:`country_spelling`), the country of a city outside the US the
    gazetteer knows ('Paris, France'); None else."""
    question = analysis.question
    place, region = _split_region(value)
    if region is not None:
        return f"{place}, {region}", ""
    for written in _written_after(question, value):
        code = _region_code(written)
        if code is not None:  # a region may be shared: "from Anaheim, CA to Berkeley, CA"
            return f"{value}, {code}", written
    code = city_state(value) if state else None
    if code is None and country:
        found = world_city(value)
        if found is not None:
            code = found[0] if country == "code" else found[1]
    return (f"{value}, {code}", "") if code is not None else None


def state_after_place(analysis: Analysis, taken: set[str]) -> tuple[str, str] | None:
    """The US state or Canadian province the question writes right after a place ("Raleigh, NC",
    "Portland, Oregon"), as its postal code, and as written (to spend it); None where it writes none.
    A country written there ("Lyon, FR") is no state, nor is the code of a city's own country that a
    state shares ("Berlin, DE" is Germany, not Delaware)."""
    for name in analysis.names:
        abroad = world_city(str(name.value))
        for written in _written_after(analysis.question, str(name.value)):
            if written in taken:
                continue
            code = _regions().get(written.lower()) or (written if written in _regions().values() else None)
            if code is not None and abroad is not None and written.casefold() in (abroad[0].casefold(),
                                                                                 abroad[1].casefold()):
                continue
            if code is not None:
                return code, written
    return None


def _written_after(question: str, place: str) -> Iterator[str]:
    """What the question writes as a region right after each mention of ``place`` (", CA", " in
    Louisiana"), in order: a candidate region, for the caller to read as one."""
    for m in re.finditer(rf"(?<![\w-]){re.escape(place)}", question):
        after = _REGION_AFTER.match(question, m.end()) or _REGION_IN.match(question, m.end())
        if after is not None:
            yield after.group(1)


def city_state(name: str) -> str | None:
    """The state's postal code of the US city or town called ``name`` (any case), where the name means
    one place of 15,000 people or more; else None."""
    key = name.lower()
    return _us_cities().get(key) or _us_towns().get(key)


def world_city(name: str) -> tuple[str, str] | None:
    """(ISO 3166-1 alpha-2 code, common name) of the country of the city outside the US called ``name``
    (any case, accents or not), where the name means one city of 100,000 people or more; else None."""
    found = _world_cities().get(name.lower())
    return (found[0], found[1]) if found else None


@cache
def _world_cities() -> dict[str, list[str]]:
    """City name (lower case) -> [country code, country name], for cities outside the US whose name
    means one city of 100,000 people or more (GeoNames, CC BY 4.0; written by
    ``tools/places/world_cities.py``)."""
    data: dict[str, list[str]] = json.loads(
        files("schemarouter.router").joinpath("data", "world_cities.json").read_text("utf-8"))
    return data


@cache
def _us_towns() -> dict[str, str]:
    """US towns of 15,000 to 50,000 people, as :func:`_us_cities` (``tools/places/us_cities.py``): a
    name written as one is completed with its state, but a lower-case word is never read as one of
    these ("golden", "central")."""
    data: dict[str, str] = json.loads(files("schemarouter.router").joinpath("data", "us_towns.json").read_text("utf-8"))
    return data


@cache
def _us_cities() -> dict[str, str]:
    """US city name (lower case) -> its state's postal code, for names that mean one city of 50,000
    people or more (GeoNames, CC BY 4.0; written by ``tools/places/us_cities.py``)."""
    data: dict[str, str] = json.loads(files("schemarouter.router").joinpath("data", "us_cities.json").read_text("utf-8"))
    return data


def _split_region(value: str) -> tuple[str, str | None]:
    """A name that already ends in its region ("Long Beach CA", "Berkeley California"): the place
    and the region as it should be written; else the value and None."""
    head, _, last = value.rpartition(" ")
    if not head:
        return value, None
    if "," in value:
        head, _, last = value.rpartition(",")
        last = last.strip()
    code = _region_code(last)
    if code is not None and len(head) > 1:
        return head.rstrip(", "), code
    words = value.split()
    for size in (2, 3):  # "New Mexico", "British Columbia"
        if len(words) > size:
            tail = " ".join(words[-size:])
            code = _region_code(tail)
            if code is not None:
                return " ".join(words[:-size]), code
    return value, None


def _region_code(written: str) -> str | None:
    """How a region is written in "City, Region": a two-letter code as is, a US state or Canadian
    province by its postal code, a country by its name (``understand.countries``); None else."""
    if re.fullmatch(r"[A-Z]{2}", written):
        known = written in _regions().values() or is_country(written) or written == "UK"
        return written if known else None
    key = written.lower()
    if key in _regions():
        return _regions()[key]
    if is_country(written):
        return written
    return None


@cache
def _regions() -> dict[str, str]:
    """US state and Canadian province names -> postal codes (ISO 3166-2, through pycountry)."""
    import pycountry

    out: dict[str, str] = {}
    for country in ("US", "CA"):
        for sub in pycountry.subdivisions.get(country_code=country) or ():  # type: ignore[no-untyped-call]
            out[sub.name.lower()] = sub.code.split("-", 1)[1]
    return out


_AIRPORT = re.compile(r"([A-Z]{3})(?:\s+(?:International\s+)?Airport)?")


def airport_code(value: str) -> str | None:
    """The three-letter code an airport's name as written holds ("JFK Airport", "LAX"), or None
    ("Munich Airport" holds none): what a parameter named for an airport takes."""
    m = _AIRPORT.fullmatch(value.strip())
    return m.group(1) if m else None
