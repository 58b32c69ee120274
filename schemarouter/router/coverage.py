"""The coverage report: what of the question a plan covers, what it does not, and why.

An agent that gets a plan (or a run) should not have to guess whether "band gap of GaN from
experiment" was fully understood and served. :func:`coverage` lists every concept the question
asks for, every value it gives (formula, DOI, year, numeric window ...), its provenance
constraint and the sources it names, and says for each which steps cover it, or why none does
(no planned field carries it, no registered source declares it, the named source cannot take the
question's values, ...). It is a pure function of the plan, the understand step's analysis and
the schema graph, so it can be recomputed for a saved plan.

A parameter bound to another step's output (``{"from": "s1", "field": "id"}``, see "Chained
steps" in the design) is covered by its producer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from schemarouter.graph import EndpointInfo, SchemaGraph
from schemarouter.graph.terms import name_terms
from schemarouter.graph.text import normalize
from schemarouter.plan import Coverage, CoverageItem, Plan, PlanStep
from schemarouter.router.memos import RouterGraphMemo
from schemarouter.router.polymorphs import structure_items
from schemarouter.router.validate import step_inputs
from schemarouter.understand.base import Analysis

# Question values the router writes into a parameter of another concept (router/params.py): a
# formula becomes an element list or chemical system, a compound or topic goes into free text.
RENDERED_AS: dict[str, frozenset[str]] = {
    "formula": frozenset({"formula", "element", "chemsys", "compound_name"}),
    "formulas": frozenset({"formula", "element"}),
    "elements": frozenset({"element", "chemsys"}),
    "chemsys": frozenset({"chemsys", "element"}),
    "compound_name": frozenset({"compound_name", "formula"}),
    "year": frozenset({"year", "fiscal_year"}),
}
_SQUASH = re.compile(r"[^a-z0-9]+")
SHOWN_ALTERNATIVES = 3


def coverage(plan: Plan, analysis: Analysis | None, graph: SchemaGraph) -> Coverage:
    """Which concepts and constraints of the question ``plan`` covers and which it does not, and why."""
    u = plan.understanding
    matched = analysis.matched if analysis is not None else {}
    steps = [(step, graph.endpoints.get((step.source, step.endpoint))) for step in plan.steps]
    items: list[CoverageItem] = []
    answering: list[tuple[EndpointInfo, str]] = []
    for concept in u.concepts:
        item, fields = _concept(concept, matched.get(concept, concept), plan, steps, graph)
        items.append(item)
        answering.extend(fields)
    values: list[CoverageItem] = []
    for key, value in u.params.items():
        if key == "bounds" and isinstance(value, dict):
            values.extend(_bounds(value, plan, steps))
        elif key != "query_text":
            values.append(_param(key, value, plan, steps))
    if "query_text" in u.params:
        # free text is what the understand step left over; it constrains only when nothing else selects
        text = _param("query_text", u.params["query_text"], plan, steps)
        if text.covered or not any(v.covered for v in values):
            values.append(text)
    if analysis is not None:
        values.extend(_given(analysis, plan, steps, [v.value for v in values], graph))
    items.extend(values)
    items.extend(structure_items(analysis, plan, graph))
    if u.source_constraint:
        items.append(_constraint(u.source_constraint, plan, steps, answering))
    for source in u.named_tools:
        items.append(_named(source, plan, graph, u.concepts, list(u.params)))
    items.extend(_inputs(steps))
    return Coverage(items=items)


def _inputs(steps: list[tuple[PlanStep, EndpointInfo | None]]) -> Iterator[CoverageItem]:
    """A required parameter a planned step does not send: the question does not give it (and no
    earlier step produces it), so whoever runs the plan must ask for it first."""
    for step, info in steps:
        if info is not None:
            for p in step_inputs(info, step):
                yield CoverageItem(kind="input", name=p.name, covered=False,
                                   why=f"{step.source}.{step.endpoint} requires it and the question does not give it")


def _label(step: PlanStep, *parts: str) -> str:
    return ".".join([step.source, step.endpoint, *parts])


def _not_planned(plan: Plan, why: str) -> str:
    return f"the plan declined: {plan.declined}" if plan.declined else why


# -- concepts ------------------------------------------------------------------------------------
def _concept(
    concept: str, said: str, plan: Plan, steps: list[tuple[PlanStep, EndpointInfo | None]], graph: SchemaGraph,
) -> tuple[CoverageItem, list[tuple[EndpointInfo, str]]]:
    words = {normalize(concept.replace("_", " ")), normalize(said)}
    by: list[str] = []
    fields: list[tuple[EndpointInfo, str]] = []
    for step, info in steps:
        if info is None:
            continue
        for name in step.fields:
            f = info.fields.get(name)
            if f is None:
                continue
            if concept in f.field.concepts or f.words in words or words & set(f.alias_words):
                by.append(_label(step, name))
                fields.append((info, name))
        for p in info.parameters:
            if p.concept == "property_name" and p.name in step.params:
                by.append(_label(step, p.name))  # the property is asked for by name (MPDS props)
    if by:
        return CoverageItem(kind="concept", name=concept, covered=True, by=by, why="a planned field carries it"), fields
    # a source declared without concepts: the endpoint's own declaration (path, summary, fields) says it
    terms = name_terms(said)
    for step, info in steps:
        number = graph.numbers.get(info.key) if info is not None else None
        if number is not None and terms and all(graph.lexical.contains(number, t) for t in terms):
            by.append(_label(step))
    if by:
        return CoverageItem(kind="concept", name=concept, covered=True, by=by,
                            why="the endpoint's declaration names it"), fields
    return CoverageItem(kind="concept", name=concept, covered=False, why=_not_planned(plan, _concept_gap(concept, graph,
                        plan.understanding.source_constraint))), fields


def _concept_gap(concept: str, graph: SchemaGraph, constraint: str | None) -> str:
    declared = graph.concept_fields.get(concept, []) or graph.fields_named(concept)
    if not declared:
        if concept not in graph.decls.concepts:
            return "not a quantity the registry knows (no concept or field by this name)"
        return "no registered source declares a field for it"
    if constraint and not any(f.source_type == constraint for f in declared):
        return f"no registered source declares it with source type {constraint}"
    shown = ", ".join(f"{f.source}.{f.endpoint}.{f.name}" for f in declared[:SHOWN_ALTERNATIVES])
    return (f"no planned step returns it; {len({f.source for f in declared})} source(s) declare it "
            f"(e.g. {shown}) but none was planned with the question's values")


# -- values the question gives -------------------------------------------------------------------
def _squash(value: Any) -> str:
    return _SQUASH.sub("", str(value).lower())


def _scalars(value: Any) -> Iterator[Any]:
    if isinstance(value, (list, tuple, set)):
        for v in value:
            yield from _scalars(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _scalars(v)
    elif value is not None:
        yield value


def _carries(sent: Any, given: Any) -> bool:
    """Whether a parameter value sent carries the question's value (same text, or inside a filter/query)."""
    wanted = [_squash(v) for v in _scalars(given)]
    text = _squash(" ".join(str(v) for v in _scalars(sent)))
    return bool(wanted) and all(w and w in text for w in wanted)


def _declared_units(graph: SchemaGraph) -> frozenset[str]:
    """The units the graph's response fields declare (worked out once per graph)."""
    memo = graph.memos.of(RouterGraphMemo)
    if memo.units is None:
        memo.units = frozenset(f.unit for info in graph.endpoints.values() for f in info.fields.values() if f.unit)
    return memo.units


def _within(sent: Any, given: Any) -> bool:
    """Whether a parameter value sent is part of the question's value ("Hyundai Motor" of "CEO of
    Hyundai Motor", the key of "InChIKey BSYNRY..."), four characters or more."""
    text = _squash(given)
    return any(len(s) >= 4 and s in text for s in (_squash(v) for v in _scalars(sent)))


def _binding(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) and isinstance(value.get("from"), str) else None


def _producer(plan: Plan, step_id: str) -> str:
    for i, step in enumerate(plan.steps):
        if getattr(step, "id", None) == step_id or f"s{i + 1}" == step_id:
            return _label(step)
    return step_id


def _param(key: str, value: Any, plan: Plan, steps: list[tuple[PlanStep, EndpointInfo | None]]) -> CoverageItem:
    concepts = RENDERED_AS.get(key, frozenset()) | {key}
    by: list[str] = []
    for step, info in steps:
        for name, sent in step.params.items():
            declared = info.param(name) if info is not None else None
            bound = _binding(sent)
            if declared is not None and declared.concept in concepts:
                if bound is not None:
                    by.append(f"{_producer(plan, bound['from'])}.{bound.get('field', '?')} -> {_label(step, name)}")
                else:
                    by.append(_label(step, name))
            elif bound is None and _carries(sent, value):
                by.append(_label(step, name))
    if by:
        return CoverageItem(kind="param", name=key, value=value, covered=True, by=by,
                            why="a planned parameter carries it")
    why = _not_planned(plan, f"no planned step takes a {key.replace('_', ' ')} parameter")
    return CoverageItem(kind="param", name=key, value=value, covered=False, why=why)


def _given(analysis: Analysis, plan: Plan, steps: list[tuple[PlanStep, EndpointInfo | None]],
           reported: list[Any], graph: SchemaGraph) -> Iterator[CoverageItem]:
    """The names, identifiers and values written after their noun that the question gives and no
    understood parameter holds, each with the steps that send it, or the honest "no planned step
    takes it": "Who directed more movies, Akira Kurosawa or Spielberg?" planned as one search for
    Kurosawa has not been answered. (Short codes and dates are left out: "NC" of "Raleigh, NC, US" and
    a date sent as year, month and day are taken without being sent as written.)"""
    given: dict[str, str] = {}
    units = _declared_units(graph)
    for e in analysis.names:
        if str(e.value).split()[-1] not in units:  # "in GPa", "at 300 K": a unit, not a name
            given.setdefault(str(e.value), "name")
    for e in analysis.identifiers:
        given.setdefault(str(e.value), "identifier")
    for noun, value in analysis.labels.items():
        given.setdefault(value, noun)
    for value, kind in given.items():
        if any(_carries(r, value) or _carries(value, r) for r in reported):
            continue  # already reported as an understood parameter
        by = [_label(step, name) for step, _ in steps for name, sent in step.params.items()
              if _binding(sent) is None and (_carries(sent, value) or _within(sent, value))]
        if by:
            yield CoverageItem(kind="param", name=kind, value=value, covered=True, by=by,
                               why="a planned parameter carries it")
        else:
            yield CoverageItem(kind="param", name=kind, value=value, covered=False,
                               why=_not_planned(plan, "no planned step takes it"))


def _bounds(bounds: dict[str, Any], plan: Plan, steps: list[tuple[PlanStep, EndpointInfo | None]]) -> list[CoverageItem]:
    """Numeric windows ("band gap above 2 eV"), one item per window: the understand step files one window
    under each name a source uses for the quantity (band_gap, Egap ...); any of them bounding it covers it."""
    windows: dict[str, list[str]] = {}
    for name, window in bounds.items():
        windows.setdefault(repr(window), []).append(name)
    items = []
    for names in windows.values():
        targets = {_squash(n) for n in names}
        by: list[str] = []
        for step, info in steps:
            for param_name, sent in step.params.items():
                declared = info.param(param_name) if info is not None else None
                described = _squash(f"{param_name} {declared.description if declared else ''}")
                if any(t in described or (isinstance(sent, str) and t in _squash(sent)) for t in targets):
                    by.append(_label(step, param_name))
        why = "a planned parameter bounds it" if by else _not_planned(
            plan, f"no planned step can filter on {names[0]}; the values come back unfiltered")
        items.append(CoverageItem(kind="param", name=f"{names[0]} range", value=bounds[names[0]], covered=bool(by),
                                  by=by, why=why))
    return items


# -- provenance and named sources ----------------------------------------------------------------
def _constraint(constraint: str, plan: Plan, steps: list[tuple[PlanStep, EndpointInfo | None]],
                answering: list[tuple[EndpointInfo, str]]) -> CoverageItem:
    if not answering:  # no concept asked: every returned non-identifier field answers
        answering = [(info, n) for step, info in steps if info is not None
                     for n in step.fields if n in info.fields and not info.fields[n].field.identifier]
    matching = [f"{info.label}.{n}" for info, n in answering if info.fields[n].source_type == constraint]
    if matching:
        return CoverageItem(kind="source_constraint", name=constraint, covered=True, by=matching,
                            why=f"the answering fields are {constraint}")
    types = sorted({info.fields[n].source_type for info, n in answering})
    why = f"the answering fields are {', '.join(types)}, not {constraint}" if types else "no planned field answers"
    return CoverageItem(kind="source_constraint", name=constraint, covered=False, why=_not_planned(plan, why))


def _named(source: str, plan: Plan, graph: SchemaGraph, concepts: list[str], params: list[str]) -> CoverageItem:
    by = [_label(step) for step in plan.steps if step.source == source]
    if by:
        return CoverageItem(kind="named_source", name=source, covered=True, by=by, why="the plan calls it")
    endpoints = graph.source_endpoints(source)
    if not endpoints:
        why = "it is not in the registry"
    elif concepts and not any(c in f.field.concepts for info in endpoints for f in info.fields.values()
                              for c in concepts):
        why = f"it declares no field for {', '.join(concepts)}"
    elif params:
        why = f"no endpoint of it can take the question's {', '.join(p.replace('_', ' ') for p in params)}"
    else:
        why = "no endpoint of it serves this question"
    return CoverageItem(kind="named_source", name=source, covered=False, why=_not_planned(plan, why))
