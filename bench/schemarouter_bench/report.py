"""The Markdown report (``docs/benchmark.md``): every number comes from the run that wrote it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from schemarouter_bench.sqlbench import sql_section
from schemarouter_bench.targets import check

PLANNING = [
    ("tool_exact", "tool-exact"),
    ("tool_f1", "tool F1"),
    ("field_precision", "field P"),
    ("field_recall", "field R"),
    ("field_f1", "field F1"),
    ("param_validity", "param valid"),
    ("param_accuracy", "param acc"),
    ("executable", "executable"),
    ("over_fetch", "over-fetch"),
    ("metadata_completeness", "metadata"),
]


def fmt(value: Any, digits: int = 3) -> str:
    """A table cell for a value: ``-`` for none, yes/no, thousands separators, fixed digits."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def ci(summary: dict[str, Any], key: str) -> str:
    """A metric with its bootstrap interval, when the summary has one."""
    lo_hi = (summary.get("ci") or {}).get(key)
    return f"{fmt(summary.get(key))} [{lo_hi[0]:.2f}, {lo_hi[1]:.2f}]" if lo_hi else fmt(summary.get(key))


def md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A Markdown table."""
    return [
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *["| " + " | ".join(r) + " |" for r in rows],
    ]


def planning_rows(routers: list[dict[str, Any]]) -> list[list[str]]:
    """The planning table's rows, one per router."""
    rows = []
    for r in routers:
        s = r["summary"]
        if r.get("skipped"):
            rows.append([r["name"], *(["-"] * (len(PLANNING) + 1))])
            continue
        cells = [ci(s, k) if k in ("tool_exact", "field_recall") else fmt(s.get(k)) for k, _ in PLANNING]
        rows.append([r["name"], *cells, f"{s.get('negatives_declined', 0)}/{s.get('negatives', 0)}"])
    return rows


def downstream_rows(routers: list[dict[str, Any]], reader: bool) -> list[list[str]]:
    """The downstream table's rows, one per router (with the reader column when it ran)."""
    rows = []
    for r in routers:
        s = r["summary"]
        prompt = fmt(s.get("prompt_tokens"), 0)
        if r.get("skipped"):
            rows.append(
                [r["name"], "-", "-", "-", "-", prompt, "-", "-", *(["-"] if reader else []), r["skipped"]]
            )
            continue
        rows.append(
            [
                r["name"],
                fmt(s["context_tokens"], 1),
                fmt(s["context_tokens_est"], 1),
                ci(s, "answerable"),
                fmt(s.get("units_shown")),
                prompt,
                fmt(s["latency_p50_ms"], 3),
                fmt(s["latency_p95_ms"], 3),
                *([fmt(s.get("reader_accuracy"))] if reader else []),
                "",
            ]
        )
    return rows


def category_rows(routers: list[dict[str, Any]], metric: str) -> tuple[list[str], list[list[str]]]:
    """The header and rows of a per-category table for one metric."""
    ran = [r for r in routers if not r.get("skipped")]
    cats = sorted({c for r in ran for c in r["per_category"]})
    header = ["category", "n", *[r["name"] for r in ran]]
    rows = []
    for c in cats:
        n = next((r["per_category"][c]["n"] for r in ran if c in r["per_category"]), 0)
        rows.append([c, str(n), *[fmt(r["per_category"].get(c, {}).get(metric)) for r in ran]])
    return header, rows


SCALING = [
    ("sources", "sources"),
    ("endpoints", "endpoints"),
    ("fields", "fields"),
    ("sync_sqlite_s", "sync SQLite (s)"),
    ("sync_postgres_s", "sync Postgres (s)"),
    ("registry_load_s", "registry load (s)"),
    ("graph_build_s", "graph build (s)"),
    ("cache_write_s", "graph cache write (s)"),
    ("warm_load_s", "warm load: graph cache hit (s)"),
    ("rss_peak_mb", "peak RSS (MB)"),
    ("rss_warm_peak_mb", "warm peak RSS (MB)"),
    ("rss_graph_mb", "graph RSS (MB)"),
    ("schemarouter_p50_ms", "schemarouter p50 (ms)"),
    ("schemarouter_p95_ms", "schemarouter p95 (ms)"),
    ("schemarouter_p99_ms", "schemarouter p99 (ms)"),
    ("dense_graph_build_s", "graph build, dense on (s)"),
    ("dense_build_s", "dense vectors build (s)"),
    ("dense_p50_ms", "schemarouter p50, dense on (ms)"),
    ("dense_p95_ms", "schemarouter p95, dense on (ms)"),
    ("rss_dense_peak_mb", "peak RSS, dense on (MB)"),
    ("bm25_p50_ms", "BM25 p50 (ms)"),
    ("bm25_p95_ms", "BM25 p95 (ms)"),
    ("bm25_p99_ms", "BM25 p99 (ms)"),
    ("prompt_all_tokens", "prompt-all prompt tokens"),
    ("schemarouter_llm_prompt_tokens", "schemarouter LLM prompt tokens"),
]


# Figures the paper reports for its own 19-tool inventory and LLM setup, shown beside
# this run's measurements for orientation; the setups differ (see the report text).
PAPER = [
    ("tool-exact, schemarouter", "0.93", ("schemarouter (recall)", "tool_exact")),
    ("field F1, schemarouter (recall point)", "0.59", ("schemarouter (recall)", "field_f1")),
    ("over-fetch, recall point", "0.46", ("schemarouter (recall)", "over_fetch")),
    ("over-fetch, minimal point", "0.16", ("schemarouter (minimal)", "over_fetch")),
    ("over-fetch, no field projection", "0.73", ("ablation: no field projection", "over_fetch")),
    ("retrieved-context tokens, schemarouter", "227", ("schemarouter (recall)", "context_tokens")),
    ("retrieved-context tokens, fetch-all", "2,066", ("fetch-all", "context_tokens")),
    ("routing prompt tokens, LLM understander", "~360", ("schemarouter (LLM understander)", "prompt_tokens")),
    ("routing prompt tokens, prompt-all (19 tools)", "~1,260", ("prompt-all", "prompt_tokens")),
]


def paper_rows(routers: list[dict[str, Any]]) -> list[list[str]]:
    """The rows comparing the paper's reported numbers with this run's."""
    by_name = {r["name"]: r["summary"] for r in routers}
    return [
        [what, paper, fmt(by_name.get(name, {}).get(key), 0 if "tokens" in key else 3)]
        for what, paper, (name, key) in PAPER
    ]


def machine_line(meta: dict[str, Any]) -> str:
    """The machine's speed beside the speed figures (see :mod:`schemarouter_bench.machine`)."""
    return (
        f"- Machine: {meta.get('cpu_model') or 'unknown'}; the reference workload (`bench/schemarouter_bench/machine.py`, "
        f"fixed pure-Python dict, set and string work) took {meta['reference_ms']:.2f} ms. Times scale with it: "
        "compare speed figures of two runs together with their reference times."
        + f" Routing code: pure Python ({meta.get('implementation') or 'CPython'})."
    )


def render(doc: dict[str, Any], path: Path, plots: list[Path]) -> str:
    """The whole Markdown report for a benchmark document."""
    meta = doc["meta"]
    routers = doc["routers"]
    out = [
        "# Benchmark",
        "",
        (
            f"Generated by `{meta['command']}` on {meta['date']} (schemarouter {meta['version']}, "
            f"{meta['cpus']} CPU cores, Python {meta['python']}). Do not edit by hand: rerun `make bench`."
        ),
        "",
        *(
            [
                f"- Queries: {meta['queries']} from `{meta['queries_file']}` ({meta['categories']}).",
                (
                    f"- Registry: {meta['registry']} - {meta['sources']} sources, {meta['fields']} response "
                    f"fields, fingerprint `{(meta.get('fingerprint') or '-')[:23]}...`; every router plans over "
                    "this one frozen export."
                ),
            ]
            if routers
            else []
        ),
        f"- Run time: {meta['elapsed_s']:.0f} s in total.",
        *([machine_line(meta)] if meta.get("reference_ms") else []),
        "",
        "## Reproduce",
        "",
        (
            "`make bench` (this whole page, the plots and the scaling run; LLM rows need "
            "`SCHEMAROUTER_LLM_URL` and `SCHEMAROUTER_LLM_MODEL`). Your own questions: `schemarouter bench "
            "--queries FILE.jsonl` with one JSON object per line in the format of the shipped `dev.jsonl` "
            "(`id`, `category`, `query`, `gold` steps of `source`, `endpoint`, `params`, `fields`; `gold: []` for "
            "a question no source can answer; optional `alternatives` and `units`). `--quick` is a seconds-long "
            "smoke run; `--json` prints every number, per query too; `--suite dev|imported|tmdb` runs one suite. "
            "`schemarouter bench --fleet --report docs/benchmark.md` measures several servers over one registry "
            "(one against four `serve` processes on a Postgres registry of 10,000 synthetic sources and a Redis; "
            "`--fleet-sources N`, `--postgres-url`, `--redis-url`; minutes) and rewrites only its section."
        ),
        "",
        (
            "The benchmark ships apart from the runtime wheel, so an installed router carries neither its code "
            "nor its gold answers: the code, the gold queries (`dev.jsonl`, the open-world suites) and the frozen "
            "19-source inventory are the distribution `schemarouter-bench` (`bench/` in the repository), which "
            "adds `schemarouter bench` as a plugin. `make setup` installs it."
        ),
        "",
    ]
    if routers:
        out += _dev_sections(doc, path, plots)
    from schemarouter_bench.openreport import open_world_sections  # it uses this module's helpers

    out += open_world_sections(doc.get("open_world"))
    from schemarouter_bench.mcp_tokens import section as mcp_section

    out += mcp_section(doc.get("mcp_tokens"))
    if routers:
        out += [
            "## Beside the paper",
            "",
            (
                "The paper's figures are for its own inventory, queries and LLM setup (context tokens there come "
                "from the reader call's usage; its prompt-all schema segment is 5,042 characters, ours also "
                "carries every source and endpoint description). Read them as orientation, not as a like-for-like "
                "comparison."
            ),
            "",
            *md_table(["figure", "paper", "this run"], paper_rows(routers)),
            "",
        ]
    out += [
        "## Targets",
        "",
        *md_table(
            ["target", "limit", "measured", "met"],
            [
                [
                    t["target"],
                    t["limit"],
                    fmt(t["measured"]),
                    {True: "yes", False: "**no**", None: "not measured"}[t["met"]],
                ]
                for t in check(doc)
            ],
        ),
        "",
    ]
    skipped = [r for r in routers if r.get("skipped")]
    if skipped:
        out += ["## Not run here", "", *[f"- {r['name']}: {r['skipped']}" for r in skipped], ""]
    return "\n".join(out)


def _dev_sections(doc: dict[str, Any], path: Path, plots: list[Path]) -> list[str]:
    """How to read, planning, downstream, per-category and scaling sections of the first-party run."""
    meta = doc["meta"]
    routers = doc["routers"]
    reader = any("reader_accuracy" in r["summary"] for r in routers)
    out = [
        "## How to read this",
        "",
        (
            "- Planning metrics compare each plan with the gold plan or the best-matching alternative "
            "(`bench/schemarouter_bench/metrics.py`). Field metrics are over (source, field) pairs without "
            "identifier fields; over-fetch = selected non-gold fields / selected fields."
        ),
        (
            "- Downstream metrics use deterministic fixtures: every field of every record has a value "
            "derived from a hash of (source, entity, field). A step retrieves the gold record only when it calls "
            "a gold endpoint with matching parameters. The context is rendered by the execution layer's "
            "renderer with the metadata the plan carries (baselines carry none) and counted with a real BPE "
            "(cl100k_base) and with chars/4. *Answerable* = every gold value of the gold plan (or of one "
            "alternative) is in the context; for a negative question, the plan declined. *Units shown* "
            "(questions that name the unit they expect) = each such gold value appears as `field=value unit`."
        ),
        (
            "- Baselines take parameter values from the same offline understand step as schemarouter, so "
            "the comparison isolates source, endpoint and field selection; that shared step is timed in "
            "schemarouter's rows only (a baseline's latency is its own selection and parameter fitting)."
        ),
        "- Intervals are bootstrap 95 % CIs (1,000 resamples of the queries, fixed seed).",
        "",
        "## Planning",
        "",
        *md_table(["router", *[label for _, label in PLANNING], "negatives declined"], planning_rows(routers)),
        "",
        "## Downstream",
        "",
        *md_table(
            [
                "router",
                "context tokens (BPE)",
                "context tokens (chars/4)",
                "answerable",
                "units shown",
                "routing prompt tokens",
                "routing p50 (ms)",
                "routing p95 (ms)",
                *(["reader accuracy"] if reader else []),
                "note",
            ],
            downstream_rows(routers, reader),
        ),
        "",
    ]
    for p in plots:
        if p.name == "answerable_vs_tokens.png":
            out += [f"![answerable rate vs retrieved-context tokens]({_rel(p, path)})", ""]
    for metric, title in (
        ("field_f1", "Field F1 by category"),
        ("answerable", "Answerable rate by category"),
    ):
        header, rows = category_rows(routers, metric)
        out += [f"## {title}", "", *md_table(header, rows), ""]
    scaling = doc.get("scaling") or []
    if scaling:
        out += [
            "## Scaling, measured",
            "",
            (
                "Synthetic inventories from the real 19 sources (`bench/schemarouter_bench/synth.py`, seeded). "
                "Each size runs in a fresh router process that loads the registry from SQLite and builds the "
                "graph as a cold CLI call does (above 20,000 sources a batch of sources at a time, each batch's "
                "declarations spilled to a temporary file once the graph has what it needs of them; registry load "
                "is the time spent reading, graph build the rest; peak RSS is that whole process up to the built "
                "graph; graph RSS is what the process holds after the build less what it held before the read), "
                f"then routes {meta.get('scaling_questions', '-')} dev questions (latency; the first one is a "
                "warm-up). Sync times are `registry sync` into an empty SQLite file / Postgres database. The cold "
                "process then writes the graph cache file; a second fresh process loads the graph from it "
                "(warm load: what every later `plan`, `run` or `ask` on an unchanged registry does instead of "
                "registry load plus graph build). With `schemarouter-embeddings` installed a third fresh "
                "process loads the registry whole and builds the graph (as a cold start with dense routing on does), "
                "embeds every read endpoint (dense vectors build: "
                "what a graph build adds with `[routing] dense` on) and routes the same questions with the dense "
                "index read too (dense on); its peak RSS is that whole process up to there."
            ),
            "",
            *md_table(
                [label for _, label in SCALING],
                [[fmt(r.get(k), 3 if k.endswith(("_s", "_ms")) else 0) for k, _ in SCALING] for r in scaling],
            ),
            "",
        ]
        for p in plots:
            if p.name != "answerable_vs_tokens.png":
                out += [f"![{p.stem.replace('_', ' ')}]({_rel(p, path)})", ""]
    out += load_section(doc)
    out += sql_section(doc)
    return out


LOAD = [
    ("clients", "clients", 0),
    ("plans_per_s", "plans/s", 0),
    ("p50_ms", "p50 (ms)", 2),
    ("p99_ms", "p99 (ms)", 2),
    ("errors", "errors", 0),
    ("server_cpu_ms_per_plan", "server CPU per plan (ms)", 3),
    ("server_cpu_share", "server CPU share (cores)", 2),
    ("rss_mb", "server RSS after (MB)", 0),
]


def load_section(doc: dict[str, Any]) -> list[str]:
    """The HTTP service under load, and the MCP tool definitions' size beside prompt-all's prompt."""
    load = doc.get("load")
    if not load:
        return []
    levels = load["levels"]
    prompt_all = next(
        (r["summary"].get("prompt_tokens") for r in doc["routers"] if r["name"] == "prompt-all"), None
    )
    mcp = load["mcp"]
    best = max(levels, key=lambda r: r["plans_per_s"])
    cpu = [r["server_cpu_ms_per_plan"] for r in levels if r.get("server_cpu_ms_per_plan")]
    per_core = 1000 / min(cpu) if cpu else None
    peak = max(r["rss_peak_mb"] for r in levels)
    method = (
        f"`POST /v1/plan` on one `schemarouter serve` process (uvicorn, offline only, access log "
        f"off) over the frozen registry ({load['sources']} sources), {load['seconds_per_level']:g} s "
        f"per level after a warm-up; closed-loop clients on keep-alive connections in the benchmark "
        f"process cycle through the {load['questions']} dev questions (`bench/schemarouter_bench/load.py`). "
        f"Clients and server share the machine's {load['cpus']} cores, and the machine is shared with "
        f"other work: the 1-minute load average was {fmt(load.get('load_average_before'), 1)} when "
        f"the run started. *Server CPU per plan* is the server process's own CPU time divided by the "
        f"plans it answered; {fmt(per_core, 0)} plans/s is what that allows on one core it has to "
        f"itself. Server memory: {fmt(load['server_idle_rss_mb'], 0)} MB resident idle, "
        f"{fmt(peak, 0)} MB peak."
    )
    tools = (
        f"MCP tool definitions (`schemarouter mcp`: {mcp['tools']} tools, names, descriptions and "
        f"input schemas as a client lists them): **{fmt(mcp['tokens'], 0)} tokens** (cl100k_base; "
        f"{fmt(mcp['tokens_with_output_schema'], 0)} with their output schemas), against "
        f"**{fmt(prompt_all, 0)} tokens** of routing prompt for prompt-all, which puts the whole "
        f"{load['sources']}-source schema in front of the model."
    )
    return [
        "## Service load",
        "",
        method,
        "",
        *md_table([label for _, label, _ in LOAD], [[fmt(r.get(k), d) for k, _, d in LOAD] for r in levels]),
        "",
        f"Highest throughput: {fmt(best['plans_per_s'], 0)} plans/s at {best['clients']} client(s).",
        "",
        tools,
        "",
    ]


FLEET = [
    ("servers", "servers", 0),
    ("clients", "clients", 0),
    ("plans_per_s", "plans/s (all servers)", 0),
    ("p50_ms", "p50 (ms)", 2),
    ("p99_ms", "p99 (ms)", 2),
    ("errors", "errors", 0),
    ("server_cpu_ms_per_plan", "server CPU per plan (ms)", 2),
    ("server_cores", "server CPU (cores)", 2),
    ("loadgen_cores", "load generator CPU (cores)", 2),
    ("other_cores", "other work on the machine (cores)", 2),
]
FLEET_SERVERS = [
    ("index", "server", 0),
    ("startup_s", "start-up to healthy (s)", 2),
    ("graph_source", "graph from", 0),
    ("rss_mb", "RSS idle (MB)", 0),
    ("answered", "plans answered (fleet level)", 0),
    ("pickup_s", "change served after (s)", 2),
    ("graph_source_after", "new graph from", 0),
]


def fleet_server_rows(fleet: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per server: start-up, graph source, memory, its share of the load, change pickup."""
    moved = fleet.get("propagation") or {}
    answered = fleet["throughput"][-1].get("per_server") or []
    rows = []
    for i, server in enumerate(fleet["servers"]):
        rows.append({
            **server,
            "answered": answered[i] if i < len(answered) else None,
            "pickup_s": (moved.get("pickup_s") or [None] * (i + 1))[i],
            "graph_source_after": (moved.get("graph_source_after") or [None] * (i + 1))[i],
        })
    return rows


def _build_sentence(moved: dict[str, Any]) -> str:
    """Where the builder's seconds went, and how long the others took after it (from the servers' logs)."""
    build = moved.get("build")
    if not build:
        return ""
    pickups = moved.get("pickup_s") or []
    index = build["server"] - 1
    own = pickups[index] if index < len(pickups) else None
    others = [t for i, t in enumerate(pickups) if i != index and t is not None]
    text = (
        f" Server {build['server']} built it (the others waited on the build lock it took for that registry "
        f"state, `docs/service.md`): registry read {fmt(build['read_s'], 1)} s, build {fmt(build['build_s'], 1)} s, "
        f"encoding {fmt(build['encode_s'], 1)} s ({fmt(build['mb'], 0)} MB), publishing to Redis "
        f"{fmt(build['publish_s'], 1)} s, from its log"
    )
    if own is not None and others:
        text += (f"; it served the change after {fmt(own, 2)} s, the others (fetching and decoding the published "
                 f"graph) {fmt(min(others), 2)} to {fmt(max(others), 2)} s after the commit")
    return text + "."


def fleet_section(fleet: dict[str, Any]) -> list[str]:
    """The scale-out section (between its markers): one server against several over one registry."""
    one, many = fleet["throughput"][0], fleet["throughput"][-1]
    n = many["servers"]
    moved = fleet["propagation"]
    cache = fleet["shared_cache"]
    method = (
        f"`{fleet['command']}`, measured {fleet['date']} (`bench/schemarouter_bench/fleet.py`): "
        f"{fmt(fleet['sources'])} synthetic sources ({fmt(fleet['endpoints'])} endpoints, {fmt(fleet['fields'])} "
        f"fields; `synth.py`) synced into a fresh Postgres database ({fmt(fleet['sync_s'], 1)} s), and an empty "
        "Redis database number for the shared response cache and graph; both are removed afterwards. Every "
        "server is a `schemarouter serve` process (access log off, its own data directory, so no graph cache "
        "file is shared: only Redis can carry a graph from one server to another; live runs allowed for the "
        f"cache check below, which `/v1/plan` never makes). The same {fleet['clients']} closed-loop clients "
        f"(`loadgen.py`, keep-alive connections, cycling through the {fleet['questions']} dev questions) send "
        f"`POST /v1/plan` for {fleet['seconds']:g} s after a warm-up, first to one server, then spread evenly over "
        f"{n}. The machine has **{fleet['cpus']} CPU cores**, shared by the servers, the load generator and other "
        f"work (1-minute load average {fmt(fleet.get('load_average_before'), 1)} when the run started): "
        f"{n} single-threaded servers can use at most {fleet['cpus']} cores between them, so the ratio's ceiling "
        f"here is about {fleet['cpus']}x less what the load generator and other work take (the last columns: "
        "CPU seconds per second of the level, from `/proc`; *other work* is the whole machine's busy time "
        "less the servers' and the load generator's)."
    )
    ratio = fleet.get("ratio")
    hit = cache.get("cache_hit")
    if "first" in cache:
        how = (
            f"The plan of {cache['question']!r} (a local source added by the change below, served by a stub "
            f"HTTP API on the loopback address) ran live on server {cache['servers'][0]} (step cached: "
            f"{fmt(cache['first']['cached'])}, stub requests: {cache['first']['stub_requests']}), then on server "
            f"{cache['servers'][1]} (step cached: {fmt(cache['second']['cached'])}, stub requests: "
            f"{cache['second']['stub_requests']}; same records: {fmt(cache['same_records'])}). The run result marks "
            "each step answered from the cache (`cached` in the steps `include_plan` returns), and the stub counts "
            "the requests that reached it. Offline replay is no test of this: it neither reads nor writes the "
            "response cache."
        )
    else:
        how = f"not checked: {cache.get('why', 'no plan for the local source')}."
    pickup = moved.get("all_s")
    after = [s for s in moved.get("graph_source_after") or [] if s]
    change = (
        f"`{moved['change']}` through the registry call `schemarouter source add` makes (one committed write, "
        f"{fmt(moved['write_s'], 2)} s, with its NOTIFY); the servers' fingerprint poll is left at its 30 s, so "
        "only the notification makes pickup quick. "
        + (f"Every server served the new fingerprint within **{fmt(pickup, 2)} s** of the commit"
           if pickup is not None else f"Servers {moved.get('missed')} did not serve it within the wait")
        + (f"; the new graph was built by {after.count('built')} server(s) and loaded from Redis by "
           f"{after.count('redis')}." if after else ".")
        + _build_sentence(moved)
    )
    return [
        FLEET_MARKERS[0],
        "## Several servers over one registry",
        "",
        method,
        "",
        *md_table([label for _, label, _ in FLEET], [[fmt(r.get(k), d) for k, _, d in FLEET] for r in (one, many)]),
        "",
        (f"**{n} servers / 1 server: {fmt(ratio, 2)}x** the plans per second with the same {fleet['clients']} "
         f"clients (p99 {fmt(one['p99_ms'], 1)} -> {fmt(many['p99_ms'], 1)} ms)."),
        "",
        *md_table([label for _, label, _ in FLEET_SERVERS],
                  [[fmt(r.get(k), d) for k, _, d in FLEET_SERVERS] for r in fleet_server_rows(fleet)]),
        "",
        ("Start-up is from process start to the first answer of `/healthz`, servers started one after "
         "another; *graph from* is what `/healthz` reports (`graph_source`): `built` from the declarations, "
         "`redis` loaded as another server published it."),
        "",
        f"**Shared response cache: {'hit' if hit else 'no hit'}.** {how}",
        "",
        f"**A registry change.** {change}",
        "",
        *md_table(["target", "limit", "measured", "met"],
                  [[t["target"], t["limit"], fmt(t["measured"], 2),
                    {True: "yes", False: "**no**", None: "not measured"}[t["met"]]] for t in fleet["targets"]]),
        "",
        FLEET_MARKERS[1],
    ]


def write_fleet_section(path: Path, fleet: dict[str, Any]) -> Path:
    """Put the scale-out section into an existing report (replacing the one there, else after the service
    load section, else at the end), leaving every other section as it is."""
    section = "\n".join(fleet_section(fleet))
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    start, end = FLEET_MARKERS
    if start in text and end in text:
        head, rest = text.split(start, 1)
        text = head + section + rest.split(end, 1)[1]
    elif "\n## Database sources" in text:
        text = text.replace("\n## Database sources", "\n" + section + "\n\n## Database sources", 1)
    else:
        text = text.rstrip("\n") + ("\n\n" if text else "") + section + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _rel(target: Path, report: Path) -> str:
    return os.path.relpath(target, report.parent).replace(os.sep, "/")


SPLITS_MARKERS = (
    "<!-- splits:start (written by python -m schemarouter_bench.splits; make bench keeps it) -->",
    "<!-- splits:end -->",
)
MCP_MARKERS = (
    "<!-- mcp-tokens:start (written by python -m schemarouter_bench.mcp_tokens; make bench rewrites it) -->",
    "<!-- mcp-tokens:end -->",
)


# Before/after figures of the scale work (graph cache file, catalogue import, bulk sync), measured with
# the scaling probe against the commit before it: a comparison ``make bench`` cannot redo, so it is kept.
SCALE_MARKERS = (
    "<!-- scale-before-after:start (a measured comparison; make bench keeps it) -->",
    "<!-- scale-before-after:end -->",
)
# Several servers over one registry: measured by its own command (schemarouter bench --fleet), which
# starts four servers on a Postgres registry of 10,000 sources; a whole run keeps the section.
FLEET_MARKERS = (
    "<!-- fleet:start (written by schemarouter bench --fleet; make bench keeps it) -->",
    "<!-- fleet:end -->",
)


def write(doc: dict[str, Any], path: Path, plots: list[Path]) -> Path:
    """Write the report to ``path``, keeping the separately generated import-corpus section."""
    from schemarouter_bench.import_corpus import kept_section

    kept = kept_section(path)  # the import-corpus section has its own command; regenerating keeps it
    mcp = None if doc.get("mcp_tokens") else _kept_between(path, *MCP_MARKERS)  # kept when not measured this time
    scale = _kept_between(path, *SCALE_MARKERS)
    path.parent.mkdir(parents=True, exist_ok=True)
    splits = _kept_between(path, *SPLITS_MARKERS)  # measured by its own command (schemarouter_bench.splits)
    fleet = _kept_between(path, *FLEET_MARKERS)  # measured by schemarouter bench --fleet
    body = render(doc, path, plots)
    if fleet:  # in its place after the service load, when the run rendered that section
        anchor = "\n## Database sources" if "\n## Database sources" in body else None
        body = body.replace(anchor, f"\n{fleet}\n{anchor}", 1) if anchor else body
        fleet = None if anchor else fleet
    extra = "".join(f"\n{block}\n" for block in (splits, mcp, scale, fleet, kept) if block)
    path.write_text(body + extra, encoding="utf-8")
    return path


def _kept_between(path: Path, start: str, end: str) -> str | None:
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    return start + text.split(start, 1)[1].split(end, 1)[0] + end if start in text and end in text else None
