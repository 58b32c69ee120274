"""Measured scaling: registry sync, graph build, routing latency and prompt size at 100 to 100,000 sources.

Per size, over a synthetic inventory (:mod:`schemarouter_bench.synth`): ``registry sync`` time
into a fresh SQLite file and, when reachable, a fresh Postgres database created and dropped
here; then, in a fresh router process (``python -m schemarouter_bench.scaling URL QUESTIONS``),
registry load and graph build time and peak RSS, the graph cache file's write time, then routing
latency p50/p95/p99 of
schemarouter and the BM25 baseline over a fixed sample of dev questions; and the prompt-all
prompt size in BPE tokens. A second fresh process loads the graph from that cache file (the warm
start of every later CLI call): its time and peak RSS. 100,000 sources are opt-in
(``--sizes 1000,10000,100000``): they take minutes and a few GB.
"""

from __future__ import annotations

import json
import os
import resource
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from schemarouter.declarations import Declarations
from schemarouter_bench import aggregate as agg
from schemarouter_bench.dataset import Query
from schemarouter_bench.synth import counts, synthesize

DEFAULT_SIZES = (100, 1000, 10000)
DEFAULT_PG_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
SAMPLE_QUERIES = 30
Progress = Callable[[str], None]


def sample(queries: list[Query], k: int = SAMPLE_QUERIES) -> list[Query]:
    """Every n-th query, so the sample spans all categories and is the same on every run."""
    step = max(1, len(queries) // k)
    return queries[::step][:k]


def _time(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def sync_sqlite(decls: Declarations, directory: str) -> tuple[float, str]:
    """Sync ``decls`` into a new SQLite registry in ``directory``; seconds taken and the URL."""
    from schemarouter.registry import Registry

    url = f"sqlite:///{directory}/registry.db"
    registry = Registry.open(url)
    try:
        return _time(lambda: registry.sync(decls)), url
    finally:
        registry.close()


def sync_postgres(decls: Declarations, admin_url: str) -> float | str:
    """Seconds to sync into a new database (dropped afterwards), or why Postgres was not measured."""
    import sqlalchemy as sa

    from schemarouter.registry import Registry

    name = f"sr_bench_{secrets.token_hex(4)}"
    try:
        admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    except Exception as err:  # no server, no rights: the report says so instead of a number
        return f"not measured ({type(err).__name__})"
    url = sa.engine.make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    try:
        registry = Registry.open(url)
        try:
            return _time(lambda: registry.sync(decls))
        finally:
            registry.close()
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def graph_probe(url: str, questions: list[str], directory: str) -> dict[str, float]:
    """A fresh router process: load the registry, build the graph (time, peak RSS), write its cache
    file, then route ``questions`` with schemarouter and BM25 (latency); then a second fresh process
    that loads the graph from the cache file (a warm start: time, peak RSS), and a third that routes
    with the dense index too (:func:`_dense_main`). One graph per process, so no size's caches or
    memory leak into the next."""
    qfile = Path(directory) / "questions.json"
    qfile.write_text(json.dumps(questions), encoding="utf-8")
    probe = _child(url, str(qfile))
    probe.update(_child(url, str(qfile), "warm"))
    probe.update(_child(url, str(qfile), "dense"))
    return probe


def _child(*args: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-m", "schemarouter_bench.scaling", *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    if out.returncode != 0:
        raise RuntimeError(f"graph probe failed: {out.stderr.strip()[-300:]}")
    probe: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return probe


def rss_mb() -> float:
    """Peak RSS of this process. VmHWM, not ru_maxrss: Linux keeps ru_maxrss across exec, so a
    child of a big parent would report the parent's peak."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _warm_main(url: str) -> None:
    """A warm start: the graph from the cache file the cold probe wrote (what a second CLI call does)."""
    from schemarouter.graph import cache, persist
    from schemarouter.registry import Registry

    registry = Registry.open(url)
    t0 = time.perf_counter()
    fingerprint = registry.fingerprint()
    path = cache.cache_file(registry)
    graph = persist.read(path, fingerprint) if path is not None and fingerprint is not None else None
    if graph is None:
        raise SystemExit("no current graph cache file to load")
    print(json.dumps({"warm_load_s": time.perf_counter() - t0, "rss_warm_peak_mb": rss_mb()}))


def _probe_main(url: str, questions_file: str) -> None:
    from schemarouter.graph import cache, persist
    from schemarouter.registry import Registry
    from schemarouter.router import Router
    from schemarouter_bench.routers.bm25 import BM25Router
    from schemarouter_bench.routers.schemarouter_rows import llm_prompt_tokens

    base = rss_mb()
    registry = Registry.open(url)
    before = current_rss_mb()
    t0 = time.perf_counter()
    # as a cold CLI call builds it: a registry of more sources than one batch is read and built a batch
    # at a time, so registry load and graph build interleave (load: the seconds spent reading)
    graph, load_s = cache.build_from_registry(registry)
    build_s = time.perf_counter() - t0 - load_s
    result: dict[str, Any] = {
        "load_s": load_s,
        "build_s": build_s,
        "rss_start_mb": base,
        "rss_graph_mb": current_rss_mb() - before,
        "rss_peak_mb": rss_mb(),
    }
    path = cache.cache_file(registry)
    if path is not None:  # the file a later process loads instead of building (the warm probe reads it)
        t0 = time.perf_counter()
        persist.write(path, graph)
        result["cache_write_s"] = time.perf_counter() - t0
    questions = json.loads(Path(questions_file).read_text(encoding="utf-8"))
    router = Router(graph)
    for name, value in latency_stats(router.plan, questions).items():
        result[f"schemarouter_{name}"] = value
    bm25 = BM25Router(graph)
    bm25.entities.warm(questions)  # retrieval latency; entity extraction is schemarouter's step
    for name, value in latency_stats(bm25.plan, questions).items():
        result[f"bm25_{name}"] = value
    llm = [llm_prompt_tokens(graph, q) for q in questions]
    if all(t is not None for t in llm):
        result["schemarouter_llm_prompt_tokens"] = agg.mean([float(t or 0) for t in llm])
    print(json.dumps(result))


def _dense_main(url: str, questions_file: str) -> None:
    """With ``schemarouter-embeddings`` installed, a third fresh process: the registry loaded and the
    graph built again, then every read endpoint embedded (time: what a build with ``[routing] dense``
    on adds), then the questions routed with the dense index read too (latency), and the process's
    peak RSS up to there (no cache file written, as for the lexical peak); ``{}`` without the model."""
    from schemarouter.graph import build_graph
    from schemarouter.graph.dense import dense_index, load_encoder
    from schemarouter.registry import Registry
    from schemarouter.router import Router

    if load_encoder() is None:
        print(json.dumps({}))
        return
    registry = Registry.open(url)
    # with dense routing on, a cold start reads the registry whole (embedding reads every declaration)
    decls = registry.load()
    t0 = time.perf_counter()
    graph = build_graph(decls, decls.fingerprint)
    out = {"dense_graph_build_s": time.perf_counter() - t0}
    del decls
    t0 = time.perf_counter()
    dense_index(graph)
    out["dense_build_s"] = time.perf_counter() - t0
    questions = json.loads(Path(questions_file).read_text(encoding="utf-8"))
    for name, value in latency_stats(Router(graph, dense=True).plan, questions).items():
        out[f"dense_{name}"] = value
    out["rss_dense_peak_mb"] = rss_mb()
    print(json.dumps(out))


def current_rss_mb() -> float:
    """Resident set size now (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def route_latencies(plan: Callable[[str], Any], questions: list[str]) -> tuple[float, float]:
    """p50 and p95 milliseconds to plan each question, after one warm-up plan."""
    stats = latency_stats(plan, questions)
    return stats["p50_ms"], stats["p95_ms"]


def latency_stats(plan: Callable[[str], Any], questions: list[str]) -> dict[str, float]:
    """p50, p95 and p99 milliseconds to plan each question, after one warm-up plan."""
    plan(questions[0])
    times = []
    for q in questions:
        t0 = time.perf_counter()
        plan(q)
        times.append((time.perf_counter() - t0) * 1000)
    return {f"p{p}_ms": agg.percentile(times, p) for p in (50, 95, 99)}


def measure_size(
    base: Declarations,
    n: int,
    questions: list[str],
    pg_admin_url: str | None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Synthesize ``n`` sources and measure sync, load, graph build, memory, latency and prompt size."""
    from schemarouter.tokens import count_tokens
    from schemarouter_bench.routers.prompt_all import INSTRUCTIONS, render_schema

    say = progress or (lambda _m: None)
    say(f"{n} sources: generating")
    decls = synthesize(base, n)
    row: dict[str, Any] = {"sources": n, **{k: v for k, v in counts(decls).items() if k != "sources"}}
    with tempfile.TemporaryDirectory(prefix="sr-scale-") as tmp:
        say(f"{n} sources: registry sync (SQLite)")
        row["sync_sqlite_s"], url = sync_sqlite(decls, tmp)
        say(f"{n} sources: graph build and routing (child process)")
        probe = graph_probe(url, questions, tmp)
    row.update(
        {
            "registry_load_s": probe["load_s"],
            "graph_build_s": probe["build_s"],
            "rss_peak_mb": probe["rss_peak_mb"],
            "rss_graph_mb": probe["rss_graph_mb"],
            **{k: probe[k] for k in ("cache_write_s", "warm_load_s", "rss_warm_peak_mb", "dense_graph_build_s",
                                     "dense_build_s", "rss_dense_peak_mb") if k in probe},
            **{k: v for k, v in probe.items() if k.endswith("_ms") or k.endswith("prompt_tokens")},
        }
    )
    if pg_admin_url:
        say(f"{n} sources: registry sync (Postgres)")
        row["sync_postgres_s"] = sync_postgres(decls, pg_admin_url)
    say(f"{n} sources: prompt-all prompt size")
    schema_tokens = count_long(f"{INSTRUCTIONS}\n\nSources:\n{render_schema(decls)}")
    row["prompt_all_tokens"] = schema_tokens + agg.mean([count_tokens(q) for q in questions])
    return row


def count_long(text: str, chunk_chars: int = 200_000) -> int:
    """BPE tokens of a text longer than the tokenizer takes at once, counted in chunks cut after a
    newline (BPE pieces never span a newline followed by text, so the sum equals the whole count)."""
    from schemarouter.tokens import count_tokens

    total, start = 0, 0
    while start < len(text):
        end = (
            len(text)
            if len(text) - start <= chunk_chars
            else text.rfind("\n", start, start + chunk_chars) + 1
        )
        if end <= start:
            end = start + chunk_chars
        total += count_tokens(text[start:end])
        start = end
    return total


def run_scaling(
    base: Declarations,
    queries: list[Query],
    sizes: tuple[int, ...] = DEFAULT_SIZES,
    pg_admin_url: str | None = DEFAULT_PG_ADMIN_URL,
    progress: Progress | None = None,
    done: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """One row per size; ``done(finished, total)`` is called after each size (for a progress bar)."""
    questions = [q.query for q in sample(queries)]
    rows = []
    for n in sizes:
        rows.append(measure_size(base, n, questions, pg_admin_url, progress))
        if done:
            done(len(rows), len(sizes))
    return rows


if __name__ == "__main__":
    if sys.argv[3:] == ["warm"]:
        _warm_main(sys.argv[1])
    elif sys.argv[3:] == ["dense"]:
        _dense_main(sys.argv[1], sys.argv[2])
    else:
        _probe_main(sys.argv[1], sys.argv[2])
