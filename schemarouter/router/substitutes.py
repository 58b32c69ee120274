"""Substitutes for a failed step: an equivalent source (no key, network down, 5xx, timeout).

"Equivalent" is read from the schema graph, never from a list of source pairs: another source's
endpoint is a candidate when, through the graph's concept index, it has fields carrying the same
concepts as the failed step's fields, each in a compatible unit (the same, or one pint converts;
values are then converted to the planned unit and say so), with the same source type (the plan's
source-type constraint when it has one, else the planned field's own), and when it can take the
question's values (a formula, an identifier ...) filled by the router's own parameter rules. A
source already in the plan is never a candidate (a comparison must not answer itself twice).
Candidates are ranked by how many planned fields they stand in for, then fewer conversions,
non-web, priority and fewer fields.

This is planning, so it lives here; the executor receives it as a
:data:`~schemarouter.execution.fallback.Substitutes` function and runs what it returns.
"""

from __future__ import annotations

from typing import Any

from schemarouter.execution.fallback import Alternative
from schemarouter.execution.units import compatible
from schemarouter.graph import EndpointInfo, FieldInfo, SchemaGraph
from schemarouter.plan import Plan, PlanStep, Understanding
from schemarouter.router.coverage import RENDERED_AS
from schemarouter.router.params import fill_params
from schemarouter.understand.base import Analysis

MAX_ALTERNATIVES = 3


def _number_like(f: FieldInfo) -> bool:
    return f.field.type in ("number", "integer")


def _wanted(plan: Plan, info: EndpointInfo, step: PlanStep) -> tuple[list[FieldInfo], set[str]]:
    """The planned non-identifier fields that carry concepts, and the concepts a substitute must cover."""
    planned = [info.fields[n] for n in step.fields
               if n in info.fields and info.fields[n].field.concepts and not info.fields[n].field.identifier]
    carried = {c for f in planned for c in f.field.concepts}
    return planned, carried & set(plan.understanding.concepts)


def _values(plan: Plan, step: PlanStep, info: EndpointInfo) -> dict[str, Any]:
    """The question's values: the understanding's, plus the failed step's own by parameter concept (a saved
    plan may carry no understanding)."""
    values = dict(plan.understanding.params)
    # a question naming several entities asks each in its own step ("GaN, AlN and InN"): the
    # failed step's entity is the one its substitute must ask about, not the question's first
    named = {str(v) for listed in values.values() if isinstance(listed, list) for v in listed}
    for name, value in step.params.items():
        p = info.param(name)
        if p is None or not p.concept or isinstance(value, dict):
            continue
        if p.concept not in values or (str(value) in named and values[p.concept] != value):
            values[p.concept] = value
    return values


def _selecting(info: EndpointInfo, params: dict[str, Any]) -> set[str]:
    """Concepts of the parameters that select the records (bound parameters included)."""
    return {p.concept for p in info.parameters if p.concept and p.name in params}


def _params(candidate: EndpointInfo, plan: Plan, values: dict[str, Any], selected_by: set[str],
            identifiers: frozenset[str]) -> dict[str, Any] | None:
    """The candidate's parameters in its own spelling (the router's rules), or None if it cannot take them as
    the failed step did: an identifier or formula must go into a parameter of that kind, not into free text."""
    understanding = Understanding(intent=plan.understanding.intent, concepts=list(plan.understanding.concepts),
                                  params=values)
    params, _notes = fill_params(candidate, Analysis(question=plan.query, understanding=understanding), [], identifiers)
    if any(p.required and p.name not in params for p in candidate.parameters):
        return None
    taken = _selecting(candidate, params)
    if values and not taken:
        return None  # it would list arbitrary records instead of the ones asked about
    for concept in selected_by - {"query_text"}:
        if not taken & (RENDERED_AS.get(concept, frozenset()) | {concept}):
            return None
    return params


def alternatives(plan: Plan, index: int, graph: SchemaGraph) -> list[Alternative]:
    """Equivalent substitutes for ``plan.steps[index]``, best first (at most ``MAX_ALTERNATIVES``)."""
    step = plan.steps[index]
    info = graph.endpoints.get((step.source, step.endpoint))
    if info is None:
        return []
    planned, required = _wanted(plan, info, step)
    if not planned:
        return []
    constraint = plan.understanding.source_constraint
    in_plan = {s.source for s in plan.steps}
    values = _values(plan, step, info)
    selected_by = _selecting(info, step.params)
    keys: dict[tuple[str, str], None] = {}
    for concept in sorted({c for f in planned for c in f.field.concepts}):
        for key in graph.index.concept_endpoints.get(concept, ()):
            keys.setdefault(key, None)
    found: list[Alternative] = []
    for key in keys:
        candidate = graph.endpoints[key]
        if candidate.key.source in in_plan or candidate.access == "write":
            continue
        alt = _substitute(plan, planned, required, constraint, candidate, values, selected_by, graph.identifier_concepts)
        if alt is not None:
            found.append(alt)
    found.sort(key=lambda a: a.rank)
    return found[:MAX_ALTERNATIVES]


def _substitute(plan: Plan, planned: list[FieldInfo], required: set[str], constraint: str | None,
                candidate: EndpointInfo, values: dict[str, Any], selected_by: set[str],
                identifiers: frozenset[str]) -> Alternative | None:
    mapping: dict[str, list[str]] = {}
    units: dict[str, tuple[str, str]] = {}
    for pf in planned:
        source_type = constraint or pf.source_type
        for cf in candidate.fields.values():
            if cf.field.identifier or not set(pf.field.concepts) & set(cf.field.concepts):
                continue
            if _number_like(pf) != _number_like(cf) or cf.source_type != source_type:
                continue
            if not compatible(pf.field.unit, cf.field.unit):
                continue
            mapping.setdefault(pf.name, []).append(cf.name)
            if cf.field.unit != pf.field.unit and cf.field.unit and pf.field.unit:
                units[cf.name] = (cf.field.unit, pf.field.unit)
    covered = {c for pf in planned if pf.name in mapping for c in pf.field.concepts}
    if not mapping or not required <= covered:
        return None
    params = _params(candidate, plan, values, selected_by, identifiers)
    if params is None:
        return None
    names = list(dict.fromkeys(n for ns in mapping.values() for n in ns))
    fields = [n for n in candidate.fields if n in names]
    meta = {n: candidate.fields[n].meta() for n in fields}
    step = PlanStep(source=candidate.key.source, endpoint=candidate.key.endpoint, params=params, fields=fields,
                    meta=meta, why={n: "fallback: same concept as a planned field" for n in fields})
    shown = sorted(required or covered)
    unit_words = sorted({candidate.fields[n].field.unit or "no unit" for n in fields})
    types = sorted({candidate.fields[n].source_type for n in fields})
    reason = (f"same concept{'s' if len(shown) > 1 else ''} {', '.join(shown)}, unit {', '.join(unit_words)}, "
              f"source type {', '.join(types)}" + (" (the plan's constraint)" if constraint else ""))
    if units:
        reason += "; converted " + ", ".join(f"{n} {a} -> {b}" for n, (a, b) in sorted(units.items()))
    rank = (-len(mapping), len(units), 1 if candidate.is_web else 0, -candidate.source.priority,
            len(candidate.fields), candidate.label)
    return Alternative(step=step, reason=reason, fields=mapping, units=units, rank=rank)
