"""Planning metrics (docs/benchmark.md): plans scored against gold plans and alternatives.

Each query's plan is scored against the gold step list or any alternative, whichever fits
best. Metrics: tool-exact, tool P/R/F1, field P/R/F1 over (source, field) pairs without
identifier fields, parameter validity, parameter accuracy (normalized values), executable
plans, over-fetch, metadata completeness, and declined negatives.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from schemarouter.graph import SchemaGraph
from schemarouter.plan import Plan
from schemarouter.router.validate import validate_plan
from schemarouter.understand import chemistry


# -- value normalization -----------------------------------------------------------------------
def _element_list(value: str) -> frozenset[str] | None:
    parts = [p.strip() for p in re.split(r"[,\s]+", value) if p.strip()]
    if len(parts) > 1 and "," in value and all(p in chemistry.ELEMENTS for p in parts):
        return frozenset(parts)
    return None


def values_match(gold: Any, got: Any) -> bool:
    """Gold null accepts any non-empty value; formulas and element lists compare by composition,
    numbers by value, text case- and whitespace-insensitively (underscores count as spaces)."""
    if got is None or (isinstance(got, str) and not got.strip()):
        return False
    if gold is None:
        return True
    if isinstance(gold, bool) or isinstance(got, bool):
        return bool(gold == got)
    if isinstance(gold, (int, float)) or isinstance(got, (int, float)):
        try:
            return math.isclose(float(gold), float(got), rel_tol=1e-9, abs_tol=1e-12)
        except (TypeError, ValueError):
            return False
    g, o = str(gold), str(got)
    ge, oe = _element_list(g), _element_list(o)
    if ge is not None or oe is not None:
        if ge is None and chemistry.parse(g.replace(" ", "")) and len(chemistry.parse(g.replace(" ", "")) or {}) == 1:
            ge = frozenset(chemistry.parse(g) or {})
        if oe is None and chemistry.parse(o.replace(" ", "")) and len(chemistry.parse(o.replace(" ", "")) or {}) == 1:
            oe = frozenset(chemistry.parse(o) or {})
        return ge == oe
    if _looks_like_formula(g) and _looks_like_formula(o):
        return chemistry.same_composition(g, o)
    return _text(g) == _text(o)


def _looks_like_formula(value: str) -> bool:
    compact = value.replace(" ", "")
    return bool(compact) and chemistry.parse(compact) is not None and any(c.isupper() for c in compact)


def _text(value: str) -> str:
    return " ".join(value.replace("_", " ").casefold().split())


# -- per query ------------------------------------------------------------------------------------
@dataclass
class QueryScore:
    """One plan's planning metrics against the best-fitting gold plan."""

    id: str
    category: str
    negative: bool
    declined: bool
    tool_exact: bool
    tool_p: float
    tool_r: float
    field_p: float
    field_r: float
    param_valid: bool
    param_hits: int
    param_total: int
    executable: bool
    over_fetch: float | None
    meta_complete: int
    meta_total: int
    missing_fields: list[tuple[str, str]] = field(default_factory=list)
    param_misses: list[str] = field(default_factory=list)


def _f1(p: float, r: float) -> float:
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def _pairs(steps: Iterable[dict[str, Any]], identifiers: set[tuple[str, str]]) -> set[tuple[str, str]]:
    return {(s["source"], f) for s in steps for f in s["fields"] if (s["source"], f) not in identifiers}


# rank, then: tool-exact, tool P, tool R, field P, field R, parameter hits, parameters, misses, over-fetch, missing
_OptionScore = tuple[tuple[bool, float, int], bool, float, float, float, float, int, int, list[str], float | None,
                     list[tuple[str, str]]]


def _option_score(
    plan_steps: list[dict[str, Any]], option: list[dict[str, Any]], identifiers: set[tuple[str, str]]
) -> _OptionScore:
    plan_sources = {s["source"] for s in plan_steps}
    gold_sources = {s["source"] for s in option}
    exact = plan_sources == gold_sources
    tp = len(plan_sources & gold_sources)
    tool_p = tp / len(plan_sources) if plan_sources else 0.0
    tool_r = tp / len(gold_sources) if gold_sources else 0.0
    got, want = _pairs(plan_steps, identifiers), _pairs(option, identifiers)
    field_p = len(got & want) / len(got) if got else 0.0
    field_r = len(got & want) / len(want) if want else 1.0
    hits, total, misses = 0, 0, []
    for g in option:
        step = next((s for s in plan_steps if s["source"] == g["source"] and s["endpoint"] == g["endpoint"]), None)
        for key, value in g.get("params", {}).items():
            total += 1
            got_value = None if step is None else step["params"].get(key)
            if values_match(value, got_value):
                hits += 1
            else:
                misses.append(f"{g['source']}.{key}: want {value!r} got {got_value!r}")
    over = (len(got - want) / len(got)) if got else None
    rank = (exact, _f1(field_p, field_r), hits - total)
    return rank, exact, tool_p, tool_r, field_p, field_r, hits, total, misses, over, sorted(want - got)


def score_query(plan: Plan, row: dict[str, Any], graph: SchemaGraph, identifiers: set[tuple[str, str]]) -> QueryScore:
    """Score one plan against its gold row: the best of the gold plan and its alternatives."""
    steps = [s.model_dump() for s in plan.steps]
    negative = not row["gold"]
    problems = [p for p in validate_plan(plan, graph) if not p.startswith("stale plan")]
    param_valid = not any("parameter" in p for p in problems)
    meta_ok = meta_total = 0
    for s in plan.steps:
        info = graph.endpoints.get((s.source, s.endpoint))
        for name in s.fields:
            f = info.fields.get(name) if info else None
            if f is None:
                continue
            meta_total += 1
            m = s.meta.get(name)
            if m and (f.field.unit is None or m.unit == f.field.unit) and m.source_type and m.license:
                meta_ok += 1
    if negative:
        declined = plan.declined is not None and not plan.steps
        return QueryScore(row["id"], row.get("category", ""), True, declined, declined, 1.0 if declined else 0.0,
                          1.0 if declined else 0.0, 1.0, 1.0, param_valid, 0, 0, not problems, None,
                          meta_ok, meta_total)
    options = [row["gold"], *row.get("alternatives", [])]
    best = max((_option_score(steps, o, identifiers) for o in options), key=lambda r: r[0])
    _, exact, tp, tr, fp, fr, hits, total, misses, over, missing = best
    executable = not problems and bool(plan.steps)
    return QueryScore(row["id"], row.get("category", ""), False, plan.declined is not None, exact, tp, tr, fp, fr,
                      param_valid, hits, total, executable, over, meta_ok, meta_total, missing, misses)


def identifier_fields(graph: SchemaGraph) -> set[tuple[str, str]]:
    """The (source, field) pairs that are record identifiers, left out of field metrics."""
    return {(f.source, f.name) for f in graph.iter_fields() if f.field.identifier}


def score_plans(plans: list[Plan], rows: list[dict[str, Any]], graph: SchemaGraph) -> dict[str, Any]:
    """Aggregate planning metrics; plans and gold rows are matched by id (or position)."""
    by_id = {p.id: p for p in plans if p.id is not None}
    identifiers = identifier_fields(graph)
    scores = []
    for i, r in enumerate(rows):
        plan = by_id.get(r["id"], plans[i] if i < len(plans) else None)
        if plan is None:  # fewer plans than gold rows, and none carries this row's id
            raise ValueError(f"no plan for gold query {r['id']!r}")
        scores.append(score_query(plan, r, graph, identifiers))
    return summarize(scores)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def summarize(scores: list[QueryScore]) -> dict[str, Any]:
    """Aggregate per-query scores into the report's planning metrics."""
    pos = [s for s in scores if not s.negative]
    neg = [s for s in scores if s.negative]
    tool_p, tool_r = _mean([s.tool_p for s in pos]), _mean([s.tool_r for s in pos])
    field_p, field_r = _mean([s.field_p for s in pos]), _mean([s.field_r for s in pos])
    param_total = sum(s.param_total for s in pos)
    overs = [s.over_fetch for s in pos if s.over_fetch is not None]
    meta_total = sum(s.meta_total for s in scores)
    return {
        "n": len(scores),
        "tool_exact": _mean([1.0 if s.tool_exact else 0.0 for s in scores]),
        "tool_precision": tool_p, "tool_recall": tool_r, "tool_f1": _mean([_f1(s.tool_p, s.tool_r) for s in pos]),
        "field_precision": field_p, "field_recall": field_r, "field_f1": _mean([_f1(s.field_p, s.field_r) for s in pos]),
        "param_validity": _mean([1.0 if s.param_valid else 0.0 for s in scores]),
        "param_accuracy": (sum(s.param_hits for s in pos) / param_total) if param_total else 1.0,
        "executable": _mean([1.0 if s.executable else 0.0 for s in scores]),
        "over_fetch": _mean(overs),
        "metadata_completeness": (sum(s.meta_complete for s in scores) / meta_total) if meta_total else 1.0,
        "negatives_declined": sum(1 for s in neg if s.declined),
        "negatives": len(neg),
        "queries": scores,
    }
