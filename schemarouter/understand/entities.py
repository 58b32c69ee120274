"""Entity recognizers: the values a question carries (formulas, names, identifiers, years).

Each recognizer is a precompiled pattern or a lookup in a data file of real vocabulary
(materials and minerals, molecular compounds, companies). Spans are kept so later steps can
tell what is left of the question once entities and vocabulary are taken out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from typing import Any

from schemarouter.default_plugins.vocabulary import polymorphs
from schemarouter.graph.value_readers import ValueReader
from schemarouter.prefilter import Prefiltered
from schemarouter.safeload import load_yaml
from schemarouter.understand import chemistry


@dataclass(frozen=True)
class Entity:
    """A value recognized in a question, with its span and how it was read."""
    kind: str  # formula | elements | chemsys | compound | cid | doi | arxiv_id | pmid | material_id | company |
    #            year | title | tag | site | time_range
    value: Any
    start: int
    end: int
    text: str
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@cache
def _data(name: str) -> Any:
    # libyaml's parser (through the bounded loader), not PyYAML's pure-Python one: read once per process
    return load_yaml(files("schemarouter.understand").joinpath("data").joinpath(name).read_text(encoding="utf-8"), name=name)


def _name_pattern(names: list[str], flags: int = re.IGNORECASE) -> re.Pattern[str]:
    alternatives = sorted({re.escape(n) for n in names}, key=len, reverse=True)
    # Not inside hyphenated words (octanol-water, hydrogen-bond) nor before "bond".
    return re.compile(
        r"(?<![A-Za-z0-9\-])(?:" + "|".join(alternatives) + r")(?![A-Za-z0-9\-])(?!\s+bond)", flags
    )


@cache
def _patterns() -> dict[str, re.Pattern[str] | Prefiltered]:
    """The readers' patterns by kind; those that most questions cannot match are prefiltered by
    what they need (:mod:`schemarouter.prefilter`)."""
    materials: dict[str, str] = _data("materials.yaml")
    return {
        # not the first half of an ISSN-like "1932-6203"
        "year": Prefiltered(re.compile(r"(?<![\d.\-/])((?:19|20)\d{2})(?:\s*(?:-|–|to|and)\s*((?:19|20)\d{2}))?(?!\d)(?!\.\d)(?!-\d)"), "19", "20"),
        "quoted": Prefiltered(re.compile(r"(?:(?<=\s)|^|(?<=[:(]))(['\"‘“])(.{6,300}?)(['\"’”])(?=[\s.,;:?!)]|$)"), "'", '"', "‘", "“"),
        "chemsys": Prefiltered(re.compile(r"(?<![A-Za-z0-9])([A-Z][a-z]?(?:-[A-Z][a-z]?){1,6})(?![A-Za-z0-9-])"), "-"),
        "material_name": _name_pattern(list(materials)),
        # an element name that modifies another word is not the material asked about:
        # "lithium carbonate", "lithium metal batteries", "sodium ion"
        "element_name": re.compile(
            _name_pattern(list(chemistry.ELEMENT_BY_NAME)).pattern
            + r"(?!\s+(?:[a-z]+(?:ide|ate|ite)s?|metal|metals|ion|ions|batter(?:y|ies)|atoms?|salts?|compounds?|alloys?)\b)",
            re.IGNORECASE,
        ),
        "compound_name": _name_pattern(_data("compounds.yaml")),
        "company": _name_pattern(_data("companies.yaml"), 0),
        "tag": Prefiltered(re.compile(r"\btagged\s+(?:with\s+)?\[?([A-Za-z0-9.#+\-]+)\]?", re.IGNORECASE), "tagged"),
        "site": Prefiltered(re.compile(r"\b((?:[A-Z][a-z]+\s+){0,3}[A-Z][a-z]+)\s+Stack\s*Exchange\b|\b(Stack\s*Overflow)\b"), "Stack"),
        "author": re.compile(
            r"\b(?:by|authored by|written by)\s+((?:[A-Z]\.\s*)*[A-Z][a-z]{2,}(?:[-'][A-Z]?[a-z]+)?(?:\s+(?:and|&)\s+[A-Z][a-z]{2,})?)"
            r"(?:'s)?(?![\w-])"
        ),
        "time_range": Prefiltered(re.compile(r"\b(?:past|last|previous|this)\s+(day|week|month|year)\b", re.IGNORECASE), "past", "last", "previous", "this"),
        "single_element": re.compile(r"\b(?:of|for|about|on) ([A-Z])(?=\s*(?:$|[?.!,;]|\s+(?:in|from|at|according|using|with)\b))"),
        "formula": chemistry.FORMULA_TOKEN,
    }


# The patterns that list names (materials, elements, compounds, companies) are long alternations: a
# question none of whose words opens one of their names skips them (see ``_may_name``)
_ASCII_WORD = re.compile(r"[0-9a-z]+")


@cache
def _first_words() -> dict[str, frozenset[str] | None]:
    """Per name-list pattern, the first word (lower case ASCII letters and digits) of each of its
    names that can match ASCII text; None where a name has no such word or holds a character the
    patterns' case folding equates with an ASCII letter (that pattern always runs). A name with
    another non-ASCII character ("wüstite") matches no ASCII text."""
    lists = {
        "material_name": list(_data("materials.yaml")), "element_name": list(chemistry.ELEMENT_BY_NAME),
        "compound_name": list(_data("compounds.yaml")), "company": list(_data("companies.yaml")),
    }
    return {key: _firsts(names) for key, names in lists.items()}


def _firsts(names: list[str]) -> frozenset[str] | None:
    firsts: set[str] = set()
    for name in names:
        other = {ch for ch in name if not ch.isascii()}
        if any(_ASCII_CASES.fullmatch(ch) for ch in other):
            return None
        if other:
            continue
        first = _ASCII_WORD.findall(name.lower())[:1]
        if not first:
            return None
        firsts.add(first[0])
    return frozenset(firsts)


# a character that matches an ASCII letter when case is ignored (the Kelvin sign, the long s...)
_ASCII_CASES = re.compile(r"[A-Za-z]", re.IGNORECASE)


def _may_name(text: str) -> Callable[[str], bool]:
    """Whether a name-list pattern may match ``text``. A name matched in plain ASCII text is preceded
    and followed by no letter, digit or hyphen, and its first word is bounded inside it the same way,
    so that word is one of the text's words in lower case: a text with none of a list's first words
    holds none of its names (any other text is searched in full)."""
    words = frozenset(_ASCII_WORD.findall(text.lower())) if text.isascii() else None
    firsts = _first_words()

    def may(key: str) -> bool:
        first = firsts[key]
        return words is None or first is None or not first.isdisjoint(words)
    return may


def _declared_values(text: str, readers: Sequence[ValueReader]) -> list[Entity]:
    """The values the readers find, overlapping ones resolved to the longest (then the earliest, then
    the first reader): a DOI holding an arXiv number is the DOI. A match's span is taken out of the
    question; it is the value's own span when the pattern names its ``value`` group ("COD entry
    9008564": "COD" stays a word of the question)."""
    candidates: list[tuple[int, int, int, Entity]] = []
    for order, reader in enumerate(readers):
        for m in reader.finditer(text):
            group = reader.value_group(m)
            raw = m.group(group)
            if not raw:
                continue
            start, end = (m.span("value") if group == "value" else m.span())
            value: Any = int(raw) if reader.integer and raw.isdigit() else raw
            candidates.append((-(end - start), start, order,
                               Entity(reader.concept, value, start, end, text[start:end], {"declared": True})))
    kept: list[Entity] = []
    for _, _, _, entity in sorted(candidates, key=lambda c: c[:3]):
        if not any(k.start < entity.end and entity.start < k.end for k in kept):
            kept.append(entity)
    return kept


_COMPOUND_SUFFIX = re.compile(
    r"(?<![\w-])([a-z]{3,}(?:ene|ane|ine|ol|one|ose|ide|ate|yne|amine|azole|mycin|cillin|profen|olol|pril|sartan|statin))(?![\w-])"
)
_LITERATURE_WORDS = re.compile(r"\b(?:papers?|articles?|publications?|preprints?|works|studies|literature)\b", re.I)
# Capitalised words after "by"/"from" that are not people: months, sources are caught elsewhere
_NOT_AUTHORS = frozenset(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december", "the", "this", "that", "these", "those", "their", "using"]
)
_SINGLE_ELEMENTS = frozenset(s for s in chemistry.ELEMENTS if len(s) == 1) - {"I"}


def recognize(text: str, *, chemistry_context: bool = False, readers: Sequence[ValueReader] = ()) -> list[Entity]:
    """Every entity in ``text``; overlapping recognitions keep the earliest-registered kind. ``readers``
    read the values concepts declare a written form for (identifiers; the graph's ``value_readers``):
    each such entity's kind is its concept, and it is marked ``declared``."""
    p = _patterns()
    may = _may_name(text)
    found: list[Entity] = []
    taken: list[tuple[int, int]] = []

    def add(kind: str, value: Any, m: re.Match[str], group: int = 0, **extra: Any) -> None:
        start, end = m.start(group), m.end(group)
        if any(s < end and start < e for s, e in taken):
            return
        taken.append((start, end))
        found.append(Entity(kind, value, start, end, m.group(group), extra))

    for m in p["quoted"].finditer(text):
        inner = m.group(2).strip()
        if len(inner.split()) >= 3:
            add("title", inner, m)
    for entity in _declared_values(text, readers):
        if not any(s < entity.end and entity.start < e for s, e in taken):
            taken.append((entity.start, entity.end))
            found.append(entity)
    for m in p["company"].finditer(text) if may("company") else ():
        add("company", m.group(), m)
    for m in p["site"].finditer(text):
        name = m.group(1) or m.group(2)
        add("site", re.sub(r"\s+", "", name).lower(), m)
    for m in p["tag"].finditer(text):
        add("tag", m.group(1), m, 1)
    if _LITERATURE_WORDS.search(text):
        for m in p["author"].finditer(text):
            if m.group(1).split()[0].lower() not in _NOT_AUTHORS:
                add("author", m.group(1), m, 1)
    for m in p["time_range"].finditer(text):
        add("time_range", m.group(1).lower(), m)
    for m in p["chemsys"].finditer(text):
        parts = m.group(1).split("-")
        if all(part in chemistry.ELEMENTS for part in parts) and len(set(parts)) == len(parts):
            add("chemsys", m.group(1), m, 1)
    for m in p["formula"].finditer(text):
        if chemistry.is_formula_token(m.group()):
            add("formula", m.group(), m)
    for m in p["single_element"].finditer(text):
        if m.group(1) in _SINGLE_ELEMENTS:
            add("formula", m.group(1), m, 1)
    materials: dict[str, str] = _data("materials.yaml")
    explicit = any(e.kind == "formula" for e in found)
    for m in p["material_name"].finditer(text) if may("material_name") else ():
        if explicit:  # "rock-salt MgO": the written formula says which material
            taken.append((m.start(), m.end()))
            continue
        # a polymorph's name also says which structure of the formula is meant (vocabulary data)
        structure = polymorphs().get(m.group().lower())
        if structure is not None:
            add("formula", materials[m.group().lower()], m, name=m.group(), polymorph=structure)
        else:
            add("formula", materials[m.group().lower()], m, name=m.group())
    for m in p["compound_name"].finditer(text) if may("compound_name") else ():
        add("compound", m.group(), m)
    for m in p["element_name"].finditer(text) if may("element_name") else ():
        if explicit:
            continue
        add("formula", chemistry.ELEMENT_BY_NAME[m.group().lower()], m, name=m.group())
    for m in p["year"].finditer(text):
        add("year", m.group(1), m, until=m.group(2))
    if chemistry_context and not any(e.kind in ("compound", "formula", "cid") for e in found):
        for m in _COMPOUND_SUFFIX.finditer(text):
            add("compound", m.group(1), m, guessed=True)
    found.sort(key=lambda e: e.start)
    return found
