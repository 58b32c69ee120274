"""ASGI middleware for the HTTP service: request body size cap and bearer-token check.

Both are plain ASGI (no per-request task or body buffering), so they cost little on the
planning hot path. A refused request gets a JSON error; nothing of the request is echoed.
"""

from __future__ import annotations

import contextlib
import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


async def send_json(
    send: Send, status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    """Send a whole JSON response."""
    data = json.dumps(body).encode()
    head = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(data)).encode()),
        *(headers or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": data})


class BodyTooLarge(Exception):
    """Raised inside the app when a streamed body passes the cap."""


class BodyLimit:
    """Refuse bodies over ``max_bytes``: at once by Content-Length, else while streaming (413)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def _error(self) -> dict[str, str]:
        return {"error": f"request body larger than {self.max_bytes:,} bytes", "code": "too_large"}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the declared length, count the streamed body, answer 413 past the cap."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await send_json(
                        send, 400, {"error": "Content-Length is not a number", "code": "bad_request"}
                    )
                    return
                if declared > self.max_bytes:
                    await send_json(send, 413, self._error(), [(b"connection", b"close")])
                    return
        seen = 0
        over = False
        answered = False

        async def counted() -> Message:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    over = True
                    raise BodyTooLarge
            return message

        async def guarded(message: Message) -> None:
            # once the body ran over, whatever the app answers (it may call the failed read a parse
            # error) is replaced by the one 413
            nonlocal answered
            if over:
                if not answered:
                    answered = True
                    await send_json(send, 413, self._error(), [(b"connection", b"close")])
                return
            await send(message)

        with contextlib.suppress(BodyTooLarge):
            await self.app(scope, counted, guarded)
        if over and not answered:
            await send_json(send, 413, self._error(), [(b"connection", b"close")])


class BearerAuth:
    """Require ``Authorization: Bearer <token>`` on every path under ``protected`` (401 otherwise)."""

    def __init__(self, app: ASGIApp, token: str, protected: tuple[str, ...] = ("/v1/", "/mcp")) -> None:
        self.app = app
        self._token = token.encode()
        self.protected = protected

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on when its path is open or it carries the token; else 401."""
        if scope["type"] == "http" and scope["path"].startswith(self.protected):
            given = b""
            for name, value in scope.get("headers", ()):
                if name == b"authorization":
                    scheme, _, given = bytes(value).partition(b" ")
                    if scheme.lower() != b"bearer":
                        given = b""
                    break
            if not given or not hmac.compare_digest(given.strip(), self._token):
                await send_json(
                    send,
                    401,
                    {
                        "error": "missing or wrong bearer token (Authorization: Bearer ...)",
                        "code": "unauthorized",
                    },
                    [(b"www-authenticate", b"Bearer")],
                )
                return
        await self.app(scope, receive, send)
