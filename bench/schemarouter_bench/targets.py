"""The targets the report checks: speed and size, and routing on sources nobody tuned for.

Reported, never asserted in tests.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple


def check(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per target: what, the limit, the measured value and whether it is met (None: not measured)."""
    rows: list[dict[str, Any]] = []
    scale = {r["sources"]: r for r in doc.get("scaling") or []}
    big = scale.get(10000)

    def add(what: str, limit: str, value: float | str | None, ok: bool | None) -> None:
        rows.append({"target": what, "limit": limit, "measured": value, "met": ok})

    def num(key: str) -> float | None:
        v = big.get(key) if big else None
        return v if isinstance(v, (int, float)) else None

    p50 = num("schemarouter_p50_ms")
    add("routing p50 at 10,000 sources", "<= 5 ms", p50, None if p50 is None else p50 <= 5)
    sync = num("sync_sqlite_s")
    add("registry sync at 10,000 sources (SQLite)", "<= 30 s", sync, None if sync is None else sync <= 30)
    build = num("graph_build_s")
    add("graph build at 10,000 sources", "<= 2 s", build, None if build is None else build <= 2)
    rss = num("rss_peak_mb")
    add("router process peak RSS at 10,000 sources", "<= 300 MB", rss, None if rss is None else rss <= 300)
    # with the dense index (where schemarouter-embeddings is installed): the retrieval targets' speed
    dense_p50 = num("dense_p50_ms")
    if dense_p50 is not None:
        add("routing p50 at 10,000 sources, dense on", "<= 10 ms", dense_p50, dense_p50 <= 10)
        # the dense process's own read and build (with dense on the registry is read whole) and embedding
        both = (num("dense_graph_build_s") or build or 0.0) + (num("dense_build_s") or 0.0)
        add("graph and dense vectors build at 10,000 sources", "<= 5 s", both, both <= 5)
        peak = num("rss_dense_peak_mb")
        add("router process peak RSS at 10,000 sources, dense on", "<= 600 MB", peak,
            None if peak is None else peak <= 600)
    kept = num("rss_graph_mb")
    add("memory the built graph keeps at 10,000 sources", "<= 300 MB", kept, None if kept is None else kept <= 300)
    at8 = next((r for r in (doc.get("load") or {}).get("levels", []) if r["clients"] == 8), None)
    rate = at8["plans_per_s"] if at8 else None
    add("plans/s of one server process at 19 sources, 8 clients", ">= 1,000", rate,
        None if rate is None else rate >= 1000)
    p99 = at8["p99_ms"] if at8 else None
    add("POST /v1/plan p99 at 8 clients", "<= 20 ms", p99, None if p99 is None else p99 <= 20)
    routers = {r["name"]: r for r in doc["routers"]}
    sr = routers.get("schemarouter (recall)", {}).get("summary", {})
    fa = routers.get("fetch-all", {}).get("summary", {})
    tokens = sr.get("context_tokens")
    add(
        "retrieved-context tokens on the query set (mean)",
        "<= 250",
        tokens,
        None if tokens is None else tokens <= 250,
    )
    if tokens is not None and fa.get("context_tokens"):
        ratio = tokens / fa["context_tokens"]
        add("retrieved-context tokens vs fetch-all", "<= 1/8 (0.125)", ratio, ratio <= 0.125)
    rows += open_world_targets(doc.get("open_world") or {})
    return rows


OPEN_ROUTER = "schemarouter (recall)"
DENSE_ROUTER = "schemarouter (recall, dense on)"  # the same router reading the dense index too (opensuite)


class OpenTarget(NamedTuple):
    """One target over an open-world suite: the figure ``key`` of ``router``'s summary, tested by ``ok``."""

    suite: str
    key: str
    what: str
    limit: str
    ok: Callable[[float], bool]
    router: str = OPEN_ROUTER


OPEN_TARGETS: list[OpenTarget] = [
    OpenTarget("imported", "endpoint_set_exact", "imported sources: endpoint set exact", ">= 0.60", lambda v: v >= 0.60),
    OpenTarget("imported", "fields_found", "imported sources: gold fields found", ">= 0.70", lambda v: v >= 0.70),
    OpenTarget("imported", "required_params_filled", "imported sources: required params filled from the question",
               ">= 0.60", lambda v: v >= 0.60),
    OpenTarget("imported", "answerable_declined", "imported sources: answerable questions declined", "<= 0.05",
               lambda v: v <= 0.05),
    OpenTarget("imported", "actions_declined", "imported sources: action requests declined (of 12)", ">= 10",
               lambda v: v >= 10),
    OpenTarget("tmdb", "endpoints_found", "RestBench TMDB: gold endpoints found", ">= 0.60", lambda v: v >= 0.60),
    OpenTarget("tmdb", "chain_exact", "RestBench TMDB: whole chain exact", ">= 0.30", lambda v: v >= 0.30),
    OpenTarget("tmdb", "latency_p50_ms", "routing p50, first-party sources plus imported documents (TMDB queries)",
               "<= 1 ms", lambda v: v <= 1.0),
    OpenTarget("tmdb", "latency_p50_ms", "routing p50, first-party sources plus imported documents (TMDB queries), dense on",
               "<= 3 ms", lambda v: v <= 3.0, DENSE_ROUTER),
]


def open_world_targets(open_world: dict[str, Any]) -> list[dict[str, Any]]:
    """Target rows for the open-world suites that ran (schemarouter's recall-mode figures)."""
    rows: list[dict[str, Any]] = []
    for t in OPEN_TARGETS:
        if t.suite not in open_world:
            continue
        found = next((r["summary"] for r in open_world[t.suite]["routers"] if r["name"] == t.router), None)
        if found is None and t.router != OPEN_ROUTER:
            continue  # the dense row runs only where the embedding model is installed
        value = (found or {}).get(t.key)
        rows.append({"target": t.what, "limit": t.limit, "measured": value,
                     "met": None if value is None else t.ok(value)})
    return rows
