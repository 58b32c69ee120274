"""Fill an endpoint's declared parameters from the understood values, in the spelling each
parameter declares.

Values are matched to parameters by parameter concept (formula, doi, corp_name, ...). The
spelling is the parameter's declared ``format`` (``formula_alphabetical`` for OPTIMADE reduced
formulas, ``formula_hill_spaced`` for COD, ``element_list`` with a ``species_count`` for AFLOW,
``title_underscored`` page titles, ``year_range`` / ``year_from`` / ``year_comparison`` years,
``lower_bound`` / ``upper_bound`` / ``range_star`` windows), its ``pattern`` (which database id it
takes) and its ``enum_labels`` (what each code means); descriptions are prose for people.
Nothing is invented: a parameter with no value stays out, except a required one
with a declared default when the question leaves it open (the step's explanation says so); a declared
example is never sent.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any

from schemarouter.graph import EndpointInfo
from schemarouter.graph.terms import name_terms
from schemarouter.models import Parameter
from schemarouter.understand import chemistry
from schemarouter.understand.base import Analysis


def _first(by_concept: dict[str, list[Parameter]], concept: str) -> Parameter | None:
    """The first parameter declaring ``concept``, or None."""
    found = by_concept.get(concept)
    return found[0] if found else None


def fill_params(info: EndpointInfo, analysis: Analysis, unmatched: list[str],
                identifiers: Collection[str] = ()) -> tuple[dict[str, Any], list[str]]:
    """Parameter values for ``info`` and notes on defaults used. ``identifiers`` are the registry's
    identifier concepts (the graph's ``identifier_concepts``): a value of one selects the record
    itself, so it goes to its parameter before any other value is considered."""
    values = analysis.understanding.params
    out: dict[str, Any] = {}
    notes: list[str] = []
    params = info.parameters
    # the parameters declaring each concept, in declaration order (each declaration read once)
    by_concept: dict[str, list[Parameter]] = {}
    for p in params:
        if p.concept:
            by_concept.setdefault(p.concept, []).append(p)
    has_identifier = False
    for concept in [c for c in values if c in identifiers]:
        for p in by_concept.get(concept, ()):
            if _id_fits(p, values[concept]):
                out[p.name] = _cast(p, values[concept])
                has_identifier = True
                break
    formula = values.get("formula")
    formula_entity = analysis.entity("formula")
    formula_from_name = bool(formula_entity and formula_entity.extra.get("name"))
    if formula and not has_identifier:
        target = _first(by_concept, "formula")
        if target is not None:
            out[target.name] = format_formula(target, formula)
        else:
            elements = _first(by_concept, "element")
            if elements is not None:
                els = chemistry.elements_in_order(formula)
                out[elements.name] = ",".join(els)
                counter = _species_count_param(params)
                if counter is not None:
                    out[counter.name] = len(els)
    if "elements" in values and not has_identifier and not formula:
        element = _first(by_concept, "element")
        if element is not None:
            out[element.name] = ",".join(values["elements"])
        elif "chemsys" in by_concept:
            out[by_concept["chemsys"][0].name] = "-".join(values["elements"])
    if "bounds" in values and not has_identifier and not formula:
        out.update(_bound_params(info, values["bounds"]))
    if "chemsys" in values and "chemsys" in by_concept and not has_identifier and not formula:
        out[by_concept["chemsys"][0].name] = values["chemsys"]
    if not has_identifier:
        for concept in ("compound_name", "corp_name", "tag", "author"):
            if concept in values:
                taker = _first(by_concept, concept)
                if taker is not None:
                    out[taker.name] = _cast(taker, values[concept])
    for p in params:
        if p.name in out:
            continue
        value = _other_value(p, info, analysis, out, has_identifier, formula_from_name, unmatched)
        if value is not None:
            out[p.name] = value
    for p in params:
        if p.required and p.name not in out and p.default is not None:
            out[p.name] = p.default
            notes.append(f"{p.name}={p.default!r} is the declared default; the question does not say")
    return out, notes


def _other_value(
    p: Parameter, info: EndpointInfo, analysis: Analysis, out: dict[str, Any], has_identifier: bool,
    formula_from_name: bool, unmatched: list[str],
) -> Any:
    values = analysis.understanding.params
    if p.concept == "query_text":
        if has_identifier and not p.required:
            return None
        if any(q.concept == "formula" for q in info.parameters) and not p.required:
            # a formula parameter already says which material; free text only helps for names
            entity = analysis.entity("compound") or (analysis.entity("formula") if formula_from_name else None)
            return (entity.extra.get("name") or entity.text) if entity else None
        for key in ("doi", "pmid", "arxiv_id") if not has_identifier else ():
            if key in values:
                return str(values[key])
        return values.get("query_text") or analysis.topic or analysis.subject
    if p.concept == "title":
        if p.required:
            subject = analysis.subject
            if not subject:
                return None
            if p.format == "title_underscored":
                subject = subject.replace(" ", "_")
            return subject[:1].upper() + subject[1:]
        return None
    if p.concept in ("year", "fiscal_year") and "year" in values and not has_identifier:
        return _format_year(p, str(values["year"]))
    if p.enum_labels:
        return _labelled_code(p, analysis)
    if p.concept == "property_name":
        words = [analysis.matched.get(c, c.replace("_", " ")) for c in unmatched if c in analysis.understanding.concepts]
        if not words:
            return None
        said = words[0].lower()
        example = str(p.example or "")
        return example if said in example.lower() else said
    if p.name == "site" and "site" in values:
        return values["site"]
    if p.name in ("time_range",) and "time_range" in values:
        return values["time_range"]
    if "sort" in values and p.name.lower() in ("sort", "sortby", "sort_by"):
        return _citation_sort(p)
    if p.name.lower() in ("order", "sortorder") and "sort" in values and any(
        q.name.lower() in ("sort", "sortby") and _citation_sort(q) for q in info.parameters
    ):
        return "desc" if p.enum is None or "desc" in p.enum else None
    return None


_BOUND_SUFFIX = re.compile(r"_(?:min|max|lower|upper|from|to|gte|lte)$", re.IGNORECASE)


def _bound_params(info: EndpointInfo, bounds: dict[str, list[float | None]]) -> dict[str, Any]:
    """Numeric windows sent as the endpoint's bound parameters, by their declared ``format``:
    ``lower_bound`` / ``upper_bound`` (``band_gap_min``) or a ``range_star`` range (``1*3``), each
    bounding the field its name says (``band_gap_min`` -> ``band_gap``; ``Egap`` -> ``Egap``)."""
    out: dict[str, Any] = {}
    for key, (lo, hi) in bounds.items():
        names = {f.name for f in info.fields.values() if f.name == key or key in f.field.concepts}
        for p in info.parameters:
            if p.format not in ("lower_bound", "upper_bound", "range_star") or _BOUND_SUFFIX.sub("", p.name) not in names:
                continue
            if p.format == "lower_bound" and lo is not None:
                out[p.name] = lo
            elif p.format == "upper_bound" and hi is not None:
                out[p.name] = hi
            elif p.format == "range_star":
                out[p.name] = f"{_num(lo)}*{_num(hi)}"
    return out


def _num(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def format_formula(p: Parameter, formula: str) -> str:
    """``formula`` in the spelling the parameter's ``format`` declares."""
    if p.format == "formula_alphabetical":
        return chemistry.alphabetical(formula)
    if p.format in ("formula_hill", "formula_hill_spaced"):
        return chemistry.hill(formula, " " if p.format == "formula_hill_spaced" else "")
    return formula


def _species_count_param(params: Sequence[Parameter]) -> Parameter | None:
    return next((p for p in params if p.format == "species_count"), None)


def _id_fits(p: Parameter, value: Any) -> bool:
    """A database id goes only to the parameter whose declared pattern it matches (mp-..., JVASP-...)."""
    if p.concept != "material_id" or p.pattern is None:
        return True
    return re.fullmatch(p.pattern, str(value)) is not None


def _cast(p: Parameter, value: Any) -> Any:
    if p.type == "integer":
        try:
            return int(value)
        except (TypeError, ValueError):
            return value
    return str(value) if p.type == "string" else value


def _format_year(p: Parameter, year: str) -> str | None:
    """A year or range in the spelling the parameter's ``format`` declares: ``year_from`` / ``year_until``
    take one bound, ``year_range`` a range ('2019-', '2018-2020'), ``year_comparison`` '>2018' for an
    open range, else one year."""
    start, _, end = year.partition("-")
    if "-" not in year:
        return year
    if p.format == "year_until":
        return end or None
    if p.format == "year_from":
        return start or None
    if p.format == "year_comparison" and start and not end:
        return f">{int(start) - 1}"
    if p.format in ("year_range", "year_comparison"):
        return year
    return start or end or None


def _labelled_code(p: Parameter, analysis: Analysis) -> Any:
    """The enum code whose declared label the question says ("annual" for ``{"11011": "annual"}``)."""
    said = set(analysis.all_terms)
    for code, label in (p.enum_labels or {}).items():
        words = name_terms(label)
        if label.lower() in analysis.periods or (words and all(w in said for w in words)):
            return next((e for e in p.enum or [] if str(e) == code), code)
    return p.default if p.required else None


def _citation_sort(p: Parameter) -> Any:
    options = [*(p.enum or []), p.example]
    for option in options:
        if option is not None and re.search(r"cit|referenced", str(option), re.I):
            return option
    return None
