"""A whole ``schemarouter bench`` run: routers, scaling, JSON document, report and plots."""

from __future__ import annotations

import datetime as dt
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schemarouter import __version__
from schemarouter.errors import SchemaRouterError
from schemarouter.llm import LLMConfig
from schemarouter_bench.dataset import Query, check_against, load_queries
from schemarouter_bench.frozen import Frozen, load_frozen
from schemarouter_bench.machine import cpu_model, reference_ms
from schemarouter_bench.routers.base import Skipped
from schemarouter_bench.runner import RouterResult, run_router, skipped_result

QUICK_PER_CATEGORY = 1
# "dev": the first-party query set (routers, ablations, scaling); "imported" and "tmdb": the
# open-world suites over real documents imported with minimal overlays.
SUITES = ("dev", "imported", "tmdb", "mcp")


@dataclass
class Options:
    """What one ``schemarouter bench`` run measures and where its inputs come from."""

    queries_file: Path | None = None
    registry_export: Path | None = None
    registry_origin: str = "auto"
    quick: bool = False
    scaling: bool = True
    sizes: tuple[int, ...] = (100, 1000, 10000)
    llm: LLMConfig | None = None
    embeddings: bool = True
    postgres_url: str | None = None
    command: str = "schemarouter bench"
    routers: list[str] = field(default_factory=list)  # empty: all
    suites: tuple[str, ...] = SUITES
    load: bool = True  # HTTP service load (schemarouter_bench.load), with the dev suite
    sql: bool = True  # database sources (schemarouter_bench.sqlbench), with the dev suite


def quick_subset(queries: list[Query]) -> list[Query]:
    """The first query of every category: a handful that still touches every code path."""
    seen: dict[str, int] = {}
    out = []
    for q in queries:
        if seen.get(q.category, 0) < QUICK_PER_CATEGORY:
            seen[q.category] = seen.get(q.category, 0) + 1
            out.append(q)
    return out


def run(
    options: Options,
    progress: Callable[[str, int, int], None] | None = None,
    status: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run the selected suites and return the benchmark document."""
    from schemarouter_bench.reader_eval import make_reader

    started = time.perf_counter()
    reference = reference_ms()  # before any work: the machine as the run found it
    say = status or (lambda _m: None)
    queries = load_queries(options.queries_file)
    if options.quick:
        queries = quick_subset(queries)
    say("freezing the registry")
    frozen = load_frozen(options.registry_export, options.registry_origin)
    check_against(queries, frozen.endpoints)
    reader = make_reader(options.llm, frozen.graph) if options.llm else None
    results: list[RouterResult] = []
    scaling: list[dict[str, Any]] = []
    if "dev" in options.suites:
        results = _dev_routers(options, queries, frozen, reader, progress, say)
        scaling = _scaling(options, frozen, progress, say)
    load: dict[str, Any] | None = None
    if options.load and "dev" in options.suites:
        from schemarouter_bench.load import run_load

        load = run_load(frozen, [q.query for q in load_queries(options.queries_file)], say=say)
    sql: dict[str, Any] | None = None
    if options.sql and "dev" in options.suites and not options.routers:
        from schemarouter_bench.scaling import DEFAULT_PG_ADMIN_URL
        from schemarouter_bench.sqlbench import run_sql_bench

        pg = options.postgres_url or os.environ.get("SCHEMAROUTER_BENCH_POSTGRES_URL") or DEFAULT_PG_ADMIN_URL
        sql = run_sql_bench(pg, options.quick, say)
    open_world: dict[str, Any] | None = None
    mcp_tokens: dict[str, Any] | None = None
    if "mcp" in options.suites and not options.quick:
        from schemarouter_bench.mcp_tokens import measure

        say("measuring MCP tool results against projected context")
        mcp_tokens = measure()
    open_suites = {s for s in options.suites if s not in ("dev", "mcp")}
    if open_suites:
        from schemarouter_bench.opensuite import run_open_world

        open_world = run_open_world(frozen, open_suites, options.quick, progress, say)
    cats = sorted({q.category for q in queries})
    return {
        "meta": {
            "command": options.command,
            "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "version": __version__,
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "cpu_model": cpu_model(),
            "reference_ms": reference,
            "implementation": f"{platform.python_implementation()} {platform.python_version()}",
            "queries": len(queries),
            "queries_file": str(options.queries_file or "dev.jsonl (shipped)"),
            "categories": ", ".join(f"{c} {sum(q.category == c for q in queries)}" for c in cats),
            "registry": frozen.origin,
            "fingerprint": frozen.fingerprint,
            "sources": len(frozen.decls.sources),
            "fields": frozen.n_fields,
            "quick": options.quick,
            "suites": list(options.suites),
            "llm_model": options.llm.model if options.llm else None,
            "scaling_questions": min(len(load_queries(options.queries_file)), 30) if scaling else None,
            "elapsed_s": time.perf_counter() - started,
        },
        "routers": [r.as_dict() for r in results],
        "scaling": scaling,
        "load": load,
        "sql": sql,
        **({"open_world": open_world} if open_world is not None else {}),
        **({"mcp_tokens": mcp_tokens} if mcp_tokens is not None else {}),
    }


def _dev_routers(
    options: Options,
    queries: list[Query],
    frozen: Frozen,
    reader: Callable[[Any, Query, str], bool] | None,
    progress: Callable[[str, int, int], None] | None,
    say: Callable[[str], None],
) -> list[RouterResult]:
    """Every router of the line-up on the first-party query set."""
    from schemarouter_bench.lineup import lineup

    results: list[RouterResult] = []
    off = (
        "left out by --quick"
        if options.quick
        else None
        if options.embeddings
        else "disabled (--no-embeddings)"
    )
    names: list[str] = []
    for router in lineup(frozen, options.llm, embeddings=off, only=set(options.routers) or None):
        names.append(router.name)
        if options.routers and router.name not in options.routers:
            continue
        if isinstance(router, Skipped):
            tokens = getattr(router, "prompt_tokens", None)
            results.append(skipped_result(router, queries, tokens))
            continue
        say(f"running {router.name}")
        results.append(run_router(router, queries, frozen, progress, reader))
    unknown = [n for n in options.routers if n not in names]
    if unknown:
        raise SchemaRouterError(f"unknown router {unknown[0]!r}; choose from: " + ", ".join(names))
    return results


def _scaling(
    options: Options,
    frozen: Frozen,
    progress: Callable[[str, int, int], None] | None,
    say: Callable[[str], None],
) -> list[dict[str, Any]]:
    if not (options.scaling and options.sizes):
        return []
    from schemarouter_bench.scaling import DEFAULT_PG_ADMIN_URL, run_scaling

    pg = options.postgres_url or os.environ.get("SCHEMAROUTER_BENCH_POSTGRES_URL") or DEFAULT_PG_ADMIN_URL
    bar = (lambda i, n: progress("scaling (synthetic inventories)", i, n)) if progress else None
    if progress:
        progress("scaling (synthetic inventories)", 0, len(options.sizes))
    return run_scaling(frozen.decls, load_queries(options.queries_file), options.sizes, pg, say, bar)
