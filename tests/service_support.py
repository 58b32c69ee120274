"""Helpers for the service tests: real ``schemarouter serve`` processes on free ports, and JSON calls.

A server is a subprocess of the installed CLI (the same entry point a user runs), started once
per test module where the tests allow, stopped by its own pid.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from schemarouter_bench.load import stop_process

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 60.0,
    ) -> httpx.Response:
        """One request; ``body`` goes as JSON, ``raw`` as given."""
        content = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        send = {"content-type": "application/json"} if content is not None else {}
        send.update(headers or {})
        return httpx.request(method, self.url + path, content=content, headers=send, timeout=timeout)


def service_env(home: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCHEMAROUTER_")}
    env["SCHEMAROUTER_HOME"] = str(home)
    env.update(extra or {})
    return env


@asynccontextmanager
async def mcp_stdio(args: list[str], home: Path, errlog: Path) -> AsyncIterator[Any]:
    """An MCP client transport to ``schemarouter <args>`` over stdio, its stderr written to ``errlog``.
    The file is named, not left to the client library's default: that default is whatever
    ``sys.stderr`` was when the library was imported, which under a capturing test may be a stream
    with no file descriptor for the server process to write to."""
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "schemarouter", *args], env=service_env(home))
    with errlog.open("w", encoding="utf-8") as log:
        async with stdio_client(params, errlog=log) as streams:
            yield streams


@contextmanager
def serve(
    db_url: str, workdir: Path, *args: str, env: dict[str, str] | None = None, startup_s: float = 120.0
) -> Iterator[Server]:
    """A running ``schemarouter serve --db DB_URL ARGS`` on a free loopback port."""
    with cli_server(
        ["serve", "--db", db_url, *args], workdir, "/healthz", env=env, startup_s=startup_s
    ) as server:
        yield server


@contextmanager
def cli_server(
    command: list[str],
    workdir: Path,
    probe: str,
    *,
    env: dict[str, str] | None = None,
    startup_s: float = 120.0,
) -> Iterator[Server]:
    """``schemarouter COMMAND --port P`` running until ``probe`` answers (any HTTP status)."""
    port = free_port()
    log = workdir / f"server-{port}.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "schemarouter", *command, "--port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env or service_env(workdir / "home"),
            cwd=workdir,
        )
    server = Server(f"http://127.0.0.1:{port}", process, log)
    try:
        deadline = time.monotonic() + startup_s
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{command[0]} exited with {process.returncode}:\n{server.log_text()}")
            try:
                httpx.get(server.url + probe, timeout=2)
                break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{command[0]} did not come up in {startup_s:g} s:\n{server.log_text()}")
            time.sleep(0.2)
        yield server
    finally:
        stop_process(process)


def wait_for(predicate: Any, timeout_s: float, interval_s: float = 0.2) -> float:
    """Seconds until ``predicate()`` is true; AssertionError after ``timeout_s``."""
    started = time.monotonic()
    while not predicate():
        if time.monotonic() - started > timeout_s:
            raise AssertionError(f"not true within {timeout_s:g} s")
        time.sleep(interval_s)
    return time.monotonic() - started
