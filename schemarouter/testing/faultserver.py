"""A misbehaving HTTP server on 127.0.0.1, for replaying network faults against the real client.

Each path is one fault (``/hang``, ``/gzip-bomb``, ``/short``, ...), written byte by byte on a
real socket so that what the client sees is exactly what a broken server sends: a body cut short
of its Content-Length, a trickle, a reset, a redirect loop. :mod:`schemarouter_bench.reliability`
runs the fault set through the executor; the tests use the server directly.
"""

from __future__ import annotations

import gzip
import json
import socket
import socketserver
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Self
from urllib.parse import parse_qsl, urlsplit

GOOD = {"data": [{"id": "s1", "formula": "GaN", "gap": 3.4}]}


@dataclass
class Seen:
    """One request as the server received it."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]


@dataclass
class FaultOptions:
    """Sizes of the heavy faults (small in tests, real-sized in the benchmark)."""

    huge_bytes: int = 200 * 1024 * 1024
    bomb_bytes: int = 1024 * 1024 * 1024
    trickle_interval_s: float = 0.05


class _Handler(socketserver.StreamRequestHandler):
    server: _Server

    def handle(self) -> None:
        try:
            line = self.rfile.readline(65537).decode("latin-1").strip()
            if not line:
                return
            method, target, _version = [*line.split(" ", 2), "", ""][:3]
            headers: dict[str, str] = {}
            while True:
                raw = self.rfile.readline(65537).decode("latin-1").strip()
                if not raw:
                    break
                name, _, value = raw.partition(":")
                headers[name.strip().lower()] = value.strip()
            length = int(headers.get("content-length") or 0)
            if length:
                self.rfile.read(length)
            parts = urlsplit(target)
            seen = Seen(method, parts.path, dict(parse_qsl(parts.query)), headers)
            self.server.record(seen)
            route = self.server.routes.get(parts.path.rstrip("/") or "/", _not_found)
            route(self, seen)
        except OSError:  # BrokenPipe, ConnectionReset, timeouts
            pass  # the client hung up: what a cap or a timeout does

    # -- writing helpers ------------------------------------------------------------
    def send(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None,
             content_type: str = "application/json", length: int | None = None) -> None:
        lines = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}", f"Content-Type: {content_type}",
                 "Connection: close"]
        for name, value in (headers or {}).items():
            lines.append(f"{name}: {value}")
        lines.append(f"Content-Length: {len(body) if length is None else length}")
        self.wfile.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        self.wfile.flush()

    def send_json(self, status: int, document: Any, headers: dict[str, str] | None = None) -> None:
        self.send(status, json.dumps(document).encode(), headers)


_REASONS = {200: "OK", 302: "Found", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found",
            429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable"}
Route = Callable[[_Handler, Seen], None]


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, routes: dict[str, Route]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.routes = routes
        self.seen: list[Seen] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.counters: dict[str, int] = {}

    def record(self, seen: Seen) -> None:
        with self.lock:
            self.seen.append(seen)

    def count(self, key: str) -> int:
        with self.lock:
            self.counters[key] = self.counters.get(key, 0) + 1
            return self.counters[key]


@dataclass
class FaultServer:
    """The server, started in a thread; use as a context manager. ``peer`` is a second origin."""

    options: FaultOptions = field(default_factory=FaultOptions)
    peer: FaultServer | None = None
    _server: _Server | None = None
    _thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The running server's base URL."""
        assert self._server is not None, "the server is not started"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def seen(self) -> list[Seen]:
        """A copy of every request the server has received so far."""
        assert self._server is not None
        with self._server.lock:
            return list(self._server.seen)

    def __enter__(self) -> Self:
        self._server = _Server(_routes(self))
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        assert self._server is not None
        self._server.stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def wait(self, seconds: float) -> None:
        """Sleep up to ``seconds``, ending early when the server stops (a hanging route's pause)."""
        assert self._server is not None
        self._server.stopping.wait(seconds)

    def count(self, key: str) -> int:
        """Bump the counter named ``key`` and return its new value (for once-only faults)."""
        assert self._server is not None
        return self._server.count(key)


@lru_cache(maxsize=4)
def gzip_bomb(size: int) -> bytes:
    """``size`` zero bytes, gzip-compressed twice: 1 GiB becomes about 1.8 KB."""
    inner = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunk = bytes(1024 * 1024)
    parts = []
    remaining = size
    while remaining > 0:
        piece = chunk if remaining >= len(chunk) else bytes(remaining)
        parts.append(inner.compress(piece))
        remaining -= len(piece)
    parts.append(inner.flush())
    return gzip.compress(b"".join(parts), 9)


def _routes(fs: FaultServer) -> dict[str, Route]:
    options = fs.options

    def ok(h: _Handler, seen: Seen) -> None:
        h.send_json(200, GOOD)

    def echo(h: _Handler, seen: Seen) -> None:
        """Records of what arrived: the redirect tests read them back."""
        h.send_json(200, {"data": [{"id": "echo", "formula": json.dumps({"headers": seen.headers,
                                                                         "query": seen.query})}]})

    def hang(h: _Handler, seen: Seen) -> None:
        fs.wait(3600)

    def rate_limited(h: _Handler, seen: Seen) -> None:
        h.send_json(429, {"message": "slow down"}, {"Retry-After": "0"})

    def rate_limited_once(h: _Handler, seen: Seen) -> None:
        if fs.count(seen.path + seen.query.get("run", "")) == 1:
            h.send_json(429, {"message": "slow down"}, {"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"})
        else:
            h.send_json(200, GOOD)

    def server_error(h: _Handler, seen: Seen) -> None:
        h.send_json(500, {"error": "boom"})

    def unavailable_once(h: _Handler, seen: Seen) -> None:
        if fs.count(seen.path + seen.query.get("run", "")) == 1:
            h.send(503, b"<html>busy</html>", content_type="text/html")
        else:
            h.send_json(200, GOOD)

    def invalid_json(h: _Handler, seen: Seen) -> None:
        h.send(200, b"{data: [oops")

    def truncated_json(h: _Handler, seen: Seen) -> None:
        h.send(200, json.dumps(GOOD).encode()[:25])

    def deep_json(h: _Handler, seen: Seen) -> None:
        h.send(200, b"[" * 100_000 + b"]" * 100_000)

    def huge_declared(h: _Handler, seen: Seen) -> None:
        h.send(200, b'{"data": [', length=options.huge_bytes)

    def huge_streamed(h: _Handler, seen: Seen) -> None:
        h.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n")
        chunk = b" " * 65536
        sent = 0
        while sent < options.huge_bytes and not fs._server.stopping.is_set():  # type: ignore[union-attr]
            h.wfile.write(chunk)
            sent += len(chunk)

    def bomb(h: _Handler, seen: Seen) -> None:
        h.send(200, gzip_bomb(options.bomb_bytes), {"Content-Encoding": "gzip, gzip"})

    def bad_gzip(h: _Handler, seen: Seen) -> None:
        h.send(200, b"\x1f\x8b\x08\x00garbage-not-gzip", {"Content-Encoding": "gzip"})

    def brotli(h: _Handler, seen: Seen) -> None:
        h.send(200, b"\x0b\x02\x80{}\x03", {"Content-Encoding": "br"})

    def redirect_loop(h: _Handler, seen: Seen) -> None:
        h.send(302, b"", {"Location": "/redirect-loop"})

    def redirect_cross(h: _Handler, seen: Seen) -> None:
        target = fs.peer.url if fs.peer is not None else fs.url.replace("127.0.0.1", "localhost")
        query = "&".join(f"{k}={v}" for k, v in seen.query.items())
        h.send(302, b"", {"Location": f"{target}/echo?{query}"})

    def redirect_same(h: _Handler, seen: Seen) -> None:
        query = "&".join(f"{k}={v}" for k, v in seen.query.items())
        h.send(302, b"", {"Location": f"/echo?{query}"})

    def bad_redirect(h: _Handler, seen: Seen) -> None:
        h.send(302, b"", {"Location": "http://[::1"})

    def short(h: _Handler, seen: Seen) -> None:
        h.send(200, json.dumps(GOOD).encode()[:20], length=1000)

    def json_as_xml(h: _Handler, seen: Seen) -> None:
        h.send(200, json.dumps(GOOD).encode(), content_type="text/xml")

    def broken_json_as_xml(h: _Handler, seen: Seen) -> None:
        h.send(200, b'{"data": [1, 2', content_type="text/xml; charset=utf-8")

    def html(h: _Handler, seen: Seen) -> None:
        h.send(200, b"<html><body><h1>Maintenance</h1><p>Back soon</body></html>", content_type="text/html")

    def empty(h: _Handler, seen: Seen) -> None:
        h.send(200, b"")

    def not_utf8(h: _Handler, seen: Seen) -> None:
        h.send(200, b'{"data": [{"id": "\xff\xfe"}]}')

    def trickle(h: _Handler, seen: Seen) -> None:
        body = json.dumps(GOOD).encode() + b" " * 4000
        h.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                      + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode())
        for index in range(len(body)):
            if fs._server.stopping.is_set():  # type: ignore[union-attr]
                return
            h.wfile.write(body[index:index + 1])
            h.wfile.flush()
            time.sleep(options.trickle_interval_s)

    def reset(h: _Handler, seen: Seen) -> None:
        h.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        h.connection.close()

    def unauthorized_echo(h: _Handler, seen: Seen) -> None:
        """An API that quotes the offending request, key and all, in its error."""
        token = seen.headers.get("x-lab-token", "")
        h.send_json(401, {"message": f"invalid key {token} for {seen.path}?{'&'.join(f'{k}={v}' for k, v in seen.query.items())}"})

    def not_found(h: _Handler, seen: Seen) -> None:
        h.send_json(404, {"detail": "no such sample"})

    return {
        "/ok": ok, "/echo": echo, "/hang": hang, "/rate-limited": rate_limited,
        "/rate-limited-once": rate_limited_once, "/server-error": server_error,
        "/unavailable-once": unavailable_once, "/invalid-json": invalid_json, "/truncated-json": truncated_json,
        "/deep-json": deep_json, "/huge-declared": huge_declared, "/huge-streamed": huge_streamed,
        "/gzip-bomb": bomb, "/bad-gzip": bad_gzip, "/brotli": brotli, "/redirect-loop": redirect_loop,
        "/redirect-cross": redirect_cross, "/redirect-same": redirect_same, "/bad-redirect": bad_redirect,
        "/short": short, "/json-as-xml": json_as_xml, "/broken-json-as-xml": broken_json_as_xml, "/html": html,
        "/empty": empty, "/not-utf8": not_utf8, "/trickle": trickle, "/reset": reset,
        "/unauthorized-echo": unauthorized_echo, "/not-found": not_found,
    }


def _not_found(h: _Handler, seen: Seen) -> None:
    h.send_json(404, {"detail": f"no fault at {seen.path}"})
