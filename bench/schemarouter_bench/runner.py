"""One benchmark run: every router plans every query over the same frozen registry, then scores.

Per query and router: planning scores (:mod:`schemarouter_bench.metrics`), downstream context
and answerability (:mod:`schemarouter_bench.downstream`), routing latency and routing prompt
tokens. Per router: micro means overall and per category, latency percentiles and bootstrap
CIs for tool-exact, field recall and answerable rate.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from schemarouter.graph import SchemaGraph
from schemarouter.plan import Plan
from schemarouter.router.validate import validate_plan
from schemarouter_bench import aggregate as agg
from schemarouter_bench.dataset import Query
from schemarouter_bench.downstream import evaluate
from schemarouter_bench.frozen import Frozen
from schemarouter_bench.metrics import identifier_fields, score_query, summarize
from schemarouter_bench.routers.base import BenchRouter, Skipped

Progress = Callable[[str, int, int], None]  # router name, done, total


@dataclass
class RouterResult:
    """One router's summary, per-category metrics and per-query rows (or why it was skipped)."""

    name: str
    kind: str
    summary: dict[str, Any] = field(default_factory=dict)
    per_category: dict[str, dict[str, Any]] = field(default_factory=dict)
    queries: list[dict[str, Any]] = field(default_factory=list)
    skipped: str | None = None

    def as_dict(self, with_queries: bool = True) -> dict[str, Any]:
        """The result as the benchmark document stores it."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.skipped:
            out["skipped"] = self.skipped
        out["summary"] = self.summary
        out["per_category"] = self.per_category
        if with_queries:
            out["queries"] = self.queries
        return out


def _gold_row(q: Query) -> dict[str, Any]:
    return q.model_dump(mode="json")


def run_router(
    router: BenchRouter,
    queries: list[Query],
    frozen: Frozen,
    progress: Progress | None = None,
    reader: Callable[[Any, Query, str], bool] | None = None,
) -> RouterResult:
    """Plan every query with one router, timing each plan, and score planning and downstream."""
    graph = frozen.graph
    identifiers = identifier_fields(graph)
    entities = getattr(router, "entities", None)
    if entities is not None:  # baselines borrow schemarouter's entity extraction; not their latency
        entities.warm([q.query for q in queries])
    router.plan(queries[0].query)  # warm-up: caches and lazy imports are not routing latency
    result = RouterResult(router.name, router.kind)
    scores = []
    for i, q in enumerate(queries):
        t0 = time.perf_counter()
        plan = router.plan(q.query)
        latency_ms = (time.perf_counter() - t0) * 1000
        plan.id = q.id
        score = score_query(plan, _gold_row(q), graph, identifiers)
        score.executable = executable(plan, graph, q.negative)
        down = evaluate(plan, q, graph)
        row: dict[str, Any] = {
            "id": q.id,
            "category": q.category,
            "negative": q.negative,
            "sources": [f"{s.source}.{s.endpoint}" for s in plan.steps],
            "declined": plan.declined,
            "fields": sum(len(s.fields) for s in plan.steps),
            "tool_exact": score.tool_exact,
            "field_precision": score.field_p,
            "field_recall": score.field_r,
            "executable": score.executable,
            "context_tokens": down.tokens,
            "context_tokens_est": down.estimated_tokens,
            "answerable": down.answerable,
            "units_shown": down.units_shown,
            "latency_ms": latency_ms,
            "prompt_tokens": plan.prompt_tokens
            if plan.prompt_tokens is not None
            else router.prompt_tokens(q.query),
        }
        if reader is not None:
            row["reader_correct"] = reader(plan, q, down.context)
        result.queries.append(row)
        scores.append(score)
        if progress:
            progress(router.name, i + 1, len(queries))
    result.summary = summarize_rows(result.queries, scores)
    result.per_category = {
        cat: summarize_rows(
            [r for r in result.queries if r["category"] == cat],
            [s for s in scores if s.category == cat],
            with_ci=False,
        )
        for cat in sorted({q.category for q in queries})
    }
    return result


def executable(plan: Plan, graph: SchemaGraph, negative: bool = False) -> bool:
    """Whether the plan can run: valid steps, declared fields, typed and required parameters.

    Field metadata is a separate metric (metadata completeness): a baseline plan without units
    or licenses still executes, so metadata problems do not count here. A declined plan is
    executable for a negative question (as in metrics.score_query).
    """
    problems = [
        p for p in validate_plan(plan, graph) if not p.startswith("stale plan") and "metadata" not in p
    ]
    return (negative or bool(plan.steps)) and not problems


def summarize_rows(rows: list[dict[str, Any]], scores: list[Any], with_ci: bool = True) -> dict[str, Any]:
    """Planning metrics (metrics.summarize) plus downstream means, latency percentiles and CIs."""
    planning = {k: v for k, v in summarize(scores).items() if k != "queries"}
    latencies = [r["latency_ms"] for r in rows]
    out: dict[str, Any] = {
        **planning,
        "context_tokens": agg.mean([r["context_tokens"] for r in rows]),
        "context_tokens_est": agg.mean([r["context_tokens_est"] for r in rows]),
        "answerable": agg.rate([r["answerable"] for r in rows]),
        "units_shown": _rate_known([r.get("units_shown") for r in rows]),
        "latency_p50_ms": agg.percentile(latencies, 50),
        "latency_p95_ms": agg.percentile(latencies, 95),
        "prompt_tokens": agg.mean([r["prompt_tokens"] for r in rows]),
    }
    if rows and "reader_correct" in rows[0]:
        out["reader_accuracy"] = agg.rate([r["reader_correct"] for r in rows])
    if with_ci:
        out["ci"] = confidence_intervals(rows)
    return out


def _rate_known(flags: list[bool | None]) -> float | None:
    known = [f for f in flags if f is not None]
    return agg.rate(known) if known else None


def confidence_intervals(rows: list[dict[str, Any]]) -> dict[str, tuple[float, float]]:
    """Bootstrap intervals for tool-exact, field recall and answerable."""
    # Field recall is defined on answerable (non-negative) questions only, so resample those.
    positives = [r for r in rows if not r["negative"]]
    return {
        "tool_exact": agg.bootstrap_ci(rows, lambda s: agg.rate([r["tool_exact"] for r in s])),
        "field_recall": agg.bootstrap_ci(positives, lambda s: agg.mean([r["field_recall"] for r in s])),
        "answerable": agg.bootstrap_ci(rows, lambda s: agg.rate([r["answerable"] for r in s])),
    }


def skipped_result(
    s: Skipped, queries: list[Query], prompt_tokens: Callable[[str], int] | None = None
) -> RouterResult:
    """The result of a router that could not run, with its prompt tokens when they are known."""
    result = RouterResult(s.name, s.kind, skipped=s.reason)
    if prompt_tokens is not None:
        result.summary["prompt_tokens"] = agg.mean([prompt_tokens(q.query) for q in queries])
    return result
