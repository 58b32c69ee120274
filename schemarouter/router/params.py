"""Fill an endpoint's declared parameters from the understood values, in the spelling each
parameter documents.

Values are matched to parameters by parameter concept (formula, doi, corp_name, ...). The
spelling is read from the parameter's own declaration: "alphabetical" formulas (OPTIMADE
reduced), "Hill" formulas with spaces (COD), comma-separated element lists with a species
count (AFLOW), "spaces as underscores" page titles, year ranges, enum codes explained in the
description. Nothing is invented: a parameter with no value stays out, except a required one
with a declared default when the question leaves it open (the step's explanation says so); a declared
example is never sent.
"""

from __future__ import annotations

import re
from typing import Any

from schemarouter.graph import EndpointInfo
from schemarouter.models import Parameter
from schemarouter.understand import chemistry
from schemarouter.understand.base import Analysis

IDENTIFIER_CONCEPTS = ("doi", "arxiv_id", "pmid", "cid", "material_id", "inchikey", "corp_code")


def fill_params(info: EndpointInfo, analysis: Analysis, unmatched: list[str]) -> tuple[dict[str, Any], list[str]]:
    """Parameter values for ``info`` and notes on defaults used."""
    values = analysis.understanding.params
    out: dict[str, Any] = {}
    notes: list[str] = []
    params = info.endpoint.parameters
    by_concept = {p.concept for p in params if p.concept}
    has_identifier = False
    for concept in IDENTIFIER_CONCEPTS:
        for p in params:
            if p.concept == concept and concept in values and _id_fits(p, values[concept]):
                out[p.name] = _cast(p, values[concept])
                has_identifier = True
                break
    formula = values.get("formula")
    formula_entity = analysis.entity("formula")
    formula_from_name = bool(formula_entity and formula_entity.extra.get("name"))
    if formula and not has_identifier:
        target = next((p for p in params if p.concept == "formula"), None)
        if target is not None:
            out[target.name] = format_formula(target, formula)
        else:
            elements = next((p for p in params if p.concept == "element"), None)
            if elements is not None:
                els = chemistry.elements_in_order(formula)
                out[elements.name] = ",".join(els)
                counter = _species_count_param(params)
                if counter is not None:
                    out[counter.name] = len(els)
    if "elements" in values and not has_identifier and not formula:
        p = next((p for p in params if p.concept == "element"), None)
        if p is not None:
            out[p.name] = ",".join(values["elements"])
        elif "chemsys" in by_concept:
            out[next(p for p in params if p.concept == "chemsys").name] = "-".join(values["elements"])
    if "bounds" in values and not has_identifier and not formula:
        out.update(_bound_params(info, values["bounds"]))
    if "chemsys" in values and "chemsys" in by_concept and not has_identifier and not formula:
        p = next(p for p in params if p.concept == "chemsys")
        out[p.name] = values["chemsys"]
    if not has_identifier:
        for concept in ("compound_name", "corp_name", "tag", "author"):
            if concept in values:
                p = next((p for p in params if p.concept == concept), None)
                if p is not None:
                    out[p.name] = _cast(p, values[concept])
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
    text = analysis.question
    desc = f"{p.description} {p.example or ''}"
    if p.concept == "query_text":
        if has_identifier and not p.required:
            return None
        if any(q.concept == "formula" for q in info.endpoint.parameters) and not p.required:
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
            if "underscore" in desc.lower():
                subject = subject.replace(" ", "_")
            return subject[:1].upper() + subject[1:]
        return None
    if p.concept in ("year", "fiscal_year") and "year" in values and not has_identifier:
        return _format_year(p, str(values["year"]))
    if p.concept == "report_code" or (p.enum and p.concept is None and _described_codes(p)):
        return _code_from_description(p, text)
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
        return values["time_range"] if values["time_range"] in desc else None
    if "sort" in values and p.name.lower() in ("sort", "sortby", "sort_by"):
        return _citation_sort(p)
    if p.name.lower() in ("order", "sortorder") and "sort" in values and any(
        q.name.lower() in ("sort", "sortby") and _citation_sort(q) for q in info.endpoint.parameters
    ):
        return "desc" if p.enum is None or "desc" in p.enum else None
    return None


def _bound_params(info: EndpointInfo, bounds: dict[str, list[float | None]]) -> dict[str, Any]:
    """Numeric windows sent as the endpoint's documented bound parameters: ``<field>_min`` /
    ``<field>_max`` ("Lower/Upper bound on <field>") or a field-named range parameter."""
    out: dict[str, Any] = {}
    for key, (lo, hi) in bounds.items():
        names = {f.name for f in info.fields.values() if f.name == key or key in f.field.concepts}
        for p in info.endpoint.parameters:
            desc = p.description.lower()
            target = next((n for n in names if n.lower() in p.name.lower() or n.lower() in desc), None)
            if target is None or p.type not in ("number", "integer", "string"):
                continue
            if "lower bound" in desc and lo is not None:
                out[p.name] = lo
            elif "upper bound" in desc and hi is not None:
                out[p.name] = hi
            elif "range" in desc and p.name == target and p.type == "string" and "*" in desc:
                out[p.name] = f"{_num(lo)}*{_num(hi)}"
    return out


def _num(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def format_formula(p: Parameter, formula: str) -> str:
    desc = p.description.lower()
    if "alphabetical" in desc:
        return chemistry.alphabetical(formula)
    if "hill" in desc:
        return chemistry.hill(formula, " " if "space" in desc else "")
    return formula


def _species_count_param(params: list[Parameter]) -> Parameter | None:
    for p in params:
        if p.type == "integer" and re.search(r"number of (?:species|elements)", p.description, re.I):
            return p
    return None


def _id_fits(p: Parameter, value: Any) -> bool:
    """A database id goes only to the parameter whose example has the same shape (mp-..., JVASP-...)."""
    if p.concept != "material_id" or p.example is None:
        return True
    prefix = re.match(r"[A-Za-z]+[-:]?", str(p.example))
    got = re.match(r"[A-Za-z]+[-:]?", str(value))
    if prefix is None:
        return got is None
    return bool(got) and got.group().lower() == prefix.group().lower()


def _cast(p: Parameter, value: Any) -> Any:
    if p.type == "integer":
        try:
            return int(value)
        except (TypeError, ValueError):
            return value
    return str(value) if p.type == "string" else value


def _format_year(p: Parameter, year: str) -> str | None:
    """A year or range in the form the parameter documents: a range ('2019-', '2018-2020') where
    its example or description shows one, '>2018' where it shows comparison syntax, else one bound."""
    start, _, end = year.partition("-")
    if "-" not in year:
        return year
    desc = f"{p.description} {p.example}"
    names = f"{p.name} {p.description}".lower()
    if re.search(r"\b(?:max|upper|until|end)", p.name.lower()) or "upper" in names:
        return end or None
    if re.search(r"\b(?:from|min|since|start)", p.name.lower()) or "lower" in names:
        return start or None
    if start and not end and re.search(r">\s*\d{4}", desc):
        return f">{int(start) - 1}"
    if re.search(r"\d{4}-\d{4}|\d{4}-(?:\W|$)", desc) or "range" in names:
        return year
    return start or end or None


def _described_codes(p: Parameter) -> dict[str, str]:
    codes: dict[str, str] = {}
    for m in re.finditer(r"(\S+)\s+([A-Za-z][\w\- ]*?)(?=,|\.|;|$)", p.description):
        if p.enum and any(str(e) == m.group(1) for e in p.enum):
            codes[m.group(1)] = m.group(2).strip().lower()
    return codes


# How people name reporting periods, in the words enum descriptions use (Q1, half-year, Q3, annual).
_PERIODS = [
    (re.compile(r"\b(?:first|1st)[- ]quarter\b|\bq1\b", re.I), "q1"),
    (re.compile(r"\b(?:third|3rd)[- ]quarter\b|\bq3\b", re.I), "q3"),
    (re.compile(r"\b(?:half[- ]?year(?:ly)?|semi[- ]?annual|interim|h1|first half)\b", re.I), "half-year"),
    (re.compile(r"(?<!semi-)(?<!semi )\b(?:annual|yearly|full[- ]year|business report)\b", re.I), "annual"),
]


def _code_from_description(p: Parameter, text: str) -> Any:
    low = text.lower() + " " + " ".join(word for pattern, word in _PERIODS if pattern.search(text))
    for code, meaning in _described_codes(p).items():
        if meaning and re.search(r"\b" + re.escape(meaning) + r"\b", low):
            return next(e for e in p.enum or [] if str(e) == code)
    return None


def _citation_sort(p: Parameter) -> Any:
    options = [*(p.enum or []), p.example]
    for option in options:
        if option is not None and re.search(r"cit|referenced", str(option), re.I):
            return option
    return None
