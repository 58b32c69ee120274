"""One client session with one MCP server, opened once and used by every step of a run.

The SDK's client holds anyio task groups that must be left in the task that entered them, while a
run's steps are separate tasks that come and go. So a session lives in a task of its own: it
connects (``server/discover``, else the ``initialize`` handshake), says it is ready, and waits
until :meth:`McpSession.close`; steps send their ``tools/call`` requests through it from their own
tasks. Every wait is bounded: connecting by ``connect_timeout_s``, a call by its ``timeout_s``,
closing by a few seconds (then the task is cancelled, and the transport ends the server's process
tree). What failed is told in one line that names the server, and, when it exited, its exit code
and last stderr line.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import RootModel

from schemarouter import __version__
from schemarouter.execution import errors as E
from schemarouter.execution.mcp_transport import (
    TOO_LARGE,
    UNREADABLE,
    ServerState,
    bounded_stdio,
    http_transport,
)
from schemarouter.sources.mcp import McpServer

if TYPE_CHECKING:
    from mcp.client.client import Client

CLOSE_WAIT_S = 5.0
# Variables a stdio server inherits besides those it is given by name (the SDK's safe list).
INHERITED = ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")


def require_sdk() -> None:
    """InvalidStep when the ``mcp`` package is not installed."""
    try:
        import mcp.client.client  # noqa: F401
    except ImportError:
        raise E.InvalidStep(
            "MCP sources need the mcp package: pip install 'schemarouter-core[mcp]'"
        ) from None


class McpSession:
    """A connected client of one server, owned by a task of its own."""

    def __init__(
        self, server: McpServer, *, source: str, env: Mapping[str, str], headers: Mapping[str, str],
        timeout_s: float, max_bytes: int,
    ) -> None:
        self.server = server
        self.source = source
        self.env = dict(env)
        self.headers = dict(headers)
        self.timeout_s = timeout_s
        self.max_bytes = max_bytes
        self.state = ServerState()
        self.client: Client | None = None
        self._task: asyncio.Task[None] | None = None
        self._closing = asyncio.Event()
        self._failure: E.StepError | None = None

    @property
    def name(self) -> str:
        """The server as error messages name it."""
        return f"the MCP server ({self.server.label()})"

    # ------------------------------------------------------------------ lifetime
    async def open(self, connect_timeout_s: float) -> None:
        """Start the server (or reach it) and finish the handshake within ``connect_timeout_s``."""
        require_sdk()
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        ready.add_done_callback(lambda f: None if f.cancelled() else f.exception())  # read even when unawaited
        self._task = asyncio.create_task(self._own(ready), name=f"mcp session {self.source}")
        try:
            await asyncio.wait_for(asyncio.shield(ready), connect_timeout_s)
        except TimeoutError:
            message = self._with_exit(f"{self.source}: {self.name} did not answer initialize within {connect_timeout_s:g} s")
            await self.close()
            raise E.StepTimeout(message) from None
        except E.StepError as err:
            await self.close()
            self._failure = err
            raise

    async def _own(self, ready: asyncio.Future[None]) -> None:
        from mcp.client.client import Client
        from mcp_types import Implementation

        try:
            transport = self._transport()
            async with Client(transport, cache=None, client_info=Implementation(name="schemarouter", version=__version__),
                              read_timeout_seconds=self.timeout_s) as client:
                self.client = client
                if not ready.done():
                    ready.set_result(None)
                await self._closing.wait()
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # anything from the SDK or the process: one line for the step
            if not ready.done():
                ready.set_exception(self._connect_error(exc))
        finally:
            self.client = None
            if not ready.done():
                ready.set_exception(E.NetworkError(self._with_exit(f"{self.source}: {self.name} closed before it was ready")))

    def _transport(self) -> Any:
        server = self.server
        if server.command is not None:
            return bounded_stdio(server.command, self.env, self.state, cwd=server.cwd, max_bytes=self.max_bytes)
        assert server.url is not None
        return http_transport(server.url, self.headers, timeout_s=self.timeout_s, max_bytes=self.max_bytes)

    async def close(self) -> None:
        """End the session and the server; bounded, never raises."""
        self._closing.set()
        task = self._task
        if task is None or task.done():
            return
        if self.client is not None:  # connected: let it leave its contexts by itself
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(task), CLOSE_WAIT_S)
        if not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, CLOSE_WAIT_S)

    # ------------------------------------------------------------------ calls
    async def call_tool(self, tool: str, arguments: dict[str, Any], timeout_s: float) -> dict[str, Any]:
        """``tools/call`` and its raw result (a JSON object), or a StepError naming what went wrong."""
        import mcp_types as types
        from mcp.shared.exceptions import MCPError
        from mcp_types import CONNECTION_CLOSED
        from pydantic import ValidationError

        if self._failure is not None:
            raise type(self._failure)(str(self._failure))
        client = self.client
        if client is None:
            raise E.NetworkError(self._with_exit(f"{self.source}: {self.name} is not running"))
        request = types.CallToolRequest(params=types.CallToolRequestParams(name=tool, arguments=arguments))
        try:
            raw = (await client.session.send_request(request, RawResult, request_read_timeout_seconds=timeout_s)).root
        except MCPError as exc:
            if exc.code == CONNECTION_CLOSED:
                await self._await_exit()
            raise self.call_error(f"tools/call {tool}", exc, timeout_s) from None
        except ValidationError as exc:
            first = exc.errors()[0].get("msg", "invalid") if exc.errors() else "invalid"
            raise E.UnparseableBody(f"{self.source}: tools/call {tool} returned no valid MCP tool result ({first})") from None
        return raw

    async def _await_exit(self) -> None:
        """Give a server that closed the connection a moment to exit, so its exit code can be named."""
        for _ in range(20):
            if self.state.returncode is not None:
                return
            await asyncio.sleep(0.05)

    def call_error(self, operation: str, exc: Exception, timeout_s: float) -> E.StepError:
        """The StepError for a failed request (``operation``: ``tools/call NAME``, ``tools/list``)."""
        from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT

        code = getattr(exc, "code", None)
        message = str(getattr(exc, "message", exc))
        what = f"{self.source}: {operation}"
        if code == REQUEST_TIMEOUT:
            hint = f" ({self.state.problem})" if self.state.problem else ""
            return E.StepTimeout(f"{what}: {self.name} did not answer within {timeout_s:g} s{hint}")
        if code == CONNECTION_CLOSED:
            return E.NetworkError(self._with_exit(f"{what}: {self.name} closed the connection during the call"))
        if code == TOO_LARGE:
            return E.ResponseTooLarge(f"{what}: {message}")
        if code == UNREADABLE:
            return E.UnparseableBody(f"{what}: {message}")
        return E.ToolError(f"{what}: the server answered with error {code}: {message[:200]}")

    def _connect_error(self, exc: BaseException) -> E.StepError:
        if isinstance(exc, E.StepError):
            return exc
        leaf = _leaf(exc)
        if isinstance(leaf, FileNotFoundError | PermissionError):
            return E.NetworkError(f"{self.source}: cannot start {self.name}: {leaf.strerror or type(leaf).__name__}")
        code = getattr(leaf, "code", None)
        detail = str(getattr(leaf, "message", "") or leaf)[:160] or type(leaf).__name__
        if code is not None:
            return E.NetworkError(self._with_exit(f"{self.source}: {self.name} refused the handshake ({code}: {detail})"))
        return E.NetworkError(self._with_exit(f"{self.source}: {self.name} failed to connect: {type(leaf).__name__}: {detail}"))

    def _with_exit(self, message: str) -> str:
        """``message`` plus the server's exit code and last stderr line, when it exited."""
        state = self.state
        if state.returncode is None:
            return message
        tail = state.stderr_tail()
        return f"{message}; it exited with code {state.returncode}" + (f": {tail}" if tail else "")


class RawResult(RootModel[dict[str, Any]]):
    """A result as the JSON object it is (the SDK has checked it against the protocol already)."""


def _leaf(exc: BaseException) -> BaseException:
    """The first exception inside (nested) exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def server_env(server: McpServer, env: Mapping[str, str], auth_name: str | None, key: str | None) -> dict[str, str]:
    """The environment a stdio server starts with: the safe inherited variables, those it names, its key."""
    out = {name: env[name] for name in INHERITED if env.get(name)}
    for name in server.env:
        if env.get(name) is not None:
            out[name] = env[name]
    if auth_name and key:
        out[auth_name] = key
    return out
