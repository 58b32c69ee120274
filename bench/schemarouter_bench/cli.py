"""``schemarouter bench``: the paper's evaluation plus measured scaling, reproducible with one command.

Every router plans the query set over one frozen registry export; the run prints a table, and
optionally writes the JSON document (``--json``), the Markdown report (``--report``) and PNG
plots (``--plots-dir``). LLM rows run only when an OpenAI-compatible endpoint is given.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table


def _sizes(value: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part.replace("_", "")) for part in value.split(",") if part.strip())
    except ValueError:
        raise click.BadParameter(f"expected comma-separated integers, got {value!r}") from None
    if any(n < 1 for n in sizes):
        raise click.BadParameter("sizes must be positive")
    return sizes


@click.command("bench")
@click.option(
    "--queries",
    "queries_file",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Query JSONL with gold plans (default: the shipped dev.jsonl).",
)
@click.option(
    "--registry-export",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    metavar="FILE",
    help="Plan over this registry export instead of the installed plugins.",
)
@click.option(
    "--registry-from",
    "registry_origin",
    type=click.Choice(["auto", "plugins", "inventory"]),
    default="auto",
    show_default=True,
    help="Where the frozen registry comes from when no export is given.",
)
@click.option(
    "--quick", is_flag=True, help="One query per category, no scaling, no embedding model: seconds."
)
@click.option(
    "--scaling/--no-scaling",
    default=None,
    help="Measure scaling on synthetic inventories (default: on, off with --quick).",
)
@click.option("--sizes", default="100,1000,10000", show_default=True, help="Inventory sizes for --scaling.")
@click.option("--json", "as_json", is_flag=True, help="Print the whole result document as JSON.")
@click.option(
    "--report",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Write the Markdown report here (e.g. docs/benchmark.md).",
)
@click.option(
    "--plots-dir",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Write PNG plots here (e.g. docs/img).",
)
@click.option(
    "--llm-url",
    "llm_base_url",
    envvar="SCHEMAROUTER_LLM_URL",
    metavar="URL",
    help="OpenAI-compatible endpoint for the LLM rows and reader accuracy.",
)
@click.option(
    "--llm-model", envvar="SCHEMAROUTER_LLM_MODEL", metavar="NAME", help="Model name at that endpoint."
)
@click.option(
    "--embeddings/--no-embeddings", default=True, help="Run the MiniLM vector-only row when installed."
)
@click.option(
    "--postgres-url",
    envvar="SCHEMAROUTER_BENCH_POSTGRES_URL",
    metavar="URL",
    help="Postgres server (any database) where scaling creates and drops its own database.",
)
@click.option(
    "--load/--no-load",
    default=None,
    help="Measure the HTTP service under load (default: on, off with --quick or --router).",
)
@click.option("--router", "routers", multiple=True, metavar="NAME", help="Run only this router (repeatable).")
@click.option(
    "--suite",
    "suites",
    multiple=True,
    type=click.Choice(["all", "dev", "imported", "tmdb", "mcp"]),
    help="Run only this suite (repeatable; default all): dev = the first-party queries, routers and "
    "scaling; imported = the imported-sources dev set; tmdb = RestBench TMDB; mcp = MCP tool results "
    "against projected context.",
)
@click.option(
    "--import-corpus",
    "import_corpus",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    metavar="DIR",
    help="Instead: measure source import-openapi on a corpus of OpenAPI documents (make corpus fetches one).",
)
@click.option(
    "--fleet",
    is_flag=True,
    help="Instead: one serve process against four over one Postgres registry and Redis (plans/s, start-up, "
    "shared cache, change pickup; minutes). With --report, writes only that section.",
)
@click.option(
    "--fleet-sources",
    type=click.IntRange(min=1),
    default=10000,
    show_default=True,
    help="Synthetic sources in the --fleet registry.",
)
@click.option(
    "--redis-url",
    envvar="SCHEMAROUTER_BENCH_REDIS_URL",
    default="redis://127.0.0.1:6379",
    show_default=True,
    metavar="URL",
    help="Redis server where --fleet claims an empty database number (its keys are deleted afterwards).",
)
def bench(
    queries_file: Path | None,
    registry_export: Path | None,
    registry_origin: str,
    quick: bool,
    scaling: bool | None,
    sizes: str,
    as_json: bool,
    report: Path | None,
    plots_dir: Path | None,
    llm_base_url: str | None,
    llm_model: str | None,
    embeddings: bool,
    postgres_url: str | None,
    load: bool | None,
    routers: tuple[str, ...],
    suites: tuple[str, ...],
    import_corpus: Path | None,
    fleet: bool,
    fleet_sources: int,
    redis_url: str,
) -> None:
    """Benchmark schemarouter against baselines and ablations on a query set with gold plans.

    \b
    Examples:
      schemarouter bench --quick
      schemarouter bench --report docs/benchmark.md --plots-dir docs/img
      schemarouter bench --queries my_queries.jsonl --no-scaling --json
      schemarouter bench --suite imported --suite tmdb --json
      schemarouter bench --fleet --report docs/benchmark.md
    """
    if fleet:
        _fleet(queries_file, registry_export, registry_origin, fleet_sources, postgres_url, redis_url, report,
               as_json)
        return
    if import_corpus is not None:
        from schemarouter_bench.import_corpus import run_command

        run_command(import_corpus, report, as_json)
        return
    from schemarouter.llm import LLMConfig
    from schemarouter_bench import plots as plotting
    from schemarouter_bench import report as reporting
    from schemarouter_bench.session import SUITES, Options, run

    options = Options(
        queries_file=queries_file,
        registry_export=registry_export,
        registry_origin=registry_origin,
        quick=quick,
        scaling=(not quick) if scaling is None else scaling,
        sizes=_sizes(sizes),
        llm=LLMConfig.from_env(base_url=llm_base_url, model=llm_model) if llm_base_url else None,
        embeddings=embeddings,
        postgres_url=postgres_url,
        command=_command_line(),
        routers=list(routers),
        suites=SUITES if not suites or "all" in suites else tuple(s for s in SUITES if s in suites),
        load=(not quick and not routers) if load is None else load,
    )
    err = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,  # silent when piped or captured
    ) as bar:
        tasks: dict[str, Any] = {}

        def progress(name: str, done: int, total: int) -> None:
            if name not in tasks:
                tasks[name] = bar.add_task(name, total=total)
            bar.update(tasks[name], completed=done)

        def status(message: str) -> None:
            if not as_json:
                bar.console.print(f"[dim]{message}[/]")

        doc = run(options, progress, status)
    written: list[Path] = []
    if plots_dir is not None:
        reason = plotting.available()
        if reason:
            err.print(f"[yellow]plots skipped: {reason}[/]")
        else:
            written = plotting.draw_all(doc, plots_dir)
    if report is not None:
        reporting.write(doc, report, written)
    if as_json:
        click.echo(json.dumps(doc, indent=2, default=str))
        return
    out = Console()
    print_tables(doc, out if out.is_terminal else Console(width=160))
    for p in [*written, *([report] if report else [])]:
        err.print(f"wrote {p}")


def _fleet(
    queries_file: Path | None,
    registry_export: Path | None,
    registry_origin: str,
    sources: int,
    postgres_url: str | None,
    redis_url: str,
    report: Path | None,
    as_json: bool,
) -> None:
    """``--fleet``: measure one server against four, print the tables, and write only that report section."""
    import os

    from schemarouter_bench.dataset import load_queries
    from schemarouter_bench.fleet import run_fleet
    from schemarouter_bench.frozen import load_frozen
    from schemarouter_bench.report import write_fleet_section
    from schemarouter_bench.scaling import DEFAULT_PG_ADMIN_URL

    err = Console(stderr=True)
    frozen = load_frozen(registry_export, registry_origin)
    questions = [q.query for q in load_queries(queries_file)]
    pg = postgres_url or os.environ.get("SCHEMAROUTER_BENCH_POSTGRES_URL") or DEFAULT_PG_ADMIN_URL
    say = (lambda _m: None) if as_json else (lambda m: err.print(f"[dim]{m}[/]"))
    result = run_fleet(frozen.decls, questions, sources, pg, redis_url, say=say, command=_command_line())
    if report is not None:
        write_fleet_section(report, result)
    if as_json:
        click.echo(json.dumps(result, indent=2, default=str))
        return
    out = Console()
    print_fleet(result, out if out.is_terminal else Console(width=160))
    if report is not None:
        err.print(f"wrote the fleet section of {report}")


def print_fleet(fleet: dict[str, Any], console: Console) -> None:
    """The ``--fleet`` tables: one server against several, each server, the cache check and the targets."""
    from schemarouter_bench.report import FLEET, FLEET_SERVERS, fleet_server_rows, fmt

    many = fleet["throughput"][-1]
    t = Table(title=f"POST /v1/plan: 1 server vs {many['servers']} ({fleet['sources']:,} sources, "
                    f"{fleet['cpus']} CPU cores)")
    for _, label, _ in FLEET:
        t.add_column(label, justify="right")
    for row in fleet["throughput"]:
        t.add_row(*[fmt(row.get(k), d) for k, _, d in FLEET])
    console.print(t)
    console.print(f"{many['servers']} servers / 1 server: [bold]{fmt(fleet.get('ratio'), 2)}x[/] plans/s")
    st = Table(title="servers (start-up, graph source, registry change pickup)")
    for _, label, _ in FLEET_SERVERS:
        st.add_column(label, justify="right")
    for row in fleet_server_rows(fleet):
        st.add_row(*[fmt(row.get(k), d) for k, _, d in FLEET_SERVERS])
    console.print(st)
    cache = fleet["shared_cache"]
    seen = (f"second run's step cached: {fmt(cache['second']['cached'])}, stub requests: "
            f"{cache['first']['stub_requests']} then {cache['second']['stub_requests']}"
            if "second" in cache else cache.get("why", ""))
    console.print(f"shared response cache hit on server {cache['servers'][1]}: "
                  f"[bold]{fmt(cache.get('cache_hit'))}[/] ({seen})")
    tt = Table(title="fleet targets")
    for c in ("target", "limit", "measured", "met"):
        tt.add_column(c)
    for target in fleet["targets"]:
        tt.add_row(target["target"], target["limit"], fmt(target["measured"], 2),
                   {True: "yes", False: "[red]no[/]", None: "-"}[target["met"]])
    console.print(tt)


def _command_line() -> str:
    """How this run was started, for the report's "generated by" line."""
    args = sys.argv[sys.argv.index("bench") + 1 :] if "bench" in sys.argv else []
    return " ".join(["schemarouter", "bench", *(shlex.quote(a) for a in args)])


def print_open_world(open_world: dict[str, Any] | None, console: Console) -> None:
    """The imported-sources and RestBench TMDB rows, when those suites ran."""
    from schemarouter_bench.openreport import IMPORTED, TMDB, fmt_cell

    for key, columns, title in (
        ("imported", IMPORTED, "imported-sources dev set (minimal overlays)"),
        ("tmdb", TMDB, "RestBench TMDB (minimal overlay)"),
    ):
        suite = (open_world or {}).get(key)
        if not suite:
            continue
        t = Table(title=f"{title}: {suite['questions' if key == 'imported' else 'queries']} questions")
        t.add_column("router")
        for _k, label in columns:
            t.add_column(label, justify="right")
        for r in suite["routers"]:
            t.add_row(r["name"], *[fmt_cell(r["summary"], k) for k, _ in columns])
        console.print(t)


def print_tables(doc: dict[str, Any], console: Console) -> None:
    """Print the benchmark's tables (routers, open world, skipped rows, scaling) to the console."""
    from schemarouter_bench.report import fmt
    from schemarouter_bench.targets import check

    table = Table(title=f"schemarouter bench: {doc['meta']['queries']} queries, {doc['meta']['registry']}")
    for col in (
        "router",
        "tool-exact",
        "field R",
        "field F1",
        "over-fetch",
        "param acc",
        "metadata",
        "ctx tokens",
        "answerable",
        "prompt tok",
        "p50 ms",
    ):
        table.add_column(col, justify="left" if col == "router" else "right")
    for r in doc["routers"]:
        s = r["summary"]
        if r.get("skipped"):
            table.add_row(f"[dim]{r['name']} (skipped)[/]", *(["-"] * 8), fmt(s.get("prompt_tokens"), 0), "-")
            continue
        table.add_row(
            r["name"],
            fmt(s["tool_exact"]),
            fmt(s["field_recall"]),
            fmt(s["field_f1"]),
            fmt(s["over_fetch"]),
            fmt(s["param_accuracy"]),
            fmt(s["metadata_completeness"]),
            fmt(s["context_tokens"], 1),
            fmt(s["answerable"]),
            fmt(s["prompt_tokens"], 0),
            fmt(s["latency_p50_ms"], 2),
        )
    if doc["routers"]:
        console.print(table)
    print_open_world(doc.get("open_world"), console)
    for r in doc["routers"]:
        if r.get("skipped"):
            console.print(f"[dim]skipped {r['name']}: {r['skipped']}[/]")
    if doc.get("scaling"):
        st = Table(title="scaling (synthetic inventories)")
        cols = [
            ("sources", 0),
            ("fields", 0),
            ("sync_sqlite_s", 2),
            ("sync_postgres_s", 2),
            ("graph_build_s", 2),
            ("rss_peak_mb", 0),
            ("schemarouter_p50_ms", 2),
            ("bm25_p50_ms", 2),
            ("prompt_all_tokens", 0),
        ]
        for c, _ in cols:
            st.add_column(c, justify="right")
        for row in doc["scaling"]:
            st.add_row(*[fmt(row.get(c), d) for c, d in cols])
        console.print(st)
    if doc.get("load"):
        from schemarouter_bench.report import LOAD

        sources = doc["load"]["sources"]
        lt = Table(title=f"service load: POST /v1/plan, one server process ({sources} sources)")
        for _, label, _ in LOAD:
            lt.add_column(label, justify="right")
        for row in doc["load"]["levels"]:
            lt.add_row(*[fmt(row.get(k), d) for k, _, d in LOAD])
        console.print(lt)
        mcp = doc["load"]["mcp"]
        console.print(f"MCP tool definitions: {mcp['tokens']} tokens ({mcp['tools']} tools, cl100k_base)")
    tt = Table(title="targets")
    for c in ("target", "limit", "measured", "met"):
        tt.add_column(c)
    for t in check(doc):
        tt.add_row(
            t["target"],
            t["limit"],
            fmt(t["measured"]),
            {True: "yes", False: "[red]no[/]", None: "-"}[t["met"]],
        )
    console.print(tt)
    if doc["meta"].get("quick"):
        console.print("[dim]--quick: a handful of queries; numbers are a smoke test, not the benchmark[/]")
