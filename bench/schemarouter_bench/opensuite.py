"""The open-world suites of ``schemarouter bench``: the imported-sources dev set and RestBench TMDB.

Rows: schemarouter (recall mode) and the BM25 baseline with a fixed number of endpoints per plan
(top-1 and top-2; a k chosen per question from its gold would be cheating). Every router plans
every question over the one open-world registry (:mod:`schemarouter_bench.openworld`); the
scores are :mod:`schemarouter_bench.openscore`'s. Each row carries its per-question results and
a failure list (what the plan did against what the gold wanted) for whoever improves the router.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from schemarouter.plan import Plan
from schemarouter_bench import aggregate as agg
from schemarouter_bench.dataset import DatasetError
from schemarouter_bench.devset import TMDB_SOURCE, DevQuestion, TmdbQuery, is_binding
from schemarouter_bench.frozen import Frozen
from schemarouter_bench.openscore import (
    PlanView,
    best_option,
    names_write,
    normalize_call,
    plan_view,
    score_chain,
)
from schemarouter_bench.openworld import OpenWorld
from schemarouter_bench.routers.base import BenchRouter

Progress = Callable[[str, int, int], None]
BM25_ENDPOINTS = (1, 2)
QUICK_ANSWERABLE_PER_API = 2
QUICK_TMDB = 8
CROSS_SOURCE_API = "cross-source"  # questions of cross_source.jsonl (no one API)


def open_routers(world: OpenWorld) -> list[BenchRouter]:
    """schemarouter (recall; with the dense index read too where ``schemarouter-embeddings`` is
    installed) and BM25 with a fixed top-k of endpoints, over the open-world graph."""
    from schemarouter.graph.dense import load_encoder
    from schemarouter_bench.routers.base import EntityParams
    from schemarouter_bench.routers.bm25 import BM25Router
    from schemarouter_bench.routers.schemarouter_rows import SchemaRouterRow
    from schemarouter_bench.targets import DENSE_ROUTER

    graph = world.frozen.graph
    entities = EntityParams(graph)
    routers: list[BenchRouter] = [SchemaRouterRow(graph, "recall")]
    if load_encoder() is not None:
        routers.append(SchemaRouterRow(graph, "recall", DENSE_ROUTER, dense=True))
    for k in BM25_ENDPOINTS:
        label = "endpoint" if k == 1 else "endpoints"
        routers.append(BM25Router(graph, entities, endpoints=k, name=f"BM25 top-{k} {label}"))
    return routers


def _timed(router: BenchRouter, question: str) -> tuple[Plan, float]:
    t0 = time.perf_counter()
    plan = router.plan(question)
    return plan, (time.perf_counter() - t0) * 1000


def _warm(router: BenchRouter, questions: list[str]) -> None:
    entities = getattr(router, "entities", None)
    if entities is not None:  # baselines borrow schemarouter's entity reading; not their latency
        entities.warm(questions)
    if questions:
        router.plan(questions[0])


def _show_params(params: dict[str, Any]) -> str:
    parts = []
    for k, v in params.items():
        shown = f"<{v['from']}.{v['field']}>" if is_binding(v) else repr(v)
        parts.append(f"{k}={shown}"[:60])
    return ", ".join(parts)


def _show(steps: list[PlanView]) -> list[str]:
    return [f"{s.source}.{s.endpoint}({_show_params(s.params)})" for s in steps]


def quick_dev_subset(questions: list[DevQuestion]) -> list[DevQuestion]:
    """A handful per API plus a few requests of every other kind: seconds, every code path."""
    taken: dict[tuple[str, str, bool], int] = {}
    out = []
    for q in questions:
        key = (q.api, q.kind, q.english)
        limit = QUICK_ANSWERABLE_PER_API if q.kind == "answer" and q.english else 1
        if taken.get(key, 0) < limit:
            taken[key] = taken.get(key, 0) + 1
            out.append(q)
    return out


# -- imported-sources dev set --------------------------------------------------------------------------
def _required(world: OpenWorld, q: DevQuestion) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for option in q.gold_sets:
        for step in option:
            if step.source in world.imported:
                out[step.call] = world.spec(step.source).required(step.call)
    return out


def _not_imported(world: OpenWorld, q: DevQuestion) -> list[str]:
    """The gold's endpoints the registry lacks, when no acceptable plan is within its reach ([] otherwise)."""
    names = world.frozen.endpoints
    missing = [
        [f"{s.source}.{s.endpoint}" for s in option if s.endpoint not in names.get(s.source, set())]
        for option in q.gold_sets
    ]
    return [] if any(not m for m in missing) else missing[0]


def score_dev_question(world: OpenWorld, q: DevQuestion, plan: Plan) -> dict[str, Any]:
    """One question's row: the scores, what the plan did and, for a failure, what went wrong."""
    steps = plan_view(plan)
    declined = not steps
    row: dict[str, Any] = {
        "id": q.id,
        "api": q.api or CROSS_SOURCE_API,
        "kind": q.kind,
        "lang": q.lang,
        "tags": q.tags,
        "plan": _show(steps),
        "declined": declined,
        "decline_reason": plan.declined,
    }
    problems: list[str] = []
    if q.answerable:
        option, s = best_option(steps, q, _required(world, q))
        missing = _not_imported(world, q)
        row.update(
            option=option,
            exact=s.exact,
            field_recall=s.field_recall,
            fields=[s.fields_hit, s.fields_total],
            params=[s.params_hit, s.params_total],
            document_required=[s.doc_required_hit, s.doc_required_total],
            gold_not_imported=missing,
        )
        if declined:
            problems.append(f"declined: {plan.declined or 'no steps'}")
        elif not s.exact:
            want = [f"{g.source}.{g.endpoint}" for g in q.gold_sets[option]]
            problems.append(f"endpoints: want {want}")
        if missing:
            problems.append(f"gold endpoint not imported today: {', '.join(missing)}")
        problems += [f"missing field {m}" for m in s.missing_fields] if not declined else []
        problems += [f"param {m}" for m in s.param_misses] if not declined else []
    else:
        row["named_write"] = None
        if q.kind == "action" and q.write_endpoint and q.write_source in world.imported:
            op_id = world.spec(q.write_source).operation_id(q.write_endpoint)
            row["named_write"] = names_write(plan.declined, q.write_endpoint, op_id)
        if not declined:
            problems.append(f"{q.kind.replace('_', '-')} request was planned, not declined")
    row["problems"] = problems
    return row


def _mean(values: list[float]) -> float | None:
    return agg.mean(values) if values else None


def summarize_dev(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The suite's figures: headline metrics over English answerable questions, the rest beside them."""
    main = [r for r in rows if r["kind"] == "answer" and r["lang"] == "en"]
    other = [r for r in rows if r["kind"] == "answer" and r["lang"] != "en"]
    actions = [r for r in rows if r["kind"] == "action"]
    oos = [r for r in rows if r["kind"] == "out_of_scope"]
    chained = [r for r in main if "chain" in r["tags"]]
    importable = [r for r in main if not r["gold_not_imported"]]
    par = [sum(r["params"][i] for r in main) for i in (0, 1)]
    doc = [sum(r["document_required"][i] for r in main) for i in (0, 1)]
    with_write = [r for r in actions if r["named_write"] is not None]
    latencies = [r["latency_ms"] for r in rows]
    return {
        "answerable": len(main),
        "endpoint_set_exact": _mean([float(r["exact"]) for r in main]),
        "fields_found": _mean([r["field_recall"] for r in main if r["field_recall"] is not None]),
        "required_params_filled": par[0] / par[1] if par[1] else None,
        "required_params": par[1],
        "document_required_filled": doc[0] / doc[1] if doc[1] else None,
        "answerable_declined": _mean([float(r["declined"]) for r in main]),
        "chained": len(chained),
        "chained_exact": _mean([float(r["exact"]) for r in chained]),
        "gold_not_imported": len(main) - len(importable),
        "importable_exact": _mean([float(r["exact"]) for r in importable]),
        "actions": len(actions),
        "actions_declined": sum(r["declined"] for r in actions),
        "actions_with_write": len(with_write),
        "actions_naming_write": sum(bool(r["named_write"]) for r in with_write),
        "out_of_scope": len(oos),
        "out_of_scope_declined": sum(r["declined"] for r in oos),
        "other_language": len(other),
        "other_language_exact": sum(r["exact"] for r in other),
        "other_language_declined": sum(r["declined"] for r in other),
        "latency_p50_ms": agg.percentile(latencies, 50) if latencies else None,
        "latency_p95_ms": agg.percentile(latencies, 95) if latencies else None,
    }


def per_api(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Endpoint-set exactness and field recall per API (English answerable questions)."""
    out: dict[str, dict[str, Any]] = {}
    main = [r for r in rows if r["kind"] == "answer" and r["lang"] == "en"]
    for api in sorted({r["api"] for r in main}):
        sel = [r for r in main if r["api"] == api]
        out[api] = {
            "n": len(sel),
            "endpoint_set_exact": _mean([float(r["exact"]) for r in sel]),
            "fields_found": _mean([r["field_recall"] for r in sel if r["field_recall"] is not None]),
        }
    return out


def run_dev_suite(
    world: OpenWorld,
    questions: list[DevQuestion],
    routers: list[BenchRouter],
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Every router plans every dev-set question; per router: summary, per-API exactness, failures."""
    out: list[dict[str, Any]] = []
    for router in routers:
        _warm(router, [q.query for q in questions])
        rows = []
        for i, q in enumerate(questions):
            plan, ms = _timed(router, q.query)
            row = score_dev_question(world, q, plan)
            row["latency_ms"] = ms
            rows.append(row)
            if progress:
                progress(f"imported: {router.name}", i + 1, len(questions))
        out.append(
            {
                "name": router.name,
                "kind": router.kind,
                "summary": summarize_dev(rows),
                "per_api": per_api(rows),
                "failures": [
                    {
                        "id": r["id"],
                        "query": next(q.query for q in questions if q.id == r["id"]),
                        "plan": r["plan"],
                        "problems": r["problems"],
                    }
                    for r in rows
                    if r["problems"]
                ],
                "queries": rows,
            }
        )
    kinds = {k: sum(q.kind == k for q in questions) for k in ("answer", "action", "out_of_scope")}
    return {
        "questions": len(questions),
        "kinds": kinds,
        "apis": sorted({q.api for q in questions if q.api}),
        "routers": out,
    }


# -- RestBench TMDB -------------------------------------------------------------------------------------
def plan_calls(world: OpenWorld, plan: Plan) -> list[str]:
    """The plan's steps as ``"METHOD /path"`` (steps on other sources as ``source.endpoint``)."""
    return [world.calls.get((s.source, s.endpoint), f"{s.source}.{s.endpoint}") for s in plan.steps]


def run_tmdb_suite(
    world: OpenWorld, queries: list[TmdbQuery], routers: list[BenchRouter], progress: Progress | None = None
) -> dict[str, Any]:
    """Every router plans every RestBench query; chains scored against the gold call lists."""
    imported = {normalize_call(c) for (sid, _e), c in world.calls.items() if sid == TMDB_SOURCE}
    out: list[dict[str, Any]] = []
    for router in routers:
        _warm(router, [q.query for q in queries])
        rows: list[dict[str, Any]] = []
        for i, q in enumerate(queries):
            plan, ms = _timed(router, q.query)
            s = score_chain(plan_calls(world, plan), q)
            missing = [c for c in s.gold_calls if c not in imported]
            rows.append(
                {
                    "id": q.id,
                    "query": q.query,
                    "plan": s.plan_calls,
                    "gold": s.gold_calls,
                    "found": s.found,
                    "exact": s.exact,
                    "first": s.first,
                    "no_plan": s.no_plan,
                    "gold_not_imported": missing,
                    "decline_reason": plan.declined,
                    "latency_ms": ms,
                }
            )
            if progress:
                progress(f"tmdb: {router.name}", i + 1, len(queries))
        latencies = [r["latency_ms"] for r in rows]
        out.append(
            {
                "name": router.name,
                "kind": router.kind,
                "summary": {
                    "queries": len(rows),
                    "endpoints_found": _mean([r["found"] for r in rows]),
                    "chain_exact": _mean([float(r["exact"]) for r in rows]),
                    "first_correct": _mean([float(r["first"]) for r in rows]),
                    "no_plan": sum(r["no_plan"] for r in rows),
                    "gold_not_imported": sum(bool(r["gold_not_imported"]) for r in rows),
                    "latency_p50_ms": agg.percentile(latencies, 50) if latencies else None,
                },
                "failures": [
                    {
                        "id": r["id"],
                        "query": r["query"],
                        "plan": r["plan"],
                        "gold": r["gold"],
                        **({"declined": r["decline_reason"]} if r["no_plan"] else {}),
                    }
                    for r in rows
                    if not r["exact"]
                ],
                "queries": rows,
            }
        )
    return {"queries": len(queries), "routers": out}


# -- both suites ---------------------------------------------------------------------------------------
SUITES = ("imported", "tmdb")


def run_open_world(
    base: Frozen,
    suites: set[str],
    quick: bool = False,
    progress: Progress | None = None,
    say: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Import the open-world sources beside ``base`` and run the chosen suites (``imported``, ``tmdb``)."""
    from schemarouter_bench.devset import load_dev_questions, load_tmdb_queries
    from schemarouter_bench.openworld import build_open_world

    say = say or (lambda _m: None)
    say("importing the open-world sources (dev-set APIs and TMDB, minimal overlays)")
    world = build_open_world(base)
    check_gold(world, load_dev_questions())
    routers = open_routers(world)
    doc: dict[str, Any] = {"registry": registry_facts(world)}
    if "imported" in suites:
        questions = load_dev_questions()
        if quick:
            questions = quick_dev_subset(questions)
        say("running the imported-sources suite")
        doc["imported"] = run_dev_suite(world, questions, routers, progress)
    if "tmdb" in suites:
        queries = load_tmdb_queries()
        if quick:
            queries = queries[:QUICK_TMDB]
        say("running RestBench TMDB")
        doc["tmdb"] = run_tmdb_suite(world, queries, routers, progress)
    return doc


def registry_facts(world: OpenWorld) -> dict[str, Any]:
    """What the open-world registry holds, and what the importer made of each document."""
    frozen = world.frozen
    return {
        "origin": frozen.origin,
        "fingerprint": frozen.fingerprint,
        "sources": len(frozen.decls.sources),
        "endpoints": sum(len(s.endpoints) for s in frozen.decls.sources.values()),
        "imported": {
            sid: {
                "endpoints": item.result.report.endpoints,
                "operations": item.result.report.operations,
                "fields": item.result.report.fields,
                "not_mapped": len(item.result.report.unmapped),
            }
            for sid, item in sorted(world.imported.items())
        },
    }


def check_gold(world: OpenWorld, questions: list[DevQuestion]) -> None:
    """Every gold step names an operation of its document, with the registry's endpoint id and fields
    where the endpoint is imported; a write an action names exists in its document."""
    for q in questions:
        for option in q.gold_sets:
            for step in option:
                if step.source not in world.imported:
                    raise DatasetError(
                        f"{q.id}: gold source {step.source!r} is not an imported dev-set source"
                    )
                if step.call not in world.spec(step.source):
                    raise DatasetError(f"{q.id}: {step.source} has no operation {step.call!r}")
                call = world.calls.get((step.source, step.endpoint))
                if call is not None and call != step.call:
                    raise DatasetError(
                        f"{q.id}: {step.source}.{step.endpoint} is {call!r}, gold says {step.call!r}"
                    )
                if call is not None:
                    names = world.frozen.graph.endpoints[(step.source, step.endpoint)].fields
                    unknown = [f for f in step.fields if f not in names]
                    if unknown:
                        raise DatasetError(
                            f"{q.id}: {step.source}.{step.endpoint} has no field {unknown[0]!r}"
                        )
        if (
            q.write_endpoint
            and q.write_source is not None
            and (q.write_source not in world.imported or q.write_endpoint not in world.spec(q.write_source))
        ):
            raise DatasetError(f"{q.id}: {q.write_source} has no operation {q.write_endpoint!r}")
