"""The reliability benchmark: replay the network fault set through the executor and count what held.

Every fault of :mod:`schemarouter.testing.faultserver` (a hanging server, 429s, 5xx, broken and
deeply nested JSON, a 200 MB body, a gzip bomb, redirect loops, a cross-origin redirect carrying
a key, a body cut short of its Content-Length, a wrong content type, a slow trickle under a
timeout and under a step deadline, ...) runs as a one-step plan against a real socket. A fault is
*handled* when its step ends the way it should (records, or the expected typed error — never an
``adapter_error``), within its time bound, with no key in anything the step shows, and, for the
redirect faults, with no key reaching another origin. Then all faults run as one plan beside a
healthy step, which must still return its records. The report gives faults tried and handled,
the slowest fault, and the process's peak RSS.

``python -m schemarouter_bench.reliability [--small] [--json]``; ``--small`` uses tiny sizes and
timeouts (the test suite runs it that way).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from schemarouter.declarations import Declarations
from schemarouter.execution.executor import Executor
from schemarouter.execution.http import HttpConfig
from schemarouter.execution.httpjson import HttpJsonAdapter
from schemarouter.execution.results import StepResult
from schemarouter.models import Source
from schemarouter.plan import Plan, PlanStep
from schemarouter.sources.spec import AdapterSpec
from schemarouter.testing.faultserver import FaultOptions, FaultServer, gzip_bomb

HEADER_KEY = "hdr-key-5f1c2a9e7b"  # sent as X-Lab-Token
QUERY_KEY = "qry-key-93d0c4e81a"  # sent as ?appid=
ENV = {"FAULT_TOKEN": HEADER_KEY, "FAULT_APPID": QUERY_KEY}
RECORDS = "records"


@dataclass(frozen=True)
class Fault:
    """One fault: the server path, the outcome that counts as handled, and optional limits."""

    name: str
    path: str
    expect: frozenset[str]
    source: str = "fault_header"
    timeout_s: float | None = None  # overrides of the run's limits for this fault
    deadline_s: float | None = None
    message_has: str = ""


def _f(name: str, expect: str, path: str | None = None, **kw: Any) -> Fault:
    return Fault(name, path or f"/{name}", frozenset(expect.split("|")), **kw)


FAULTS: tuple[Fault, ...] = (
    _f("hang", "timeout"),
    _f("rate-limited", "rate_limited"),
    _f("rate-limited-once", RECORDS),
    _f("server-error", "http_status"),
    _f("unavailable-once", RECORDS),
    _f("invalid-json", "unparseable_body"),
    _f("truncated-json", "unparseable_body"),
    _f("deep-json", "unparseable_body"),
    _f("huge-declared", "response_too_large"),
    _f("huge-streamed", "response_too_large"),
    _f("gzip-bomb", "response_too_large"),
    _f("bad-gzip", "unparseable_body"),
    _f("brotli", "unparseable_body"),
    _f("redirect-loop", "network"),
    _f("redirect-cross-header", RECORDS, "/redirect-cross"),
    _f("redirect-cross-query", RECORDS, "/redirect-cross", source="fault_query"),
    _f("redirect-same-origin", RECORDS, "/redirect-same"),
    _f("bad-redirect", "network"),
    _f("short", "network", message_has="broke off"),
    _f("json-as-xml", RECORDS),
    _f("broken-json-as-xml", "unparseable_body", message_has="not valid JSON, labelled text/xml"),
    _f("html", "unparseable_body|no_records"),
    _f("empty", "unparseable_body"),
    _f("not-utf8", "unparseable_body"),
    _f("trickle-timeout", "timeout", "/trickle", message_has="did not answer in full"),
    _f("trickle-deadline", "timeout", "/trickle", timeout_s=600.0, message_has="step took longer"),
    _f("reset", "network"),
    _f("unauthorized-echo", "http_status"),
    _f("unauthorized-echo-query", "http_status", "/unauthorized-echo", source="fault_query"),
    _f("not-found", "no_records"),
)


@dataclass
class Limits:
    """The run's limits and fault sizes."""

    timeout_s: float = 2.0
    deadline_s: float = 5.0
    max_bytes: int = 20 * 1024 * 1024
    options: FaultOptions = field(default_factory=FaultOptions)

    @classmethod
    def small(cls) -> Limits:
        """Limits and fault sizes small enough for a quick run in the test suite."""
        return cls(timeout_s=0.4, deadline_s=1.0, max_bytes=1024 * 1024,
                   options=FaultOptions(huge_bytes=50 * 1024 * 1024, bomb_bytes=64 * 1024 * 1024,
                                        trickle_interval_s=0.02))


@dataclass
class Outcome:
    """How the executor handled one fault, and what went wrong if it did not."""

    fault: str
    handled: bool
    got: str
    elapsed_s: float
    problem: str = ""


@dataclass
class Report:
    """What the fault run measured."""

    tried: int
    handled: int
    outcomes: list[Outcome]
    concurrent_ok: bool
    seconds: float
    peak_rss_mb: float
    rss_growth_mb: float

    def summary(self) -> str:
        """One line: faults handled, the concurrent healthy step, the slowest fault, memory, time."""
        slowest = max(self.outcomes, key=lambda o: o.elapsed_s)
        failed = [f"{o.fault} ({o.problem})" for o in self.outcomes if not o.handled]
        return (
            f"faults tried {self.tried}, handled {self.handled}; healthy step beside all faults: "
            f"{'ok' if self.concurrent_ok else 'FAILED'}; slowest {slowest.fault} {slowest.elapsed_s:.2f} s; "
            f"peak RSS {self.peak_rss_mb:.0f} MB (+{self.rss_growth_mb:.0f} MB during the run); "
            f"{self.seconds:.1f} s" + (f"; not handled: {', '.join(failed)}" if failed else "")
        )


def fault_sources(base_url: str) -> dict[str, Source]:
    """Two sources with one endpoint per fault path: a header key and a query key (``appid``)."""
    paths = sorted({f.path for f in FAULTS} | {"/ok", "/echo"})
    endpoints = [{
        "id": path.strip("/").replace("-", "_"), "base_url": base_url, "path": path,
        "fields": [
            {"name": "sample_id", "path": "id", "type": "string", "group": "identity", "identifier": True},
            {"name": "formula", "path": "formula", "type": "string", "group": "composition"},
            {"name": "gap", "path": "gap", "type": "number", "unit": "eV", "group": "electronic"},
        ],
    } for path in paths]
    common = {"title": "Fault server", "domain": "materials", "source_type": "experimental",
              "license": {"id": "CC0-1.0", "name": "CC0"}, "endpoints": endpoints}
    return {
        "fault_header": Source.model_validate(
            {**common, "id": "fault_header", "auth": {"env": "FAULT_TOKEN", "in": "header", "name": "X-Lab-Token"}}),
        "fault_query": Source.model_validate(
            {**common, "id": "fault_query", "auth": {"env": "FAULT_APPID", "in": "query", "name": "appid"}}),
    }


def _executor(sources: dict[str, Source], limits: Limits, fault: Fault | None = None) -> Executor:
    timeout = fault.timeout_s if fault and fault.timeout_s else limits.timeout_s
    deadline = fault.deadline_s if fault and fault.deadline_s else limits.deadline_s
    config = HttpConfig(timeout_s=timeout, retries=2, backoff_s=0.0, max_backoff_s=0.0, max_bytes=limits.max_bytes)
    adapter = HttpJsonAdapter(AdapterSpec(records="data"))
    return Executor(Declarations(sources=sources), {sid: adapter for sid in sources}, config=config, env=ENV,
                    step_timeout_s=deadline)


def _step(fault: Fault, run: int) -> PlanStep:
    return PlanStep(source=fault.source, endpoint=fault.path.strip("/").replace("-", "_"),
                    params={"run": str(run)}, fields=["formula", "gap"])


def judge(fault: Fault, step: StepResult, elapsed: float, limits: Limits, server: FaultServer,
          peer: FaultServer) -> Outcome:
    """Whether one fault's step ended as it should; the first problem found otherwise."""
    got = RECORDS if step.ok else (step.error.kind if step.error else "?")
    shown = step.model_dump_json()
    deadline = fault.deadline_s or limits.deadline_s
    problem = ""
    if got not in fault.expect:
        detail = f": {step.error.message[:120]}" if step.error else ""
        problem = f"expected {'|'.join(sorted(fault.expect))}, got {got}{detail}"
    elif fault.message_has and (step.error is None or fault.message_has not in step.error.message):
        problem = f"message lacks {fault.message_has!r}"
    elif HEADER_KEY in shown or QUERY_KEY in shown:
        problem = "a key shows in the step result"
    elif elapsed > deadline + 1.0:
        problem = f"took {elapsed:.1f} s, past the {deadline:g} s deadline"
    elif fault.path == "/redirect-cross" and any(_carries_key(seen) for seen in peer.seen):
        problem = "the key reached the other origin"
    elif fault.name == "redirect-same-origin" and not any(
        seen.path == "/echo" and seen.headers.get("x-lab-token") == HEADER_KEY for seen in server.seen
    ):
        problem = "a same-origin redirect lost the key"
    return Outcome(fault.name, not problem, got, round(elapsed, 3), problem)


def _carries_key(seen: Any) -> bool:
    return HEADER_KEY in json.dumps(seen.headers) or QUERY_KEY in json.dumps(seen.query)


def _rss_mb() -> float:
    # ru_maxrss is KiB on Linux, bytes on macOS.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def run_faults(limits: Limits | None = None) -> Report:
    """Replay the whole fault set; see the module docstring for what counts as handled."""
    limits = limits or Limits()
    gzip_bomb(limits.options.bomb_bytes)  # built before the clock starts: the server serves it at once
    started = time.perf_counter()
    before = _rss_mb()
    outcomes: list[Outcome] = []
    with FaultServer(limits.options) as peer, FaultServer(limits.options, peer=peer) as server:
        sources = fault_sources(server.url)
        for run, fault in enumerate(FAULTS):
            executor = _executor(sources, limits, fault)
            plan = Plan(query=fault.name, registry_fingerprint=None, steps=[_step(fault, run)])
            t0 = time.perf_counter()
            [step] = executor.run_sync(plan).steps
            outcomes.append(judge(fault, step, time.perf_counter() - t0, limits, server, peer))
        # All faults at once beside a healthy step: the healthy one must still return its records.
        healthy = PlanStep(source="fault_header", endpoint="ok", params={}, fields=["formula", "gap"])
        together = [_step(f, 1000 + i) for i, f in enumerate(FAULTS) if f.timeout_s is None] + [healthy]
        result = _executor(sources, limits).run_sync(Plan(query="all", registry_fingerprint=None, steps=together))
        concurrent_ok = result.steps[-1].ok and all(
            s.error is None or s.error.kind != "adapter_error" for s in result.steps
        )
    peak = _rss_mb()
    return Report(
        tried=len(outcomes), handled=sum(o.handled for o in outcomes), outcomes=outcomes,
        concurrent_ok=concurrent_ok, seconds=round(time.perf_counter() - started, 2),
        peak_rss_mb=round(peak, 1), rss_growth_mb=round(peak - before, 1),
    )


def main(argv: list[str] | None = None) -> int:
    """Run the fault set; exit 1 when any fault was not handled."""
    parser = argparse.ArgumentParser(prog="python -m schemarouter_bench.reliability", description=__doc__)
    parser.add_argument("--small", action="store_true", help="tiny sizes and timeouts (seconds, not minutes)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    report = run_faults(Limits.small() if args.small else Limits())
    if args.json:
        print(json.dumps(asdict(report), indent=2))
    else:
        for outcome in report.outcomes:
            mark = "ok " if outcome.handled else "BAD"
            print(f"{mark} {outcome.fault:<26} {outcome.got:<20} {outcome.elapsed_s:6.2f} s  {outcome.problem}")
        print(report.summary())
    return 0 if report.handled == report.tried and report.concurrent_ok else 1


if __name__ == "__main__":
    sys.exit(main())
