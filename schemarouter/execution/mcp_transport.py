"""The transports an MCP session runs over, each bounded in what it reads.

The SDK's stdio transport reads a server's stdout line by line with no limit: a server writing a
50 MB line, or JSON nested 10,000 deep, costs memory and then leaves the request waiting for an
answer that never parses. :func:`bounded_stdio` starts the server itself (its own process group,
so the whole tree goes when the session ends), reads stdout in pieces and keeps at most
``max_bytes`` of one message: past that it drops the rest of the line and answers the request the
message belonged to (its ``id`` read from the line's head or tail) with an error of its own, and so
for a message too deep or not JSON-RPC at all. The last lines of the server's stderr are kept to
name why it stopped. :func:`http_transport` is the SDK's streamable HTTP client with the same cap
on every response and event. ``ServerState`` records what went wrong for the adapter's messages.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
from collections import deque
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
import anyio.abc

if TYPE_CHECKING:
    from mcp.client._transport import TransportStreams
    from mcp.shared.message import SessionMessage

# Error codes this client answers a request with when the server's message could not be read
# (outside JSON-RPC's reserved -32768..-32000).
TOO_LARGE = -31901
UNREADABLE = -31902
STDERR_LINES = 20
_ID = re.compile(rb'"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,18})')
_HEAD = 512


@dataclass
class ServerState:
    """What the transport saw go wrong; read by the adapter to explain a failed call."""

    problem: str | None = None
    returncode: int | None = None
    stderr: deque[str] = field(default_factory=lambda: deque(maxlen=STDERR_LINES))

    def stderr_tail(self) -> str:
        """The server's last stderr line that says something, shortened."""
        for line in reversed(self.stderr):
            if line.strip():
                text = line.strip()
                return text if len(text) <= 200 else text[:199] + "…"
        return ""


def _request_id(*pieces: bytes) -> int | str | None:
    for piece in pieces:
        m = _ID.search(piece)
        if m is not None:
            raw = m.group(1)
            return raw[1:-1].decode("utf-8", "replace") if raw.startswith(b'"') else int(raw)
    return None


def _error_message(request_id: int | str, code: int, message: str) -> SessionMessage:
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    error = types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message))
    return SessionMessage(error)


def _parse(line: bytes, state: ServerState) -> SessionMessage | Exception:
    """One line as a JSON-RPC message; an unreadable one answers its request with an error, if it has an id."""
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as exc:
        text = str(exc)
        why = "JSON nested too deeply" if "recursion limit" in text else "not a JSON-RPC message"
        state.problem = f"the server sent a message that cannot be read ({why})"
        request_id = _request_id(line[:_HEAD], line[-_HEAD:])
        if request_id is None:
            return ValueError(state.problem)
        return _error_message(request_id, UNREADABLE, state.problem)


class _Lines:
    """Splits a byte stream into lines, keeping at most ``cap`` bytes of one (the rest is counted, dropped)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.buf = bytearray()
        self.dropping = False
        self.size = 0
        self.head = b""
        self.tail = b""

    def feed(self, chunk: bytes) -> list[tuple[bytes, int | None]]:
        """Complete lines in ``chunk``: (line, None), or (head + tail, full size) for one over the cap."""
        out: list[tuple[bytes, int | None]] = []
        start = 0
        while True:
            nl = chunk.find(b"\n", start)
            piece = chunk[start:] if nl < 0 else chunk[start:nl]
            if self.dropping:
                self.size += len(piece)
                self.tail = (self.tail + piece)[-_HEAD:]
            elif len(self.buf) + len(piece) > self.cap:
                self.dropping = True
                joined = bytes(self.buf[:_HEAD]) + piece[:_HEAD]
                self.head = joined[:_HEAD]
                self.tail = (bytes(self.buf[-_HEAD:]) + piece)[-_HEAD:]
                self.size = len(self.buf) + len(piece)
                self.buf = bytearray()
            else:
                self.buf += piece
            if nl < 0:
                return out
            if self.dropping:
                out.append((self.head + b"\n" + self.tail, self.size))
                self.dropping, self.size = False, 0
            elif self.buf.strip():
                out.append((bytes(self.buf), None))
            self.buf = bytearray()
            start = nl + 1


@asynccontextmanager
async def bounded_stdio(
    argv: Sequence[str], env: Mapping[str, str], state: ServerState, *, cwd: str | None = None,
    max_bytes: int = 20 * 1024 * 1024,
) -> AsyncIterator[TransportStreams]:
    """Start ``argv`` as an MCP stdio server and yield the session's streams; the process tree ends on exit."""
    from mcp.shared.message import SessionMessage

    process = await anyio.open_process(
        list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(env), cwd=cwd,
        start_new_session=os.name == "posix",
    )
    read_send, read_recv = anyio.create_memory_object_stream[SessionMessage | Exception](8)
    write_send, write_recv = anyio.create_memory_object_stream[SessionMessage](8)

    async def read_stdout() -> None:
        assert process.stdout is not None
        lines = _Lines(max_bytes)
        async with read_send:
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream):
                async for chunk in process.stdout:
                    for line, oversize in lines.feed(chunk):
                        await read_send.send(_oversize(line, oversize, max_bytes, state) if oversize is not None
                                             else _parse(line, state))
            with anyio.move_on_after(1.0):  # stdout ended: the server is exiting; learn its exit code
                await process.wait()
            state.returncode = process.returncode

    async def read_stderr() -> None:
        assert process.stderr is not None
        lines = _Lines(4096)
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream):
            async for chunk in process.stderr:
                for line, _size in lines.feed(chunk):
                    state.stderr.append(line.decode("utf-8", "replace"))

    async def write_stdin() -> None:
        assert process.stdin is not None
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            async with write_recv:
                async for message in write_recv:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await process.stdin.send(data.encode("utf-8") + b"\n")

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(read_stdout)
            tg.start_soon(read_stderr)
            tg.start_soon(write_stdin)
            try:
                yield read_recv, write_send
            finally:
                tg.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            await _stop(process)
            state.returncode = process.returncode
            for stream in (read_send, read_recv, write_send, write_recv):
                stream.close()


def _oversize(excerpt: bytes, size: int, cap: int, state: ServerState) -> SessionMessage | Exception:
    head, _, tail = excerpt.partition(b"\n")
    state.problem = f"the server sent a message of {size:,} bytes, over the {cap:,}-byte cap"
    request_id = _request_id(head, tail)
    if request_id is None:
        return ValueError(state.problem)
    return _error_message(request_id, TOO_LARGE, state.problem)


async def _stop(process: anyio.abc.Process) -> None:
    """Close stdin, give the server a moment, then end its whole process group (TERM, then KILL)."""
    if process.stdin is not None:
        with contextlib.suppress(Exception):
            await process.stdin.aclose()
    for sig, wait in ((None, 0.5), (signal.SIGTERM, 1.0), (signal.SIGKILL, 2.0)):
        if sig is not None and process.returncode is None:
            _signal(process, sig)
        with anyio.move_on_after(wait):
            await process.wait()
        if process.returncode is not None:
            break
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(Exception):
                await stream.aclose()


def _signal(process: anyio.abc.Process, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        if os.name == "posix":
            os.killpg(process.pid, sig)
        else:  # pragma: no cover - the project runs on POSIX
            process.kill()


@asynccontextmanager
async def http_transport(
    url: str, headers: Mapping[str, str], *, timeout_s: float, max_bytes: int,
) -> AsyncIterator[TransportStreams]:
    """The SDK's streamable HTTP transport, every response body and event capped at ``max_bytes``."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    client = httpx2.AsyncClient(
        headers=dict(headers), timeout=httpx2.Timeout(timeout_s), transport=_capped_transport(max_bytes),
    )
    async with client, streamable_http_client(url, http_client=client, max_sse_event_size=max_bytes) as streams:
        yield streams


def _capped_transport(max_bytes: int) -> Any:
    """An httpx2 transport whose response bodies stop with an error past ``max_bytes``."""
    import httpx2

    class CappedBody(httpx2.AsyncByteStream):
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        async def __aiter__(self) -> AsyncIterator[bytes]:
            seen = 0
            async for chunk in self.inner:
                seen += len(chunk)
                if seen > max_bytes:
                    raise httpx2.ReadError(f"response over the {max_bytes:,}-byte cap")
                yield chunk

        async def aclose(self) -> None:
            await self.inner.aclose()

    class Capped(httpx2.AsyncHTTPTransport):
        async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
            response = await super().handle_async_request(request)
            declared = response.headers.get("content-length")
            if declared and declared.isdigit() and int(declared) > max_bytes:
                await response.aclose()
                raise httpx2.ReadError(f"response of {int(declared):,} bytes is over the {max_bytes:,}-byte cap")
            return httpx2.Response(response.status_code, headers=response.headers,
                                   stream=CappedBody(response.stream), extensions=response.extensions)

    return Capped()
