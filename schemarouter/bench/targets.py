"""The performance targets the report checks (issue 5); reported, never asserted in tests."""

from __future__ import annotations

from typing import Any


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
    kept = num("rss_graph_mb")
    add("memory the built graph keeps at 10,000 sources", "<= 300 MB", kept, None if kept is None else kept <= 300)
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
    return rows
