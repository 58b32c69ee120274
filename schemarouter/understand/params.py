"""Parameter values the understand step extracts, keyed by parameter concept (formula, doi, ...).

The router later fits each value to the parameters an endpoint declares for that concept.
"""

from __future__ import annotations

from typing import Any

from schemarouter.understand import wording
from schemarouter.understand.base import Analysis
from schemarouter.understand.evidence import entity_concept


def entity_params(analysis: Analysis, text: str) -> dict[str, Any]:
    """Parameter values from the recognized entities, by the concept each is sent as."""
    params: dict[str, Any] = {}
    formulas: list[str] = []
    for e in analysis.entities:
        if e.kind == "formula":
            if e.value not in formulas:
                formulas.append(e.value)
            continue
        if e.kind == "year":
            params.setdefault("year", wording.year_range(text, e.start, e.end, e.value, e.extra.get("until")))
            continue
        if e.kind == "elements":
            params.setdefault("elements", list(e.value))
            continue
        if e.kind in ("site", "time_range"):
            params.setdefault(e.kind, e.value)
            continue
        concept = entity_concept(e)
        if concept:
            params.setdefault(concept, e.value)
    named = next((e for e in analysis.entities if e.kind == "formula" and e.extra.get("name")), None)
    if named is not None and "compound_name" not in params:
        params["compound_name"] = named.extra["name"]  # "sodium chloride": a formula and a compound name
    if formulas:
        params["formula"] = formulas[0]
        if len(formulas) > 1:
            params["formulas"] = formulas
    if wording.sort_by_citations(text):
        params["sort"] = "citation_count"
    if analysis.topic:
        params["query_text"] = analysis.topic
    if "title" in params:
        params["query_text"] = params["title"]
    return params
