"""Service load: plans per second and latency of ``POST /v1/plan`` at 1, 8 and 64 concurrent clients.

One ``schemarouter serve`` process (offline only, the access log off) over the frozen benchmark
registry in a fresh SQLite file; the clients (:mod:`schemarouter_bench.loadgen`) run in this process
and cycle through the dev questions. Per level: completed plans per second, p50/p99 latency, errors;
the server's resident memory after each level and its peak. Beside it: the size of the MCP tool
definitions an agent's prompt carries, in the same cl100k tokens as the prompt-all baseline.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from schemarouter_bench import aggregate as agg
from schemarouter_bench.frozen import Frozen
from schemarouter_bench.loadgen import post_request, run_level

LEVELS = (1, 8, 64)
SECONDS = 8.0
WARMUP_SECONDS = 2.0
HOST = "127.0.0.1"


def free_port() -> int:
    """A TCP port on the loopback address that nothing listens on now."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def memory_mb(pid: int) -> tuple[float, float]:
    """(resident now, peak resident) of a process, MB (Linux /proc; zeros elsewhere)."""
    values = {"VmRSS": 0.0, "VmHWM": 0.0}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                key = line.split(":", 1)[0]
                if key in values:
                    values[key] = int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return values["VmRSS"], values["VmHWM"]


def stop_process(process: subprocess.Popen[bytes], grace_s: float = 15) -> None:
    """Ask a server process to stop (SIGTERM: uvicorn shuts down cleanly), kill it after ``grace_s``."""
    process.terminate()
    try:
        process.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=grace_s)


def cpu_s(pid: int) -> float:
    """User + system CPU seconds a process has used (Linux /proc; 0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _wait_healthy(port: int, process: subprocess.Popen[bytes], timeout_s: float = 120) -> None:
    import httpx

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"serve exited with {process.returncode}")
        try:
            if httpx.get(f"http://{HOST}:{port}/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"serve did not answer /healthz within {timeout_s:g} s")


def mcp_tool_tokens(url: str) -> dict[str, int]:
    """cl100k tokens of the MCP tool definitions (without and with their output schemas)."""
    from schemarouter.service import Service, ServiceConfig
    from schemarouter.service.mcp_server import create_server, tool_definition_tokens, tool_definitions
    from schemarouter.service.state import RegistryState

    state = RegistryState(url)
    try:
        definitions = tool_definitions(create_server(Service(state, ServiceConfig())))
    finally:
        state.close()
    return {
        "tools": len(definitions),
        "tokens": tool_definition_tokens(definitions),
        "tokens_with_output_schema": tool_definition_tokens(definitions, with_output_schema=True),
    }


def run_load(
    frozen: Frozen,
    questions: list[str],
    levels: tuple[int, ...] = LEVELS,
    seconds: float = SECONDS,
    say: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Start a server on ``frozen``, drive it at each level, and return the figures."""
    from schemarouter.registry import Registry

    say = say or (lambda _m: None)
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    with tempfile.TemporaryDirectory(prefix="sr-load-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'registry.db'}"
        with Registry.open(url) as registry:
            registry.replace(frozen.decls)
        port = free_port()
        env = {**os.environ, "SCHEMAROUTER_HOME": tmp}
        env.pop("SCHEMAROUTER_API_TOKEN", None)
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "schemarouter",
                "serve",
                "--db",
                url,
                "--port",
                str(port),
                "--no-live",
                "--log-level",
                "warning",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        try:
            say("service load: starting the server")
            _wait_healthy(port, process)
            idle_rss, _ = memory_mb(process.pid)
            requests = [post_request(HOST, port, "/v1/plan", {"question": q}) for q in questions]
            run_level(HOST, port, requests, 4, WARMUP_SECONDS)
            rows: list[dict[str, Any]] = []
            for clients in levels:
                say(f"service load: {clients} client(s) for {seconds:g} s")
                cpu_before = cpu_s(process.pid)
                result = run_level(HOST, port, requests, clients, seconds)
                cpu = cpu_s(process.pid) - cpu_before
                rss, peak = memory_mb(process.pid)
                rows.append(
                    {
                        "clients": clients,
                        "requests": result.requests,
                        "errors": result.errors,
                        "plans_per_s": result.requests / result.seconds if result.seconds else 0.0,
                        "p50_ms": agg.percentile(result.latencies_ms, 50) if result.latencies_ms else None,
                        "p99_ms": agg.percentile(result.latencies_ms, 99) if result.latencies_ms else None,
                        "rss_mb": rss,
                        "rss_peak_mb": peak,
                        # the server's own CPU per answered plan: its capacity on a core it had to itself,
                        # which a shared machine's throughput figure cannot show
                        "server_cpu_ms_per_plan": 1000 * cpu / result.requests if result.requests else None,
                        "server_cpu_share": cpu / result.seconds if result.seconds else None,
                    }
                )
        finally:
            stop_process(process)
        say("service load: MCP tool definition size")
        tokens = mcp_tool_tokens(url)
    return {
        "sources": len(frozen.decls.sources),
        "questions": len(questions),
        "seconds_per_level": seconds,
        "server_idle_rss_mb": idle_rss,
        "levels": rows,
        "mcp": tokens,
        "cpus": os.cpu_count(),
        "load_average_before": load_before,
        "load_average_after": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }
