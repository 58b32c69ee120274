"""The one HTTP client every adapter shares: timeouts, retries, a size cap, politeness.

Every request to a source goes through :func:`send`, which retries 429 and 5xx a bounded number
of times with exponential backoff (honoring ``Retry-After``), streams the body and stops at
``max_bytes``, and holds a per-source semaphore so one plan cannot hammer one API. Errors come
out as typed :class:`~schemarouter.execution.errors.StepError` subclasses.
"""

from __future__ import annotations

import asyncio
import email.utils
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from schemarouter import __version__
from schemarouter.execution.errors import (
    HttpStatusError,
    NetworkError,
    RateLimited,
    ResponseTooLarge,
    StepTimeout,
)

USER_AGENT = f"schemarouter/{__version__} (+https://github.com/schemarouter/schemarouter)"
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


@dataclass(frozen=True)
class HttpConfig:
    """Limits for one run. ``retries`` counts extra attempts after the first."""

    timeout_s: float = 30.0
    retries: int = 3
    backoff_s: float = 0.5
    max_backoff_s: float = 20.0
    max_bytes: int = 20 * 1024 * 1024
    per_source_concurrency: int = 4


@dataclass
class SourceLimits:
    """Per-source semaphores, created on first use inside the running loop."""

    concurrency: int = 4
    _semaphores: dict[str, asyncio.Semaphore] = field(default_factory=dict)

    def semaphore(self, source: str) -> asyncio.Semaphore:
        if source not in self._semaphores:
            self._semaphores[source] = asyncio.Semaphore(self.concurrency)
        return self._semaphores[source]


def make_client(config: HttpConfig | None = None, **kwargs: Any) -> httpx.AsyncClient:
    """An ``httpx.AsyncClient`` with the project's User-Agent and timeouts."""
    config = config or HttpConfig()
    headers = {"User-Agent": USER_AGENT, "Accept": "application/json, application/xml;q=0.9, */*;q=0.5"}
    headers.update(kwargs.pop("headers", {}) or {})
    return httpx.AsyncClient(
        headers=headers, timeout=httpx.Timeout(config.timeout_s), follow_redirects=True, **kwargs
    )


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (now if now is not None else time.time()))


async def _sleep(seconds: float) -> None:
    await asyncio.sleep(seconds)


@dataclass
class Response:
    """A fully read response: status, headers and body bytes (at most ``max_bytes``)."""

    status: int
    headers: httpx.Headers
    content: bytes
    url: str


async def _read_capped(response: httpx.Response, max_bytes: int, source: str) -> bytes:
    declared = response.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise ResponseTooLarge(
            f"{source}: response of {int(declared):,} bytes exceeds the {max_bytes:,}-byte cap"
        )
    chunks: list[bytes] = []
    total = 0
    async for chunk in response.aiter_bytes():
        total += len(chunk)
        if total > max_bytes:
            raise ResponseTooLarge(f"{source}: response exceeds the {max_bytes:,}-byte cap")
        chunks.append(chunk)
    return b"".join(chunks)


async def send(
    client: httpx.AsyncClient,
    request: httpx.Request,
    *,
    source: str,
    config: HttpConfig,
    limits: SourceLimits | None = None,
    sleep: Any = None,
) -> Response:
    """Send with retries on 429/5xx; return the response or raise a typed StepError.

    A 4xx other than 429 is returned (the adapter decides what it means); a 429 or 5xx that
    outlasts the retries raises RateLimited or HttpStatusError.
    """
    semaphore = (limits or SourceLimits(config.per_source_concurrency)).semaphore(source)
    shown = request.url.copy_with(query=None)
    for attempt in range(config.retries + 1):
        async with semaphore:
            try:
                raw = await client.send(request, stream=True)
            except httpx.TimeoutException:
                raise StepTimeout(f"{source}: no response from {shown} within {config.timeout_s:g} s") from None
            except httpx.HTTPError as exc:
                raise NetworkError(f"{source}: request to {shown} failed: {exc}") from None
            except Exception as exc:
                if type(exc).__name__ == "CannotOverwriteExistingCassetteException":  # vcrpy, offline replay
                    raise NetworkError(
                        f"{source}: offline replay has no recording for {request.method} {request.url}"
                    ) from None
                raise
            try:
                retry = raw.status_code in RETRY_STATUSES and attempt < config.retries
                if not retry:
                    content = await _read_capped(raw, config.max_bytes, source)
                    break
                wait = retry_after_seconds(raw.headers.get("retry-after"))
            except httpx.TimeoutException:
                raise StepTimeout(f"{source}: reading {shown} took longer than {config.timeout_s:g} s") from None
            finally:
                await raw.aclose()
        if wait is None:
            wait = config.backoff_s * (2**attempt)
        await (sleep or _sleep)(min(wait, config.max_backoff_s))
    status = raw.status_code
    if status == 429:
        raise RateLimited(f"{source}: still rate limited (HTTP 429) after {config.retries} retries")
    if status >= 500:
        raise HttpStatusError(f"{source}: HTTP {status} from {shown} after {config.retries} retries", status)
    return Response(status, raw.headers, content, str(request.url))
