"""Scale-out, measured: four ``schemarouter serve`` processes over one Postgres registry and one Redis.

The service documents a fleet (``docs/service.md``, "Several servers over one registry"): add servers
to add throughput, the first one builds the graph and the others load it from Redis, a run one server
answered is a cache hit on the others, and a registry change reaches every server through Postgres
LISTEN/NOTIFY. Each of those claims has a test; this module puts figures on them in one run, at a
registry size where they matter (10,000 synthetic sources by default), so the report can say what a
second, third and fourth process buy on the machine at hand and how long a fleet takes to agree.

What it starts and always removes again (processes, a database, Redis keys), in this order:

1. a fresh Postgres database holding ``synthesize(frozen, N)`` and an empty Redis database number,
   claimed with a marker key; every server gets its own data directory, so no graph cache file is
   shared and only Redis can carry a graph from one server to another;
2. one server: its start-up time and where its graph came from (``/healthz`` ``graph_source``), then
   plans per second, p50 and p99 of ``POST /v1/plan`` under a fixed number of closed-loop clients
   (:mod:`schemarouter_bench.loadgen`); then three more servers, one after the other (their start-up
   times, their graph source), and the same clients spread evenly over all four;
3. a registry change: a local source added through the call ``schemarouter source add`` makes (one
   committed write that NOTIFYs), and the seconds until every server's ``/healthz`` reports the new
   fingerprint; which server built the new graph (the others wait on its build lock and load it from
   Redis) and where its seconds went, from that server's log; the added source is served by a stub HTTP
   server on the loopback address;
4. the shared response cache: a live ``POST /v1/run`` of a plan for that source on the first server,
   then the same on the second. Offline replay neither reads nor writes the response cache (it serves
   recordings, not data), so the check runs live against the stub: the second answer is a hit when its
   step is marked ``cached`` and the stub saw no second request.

The servers allow live runs for step 4 only; ``/v1/plan`` never calls a source.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

from schemarouter.declarations import Declarations
from schemarouter.errors import SchemaRouterError
from schemarouter.sources.local import LocalSource, local_source_from_mapping
from schemarouter_bench import aggregate as agg
from schemarouter_bench.load import HOST, cpu_s, free_port, memory_mb, stop_process
from schemarouter_bench.loadgen import post_request, run_spread
from schemarouter_bench.scaling import DEFAULT_PG_ADMIN_URL
from schemarouter_bench.synth import counts, synthesize

DEFAULT_SOURCES = 10_000
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379"
SERVERS = 4
CLIENTS = 8  # the same clients for one server and for the fleet: the fleet must answer more with them
SECONDS = 10.0
WARMUP_S = 2.0
STARTUP_LIMIT_S = 300.0
PICKUP_LIMIT_S = 120.0  # how long to wait for the fleet to agree before reporting who did not
TARGET_RATIO = 1.6
TARGET_PICKUP_S = 10.0
CLAIM_KEY = "schemarouter-bench:fleet:claim"
PROBE_ID = "fleet_probe_log"
PROBE_QUESTION = "What was the yield of the LiFePO4 synthesis runs in the fleet probe log?"
Say = Callable[[str], None]


class FleetError(SchemaRouterError):
    """The fleet could not be set up or measured; the message says which part and why."""


# -- scratch Postgres and Redis -----------------------------------------------------------------------
@contextmanager
def scratch_database(admin_url: str) -> Iterator[str]:
    """A new, empty Postgres database on the server of ``admin_url``, dropped (connections and all) after."""
    import sqlalchemy as sa

    from schemarouter.registry.database import display

    name = f"sr_fleet_{secrets.token_hex(4)}"
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 5})
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    except Exception as err:
        admin.dispose()
        raise FleetError(f"cannot create a database at {display(admin_url)}: {type(err).__name__}") from None
    try:
        yield sa.engine.make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _with_db(url: str, db: int) -> str:
    return urllib.parse.urlsplit(url)._replace(path=f"/{db}", query="").geturl()


@contextmanager
def scratch_redis(base_url: str) -> Iterator[str]:
    """The URL of a Redis database number that was empty, claimed with a marker key for this run.

    Afterwards every key the servers wrote there (``schemarouter:*``) and the marker are deleted; the
    other databases are never touched (no FLUSHALL, no FLUSHDB)."""
    import redis

    from schemarouter.registry.database import display

    token = secrets.token_hex(8)
    try:
        admin = redis.Redis.from_url(_with_db(base_url, 0), socket_connect_timeout=2, socket_timeout=5)
        try:
            databases = int(admin.config_get("databases").get("databases") or 16)
        except redis.ResponseError:  # CONFIG may be renamed or refused: Redis's default count
            databases = 16
        chosen: Any = None
        for db in range(1, databases):  # 0 is everyone's default
            client = redis.Redis.from_url(_with_db(base_url, db), socket_connect_timeout=2, socket_timeout=5)
            if client.dbsize() == 0 and client.set(CLAIM_KEY, token, nx=True, ex=86_400):
                if client.dbsize() == 1:
                    chosen = (db, client)
                    break
                client.delete(CLAIM_KEY)  # someone else started writing here at the same moment
    except redis.RedisError as err:
        raise FleetError(f"Redis at {display(base_url)} is unusable: {type(err).__name__}") from None
    if chosen is None:
        raise FleetError(f"no empty database number on the Redis at {display(base_url)}")
    db, client = chosen
    try:
        yield _with_db(base_url, db)
    finally:
        for name in client.scan_iter(match="schemarouter:*", count=500):
            client.delete(name)
        if client.get(CLAIM_KEY) == token.encode():
            client.delete(CLAIM_KEY)


# -- the local source the registry change adds, and its stub API ------------------------------------------
class Stub:
    """A JSON API on the loopback address that answers every GET with one synthesis run and counts them."""

    RECORD: ClassVar[dict[str, Any]] = {
        "id": "R-2026-0042", "target": {"formula": "LiFePO4"}, "yield": 0.87,
        "program": {"anneal": {"temperature": 973, "hours": 10}},
    }

    def __init__(self) -> None:
        stub = self
        self.requests = 0
        self._lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with stub._lock:
                    stub.requests += 1
                body = json.dumps({"runs": [Stub.RECORD], "total": 1}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer((HOST, 0), Handler)
        self.port = int(self.server.server_address[1])
        self._thread = threading.Thread(target=self.server.serve_forever, name="fleet-stub", daemon=True)

    def __enter__(self) -> Stub:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def probe_source(port: int) -> LocalSource:
    """The local source the registry change adds: one endpoint, served by the stub on ``port``."""
    return local_source_from_mapping(
        {
            "id": PROBE_ID,
            "title": "Fleet probe log",
            "aliases": ["fleet probe log", "fleet probe"],
            "domain": "materials",
            "description": "Synthesis runs with their target compound and yield (a stub the fleet benchmark serves).",
            "source_type": "experimental",
            "license": {"id": "LicenseRef-bench-stub", "name": "benchmark stub data"},
            "endpoints": [
                {
                    "id": "runs",
                    "method": "GET",
                    "base_url": f"http://{HOST}:{port}",
                    "path": "/api/runs",
                    "description": "Search synthesis runs by target formula.",
                    "intents": ["material_property"],
                    "parameters": [{"name": "formula", "type": "string", "concept": "formula",
                                    "description": "Target compound formula.", "example": "LiFePO4"}],
                    "fields": [
                        {"name": "run_id", "path": "id", "type": "string", "identifier": True, "group": "identity"},
                        {"name": "target_formula", "path": "target.formula", "type": "string",
                         "group": "composition", "concepts": ["formula"]},
                        {"name": "yield_fraction", "path": "yield", "type": "number", "unit": "1",
                         "group": "physical_property", "aliases": ["yield", "synthesis yield"]},
                        {"name": "anneal_temperature", "path": "program.anneal.temperature", "type": "number",
                         "unit": "K", "group": "thermodynamic", "aliases": ["anneal temperature"]},
                    ],
                    "adapter": {"records": "runs"},
                }
            ],
        },
        "schemarouter bench --fleet",
    )


# -- servers ---------------------------------------------------------------------------------------------
@dataclass
class FleetServer:
    """One ``schemarouter serve`` process of the fleet, with its own data directory and log file."""

    index: int
    port: int
    process: subprocess.Popen[bytes]
    log: Path
    started: float

    def url(self, path: str) -> str:
        """The address of ``path`` on this server."""
        return f"http://{HOST}:{self.port}{path}"

    def log_tail(self, lines: int = 15) -> str:
        """The end of the server's log (start-up errors; no request lines: the access log is off)."""
        try:
            return "\n".join(self.log.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def start_server(db_url: str, redis_url: str, workdir: Path, index: int) -> FleetServer:
    """Start ``schemarouter serve`` on a free port over ``db_url``, sharing ``redis_url`` (no waiting)."""
    home = workdir / f"server-{index}"
    home.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCHEMAROUTER_")}
    env["SCHEMAROUTER_HOME"] = str(home)  # its own graph cache file: only Redis is shared
    env["SCHEMAROUTER_CACHE_BACKEND"] = redis_url
    port = free_port()
    log = home / "serve.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "schemarouter", "serve", "--db", db_url, "--port", str(port),
             "--log-level", "info"],
            stdout=out, stderr=subprocess.STDOUT, env=env, cwd=home,
        )
    return FleetServer(index, port, process, log, time.monotonic())


def health(server: FleetServer, timeout_s: float = 5.0) -> dict[str, Any] | None:
    """The server's ``/healthz`` document, or None when it does not answer (yet)."""
    import httpx

    try:
        response = httpx.get(server.url("/healthz"), timeout=timeout_s)
    except httpx.HTTPError:
        return None
    return dict(response.json()) if response.status_code == 200 else None


def wait_healthy(server: FleetServer, limit_s: float = STARTUP_LIMIT_S) -> tuple[float, dict[str, Any]]:
    """Seconds from the server's start until ``/healthz`` answers, and what it answered."""
    while time.monotonic() - server.started < limit_s:
        if server.process.poll() is not None:
            raise FleetError(f"server {server.index} exited with {server.process.returncode}:\n{server.log_tail()}")
        found = health(server, 2.0)
        if found is not None:
            return time.monotonic() - server.started, found
        time.sleep(0.1)
    raise FleetError(f"server {server.index} did not answer /healthz within {limit_s:g} s:\n{server.log_tail()}")


def _post(server: FleetServer, path: str, body: dict[str, Any]) -> dict[str, Any]:
    import httpx

    response = httpx.post(server.url(path), json=body, timeout=120)
    if response.status_code != 200:
        raise FleetError(f"{path} on server {server.index} answered {response.status_code}: {response.text[:300]}")
    return dict(response.json())


# -- the measurements ------------------------------------------------------------------------------------
def machine_busy_s() -> float | None:
    """CPU seconds every core of the machine has spent busy since boot (Linux /proc/stat; None elsewhere):
    read around a level, it tells how much of the machine other work took while the fleet was measured."""
    try:
        with open("/proc/stat", encoding="ascii") as fh:
            fields = [int(v) for v in fh.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def throughput(
    servers: list[FleetServer], questions: list[str], clients: int, seconds: float, warmup_s: float
) -> dict[str, Any]:
    """``POST /v1/plan`` from ``clients`` closed-loop clients spread over ``servers``: plans/s, latency,
    and the CPU the servers and this process (the load generator) used meanwhile, in cores."""
    targets = [(s.port, [post_request(HOST, s.port, "/v1/plan", {"question": q}) for q in questions])
               for s in servers]
    if warmup_s > 0:
        run_spread(HOST, targets, max(clients, len(servers)), warmup_s)
    before = [cpu_s(s.process.pid) for s in servers]
    own = time.process_time()
    busy = machine_busy_s()
    result = run_spread(HOST, targets, clients, seconds)
    busy_after = machine_busy_s()
    own = time.process_time() - own
    used = sum(cpu_s(s.process.pid) - b for s, b in zip(servers, before, strict=True))
    other = (busy_after - busy - used - own) if busy is not None and busy_after is not None else None
    latencies = result.latencies_ms
    return {
        "servers": len(servers),
        "clients": clients,
        "requests": result.requests,
        "errors": result.errors,
        "plans_per_s": result.requests / result.seconds if result.seconds else 0.0,
        "p50_ms": agg.percentile(latencies, 50) if latencies else None,
        "p99_ms": agg.percentile(latencies, 99) if latencies else None,
        "per_server": [result.answered_by_port.get(s.port, 0) for s in servers],
        # CPU per plan shows what the extra processes cost beside what they bought (a shared machine's
        # throughput alone cannot tell contention for cores from work added per plan)
        "server_cpu_ms_per_plan": 1000 * used / result.requests if result.requests else None,
        "server_cores": used / result.seconds if result.seconds else None,
        "loadgen_cores": own / result.seconds if result.seconds else None,
        "other_cores": max(0.0, other / result.seconds) if other is not None and result.seconds else None,
    }


def propagate(servers: list[FleetServer], db_url: str, local: LocalSource) -> dict[str, Any]:
    """Add ``local`` to the registry and time, per server, how long until it serves the new fingerprint."""
    from schemarouter.registry import Registry
    from schemarouter.registry.local import add_local_source

    with Registry.open(db_url) as registry:
        started = time.monotonic()
        report = add_local_source(registry, local, "schemarouter bench --fleet")
        committed = time.monotonic()
    pending = {s.index: s for s in servers}
    seen: dict[int, tuple[float, str | None]] = {}
    while pending and time.monotonic() - committed < PICKUP_LIMIT_S:
        for server in list(pending.values()):
            found = health(server)
            if found is not None and found.get("registry_fingerprint") == report.fingerprint:
                seen[server.index] = (time.monotonic() - committed, found.get("graph_source"))
                del pending[server.index]
        time.sleep(0.05)
    return {
        "change": f"source add {local.source.id}",
        "write_s": committed - started,
        "fingerprint": report.fingerprint,
        "pickup_s": [seen[s.index][0] if s.index in seen else None for s in servers],
        "graph_source_after": [seen[s.index][1] if s.index in seen else None for s in servers],
        "all_s": max(t for t, _ in seen.values()) if not pending else None,
        "missed": sorted(pending),
        "build": build_phases(servers, report.fingerprint),
    }


# the line a server logs when it built a graph (schemarouter/graph/cache.py), at --log-level info
_BUILT = re.compile(
    r"graph of (?P<fingerprint>\S+) built: registry read (?P<read_s>[\d.]+) s, build (?P<build_s>[\d.]+) s, "
    r"encoding (?P<encode_s>[\d.]+) s \((?P<mb>[\d.]+) MB\), publishing (?P<publish_s>[\d.]+) s"
)


def build_phases(servers: list[FleetServer], fingerprint: str | None) -> dict[str, Any] | None:
    """Which server built the graph of ``fingerprint`` and where its seconds went (registry read, build,
    encoding, publishing to Redis), from that server's log; None when no server logged a build of it."""
    for server in servers:
        try:
            text = server.log.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for found in _BUILT.finditer(text):
            if found["fingerprint"] == fingerprint:
                return {"server": server.index, "mb": float(found["mb"]),
                        **{k: float(found[k]) for k in ("read_s", "build_s", "encode_s", "publish_s")}}
    return None


def shared_cache(first: FleetServer, second: FleetServer, stub: Stub) -> dict[str, Any]:
    """Run one plan live on ``first``, then on ``second``: is the second answer the first one's cache entry?"""
    out: dict[str, Any] = {"question": PROBE_QUESTION, "servers": [first.index, second.index]}
    plan = _post(first, "/v1/plan", {"question": PROBE_QUESTION})
    routed = [step["source"] for step in plan.get("steps", [])]
    if PROBE_ID not in routed:
        return {**out, "cache_hit": False, "why": f"the question was planned on {routed or 'no source'}"}
    runs = []
    for server in (first, second):
        before = stub.requests
        document = _post(server, "/v1/run", {"plan": plan, "offline": False, "include_plan": True})
        step = next(s for s in document["steps"] if s["source"] == PROBE_ID)
        runs.append({"status": document["status"], "cached": bool(step.get("cached")),
                     "stub_requests": stub.requests - before, "records": document.get("records")})
    one, two = runs
    hit = (one["status"] == two["status"] == "ok" and not one["cached"] and one["stub_requests"] == 1
           and two["cached"] and two["stub_requests"] == 0 and one["records"] == two["records"])
    return {**out, "first": {k: v for k, v in one.items() if k != "records"},
            "second": {k: v for k, v in two.items() if k != "records"},
            "same_records": one["records"] == two["records"], "cache_hit": hit}


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The fleet's targets: throughput ratio of four servers to one, and the time for a change to reach all."""
    ratio, pickup = result.get("ratio"), (result.get("propagation") or {}).get("all_s")
    cores = result.get("cpus")
    n = len(result.get("servers") or [])
    return [
        {"target": f"plans/s, {n} servers / 1 server ({cores} cores)", "limit": f">= {TARGET_RATIO:g}x",
         "measured": ratio, "met": None if ratio is None else ratio >= TARGET_RATIO},
        {"target": f"a registry change reaches all {n} servers", "limit": f"<= {TARGET_PICKUP_S:g} s",
         "measured": pickup, "met": None if pickup is None else pickup <= TARGET_PICKUP_S},
        {"target": "a run answered by one server is a cache hit on another", "limit": "yes",
         "measured": (result.get("shared_cache") or {}).get("cache_hit"),
         "met": (result.get("shared_cache") or {}).get("cache_hit")},
    ]


def run_fleet(
    base: Declarations,
    questions: list[str],
    sources: int = DEFAULT_SOURCES,
    pg_admin_url: str = DEFAULT_PG_ADMIN_URL,
    redis_url: str = DEFAULT_REDIS_URL,
    servers: int = SERVERS,
    clients: int = CLIENTS,
    seconds: float = SECONDS,
    warmup_s: float = WARMUP_S,
    say: Say | None = None,
    command: str = "schemarouter bench --fleet",
) -> dict[str, Any]:
    """Measure one server, then ``servers`` servers, on a registry of ``sources`` synthetic sources."""
    from schemarouter.registry import Registry

    if servers < 2:
        raise ValueError("a fleet needs at least two servers")
    say = say or (lambda _m: None)
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    say(f"fleet: {sources} synthetic sources")
    decls = synthesize(base, sources)
    out: dict[str, Any] = {
        "command": command,
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        **counts(decls),
        "cpus": os.cpu_count(),
        "load_average_before": load_before,
        "questions": len(questions),
        "clients": clients,
        "seconds": seconds,
    }
    with ExitStack() as stack:
        db_url = stack.enter_context(scratch_database(pg_admin_url))
        shared = stack.enter_context(scratch_redis(redis_url))
        out["redis_db"] = int(urllib.parse.urlsplit(shared).path.strip("/"))
        say("fleet: registry sync into a fresh Postgres database")
        with Registry.open(db_url) as registry:
            started = time.perf_counter()
            registry.sync(decls)
            out["sync_s"] = time.perf_counter() - started
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="sr-fleet-")))
        stub = stack.enter_context(Stub())
        fleet: list[FleetServer] = []
        rows: list[dict[str, Any]] = []

        def add_server() -> None:
            server = start_server(db_url, shared, workdir, len(fleet) + 1)
            stack.callback(stop_process, server.process)
            fleet.append(server)
            took, found = wait_healthy(server)
            rows.append({"index": server.index, "port": server.port, "startup_s": took,
                         "graph_source": found.get("graph_source"), "sources": found.get("sources"),
                         "rss_mb": memory_mb(server.process.pid)[0]})

        say("fleet: server 1 (builds the graph)")
        add_server()
        say(f"fleet: {clients} clients on 1 server for {seconds:g} s")
        single = throughput(fleet, questions, clients, seconds, warmup_s)
        for i in range(2, servers + 1):
            say(f"fleet: server {i}")
            add_server()
        say(f"fleet: {clients} clients on {servers} servers for {seconds:g} s")
        many = throughput(fleet, questions, clients, seconds, warmup_s)
        say("fleet: a registry change (source add) until every server serves it")
        moved = propagate(fleet, db_url, probe_source(stub.port))
        say("fleet: the shared response cache")
        cache = shared_cache(fleet[0], fleet[1], stub)
    out.update(
        servers=rows,
        throughput=[single, many],
        ratio=many["plans_per_s"] / single["plans_per_s"] if single["plans_per_s"] else None,
        propagation=moved,
        shared_cache=cache,
        load_average_after=os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    )
    out["targets"] = targets(out)
    return out
