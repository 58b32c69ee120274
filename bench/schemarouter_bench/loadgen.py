"""A closed-loop HTTP load generator: N clients, each one keep-alive connection, one request at a time,
on one server or spread evenly over several.

Hand-written on asyncio streams (with uvloop when installed) rather than on an HTTP client
library: on a 2-core machine the generator shares the CPU with the server it measures, and a
full client (httpx: connection pool, header models, decoding) spends several times the CPU per
request, so it would measure itself. The server is our own and always answers with a
Content-Length, which is all the response parsing this needs.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field


@dataclass
class LoadResult:
    """What one load level saw: completed requests, their latencies, and failures."""

    clients: int
    seconds: float
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    answered_by_port: dict[int, int] = field(default_factory=dict)  # 200s per server port

    @property
    def requests(self) -> int:
        """Requests answered with 200."""
        return len(self.latencies_ms)


def post_request(host: str, port: int, path: str, body: dict[str, object]) -> bytes:
    """The bytes of one keep-alive JSON POST."""
    data = json.dumps(body).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\nConnection: keep-alive\r\n\r\n"
    ).encode()
    return head + data


async def _read_response(reader: asyncio.StreamReader) -> int:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
            break
    await reader.readexactly(length)
    return status


async def _client(
    streams: tuple[asyncio.StreamReader, asyncio.StreamWriter],
    address: tuple[str, int],
    requests: list[bytes],
    offset: int,
    until: float,
    result: LoadResult,
) -> None:
    reader, writer = streams
    i = offset
    try:
        while time.perf_counter() < until:
            started = time.perf_counter()
            writer.write(requests[i % len(requests)])
            i += 1
            try:
                status = await _read_response(reader)
            except (asyncio.IncompleteReadError, ConnectionError):
                result.errors += 1
                writer.close()
                reader, writer = await asyncio.open_connection(*address)
                continue
            result.statuses[status] = result.statuses.get(status, 0) + 1
            if status == 200:
                result.latencies_ms.append((time.perf_counter() - started) * 1000)
                result.answered_by_port[address[1]] = result.answered_by_port.get(address[1], 0) + 1
            else:
                result.errors += 1
    finally:
        writer.close()


async def _level(
    host: str, targets: list[tuple[int, list[bytes]]], clients: int, seconds: float
) -> LoadResult:
    result = LoadResult(clients=clients, seconds=seconds)
    # client k talks to target k mod len(targets): several servers get an even share of the clients
    ports = [targets[k % len(targets)][0] for k in range(clients)]
    # every connection is open before the clock starts: the level measures requests, not connection set-up
    streams = await asyncio.gather(*(asyncio.open_connection(host, port) for port in ports))
    started = time.perf_counter()
    until = started + seconds
    await asyncio.gather(
        *(
            _client(s, (host, ports[k]), targets[k % len(targets)][1], k * 7, until, result)
            for k, s in enumerate(streams)
        )
    )
    result.seconds = time.perf_counter() - started  # the last requests finish after the deadline
    return result


def run_level(host: str, port: int, requests: list[bytes], clients: int, seconds: float) -> LoadResult:
    """``clients`` concurrent closed-loop clients for ``seconds``, cycling through ``requests``."""
    return run_spread(host, [(port, requests)], clients, seconds)


def run_spread(
    host: str, targets: list[tuple[int, list[bytes]]], clients: int, seconds: float
) -> LoadResult:
    """``clients`` closed-loop clients spread evenly over several servers: ``targets`` holds each server's
    port and the requests to cycle through there (each carries its own Host header)."""
    if not targets:
        raise ValueError("no server to send requests to")
    try:
        import uvloop

        return uvloop.run(_level(host, targets, clients, seconds))
    except ImportError:
        return asyncio.run(_level(host, targets, clients, seconds))
