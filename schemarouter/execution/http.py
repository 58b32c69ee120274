"""The one HTTP client every adapter shares: timeouts, retries, a size cap, politeness.

Every request to a source goes through :func:`send`, which retries 429 and 5xx a bounded number
of times with exponential backoff (honoring ``Retry-After``), gives each attempt a total time
limit, streams and decodes the body in bounded pieces and stops at ``max_bytes`` decoded bytes,
follows redirects itself so that keys never leave their origin, and holds a per-source semaphore
so one plan cannot hammer one API. Errors come out as typed
:class:`~schemarouter.execution.errors.StepError` subclasses.
"""

from __future__ import annotations

import asyncio
import email.utils
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from schemarouter import USER_AGENT
from schemarouter.execution.decoding import BodyDecoder, EncodingError
from schemarouter.execution.errors import (
    HttpStatusError,
    NetworkError,
    NoRecording,
    RateLimited,
    ResponseTooLarge,
    StepError,
    StepTimeout,
    UnparseableBody,
)
from schemarouter.execution.limits import DEFAULT_TIMEOUT_S
from schemarouter.execution.secrets import Secrets

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
MAX_REDIRECTS = 10
ACCEPT_ENCODING = "gzip, deflate"  # the encodings decoding.BodyDecoder bounds


@dataclass(frozen=True)
class HttpConfig:
    """Limits for one run. ``retries`` counts extra attempts after the first."""

    timeout_s: float = DEFAULT_TIMEOUT_S
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
        """The semaphore that bounds concurrent requests to one source."""
        if source not in self._semaphores:
            self._semaphores[source] = asyncio.Semaphore(self.concurrency)
        return self._semaphores[source]


def make_client(config: HttpConfig | None = None, *, offline: bool = False, **kwargs: Any) -> httpx.AsyncClient:
    """An ``httpx.AsyncClient`` with the project's User-Agent and timeouts. ``offline``: a client for
    a replay, answered by the active replay's recordings through :class:`ReplayTransport` (never by
    the network)."""
    config = config or HttpConfig()
    headers = {"User-Agent": USER_AGENT, "Accept": "application/json, application/xml;q=0.9, */*;q=0.5",
               "Accept-Encoding": ACCEPT_ENCODING}
    headers.update(kwargs.pop("headers", {}) or {})
    if offline:
        kwargs.setdefault("transport", ReplayTransport())
    # Redirects are followed by send(), which drops credentials when one leaves the origin.
    return httpx.AsyncClient(
        headers=headers, timeout=httpx.Timeout(config.timeout_s), follow_redirects=False, **kwargs
    )


def replay_patched() -> bool:
    """Whether a recording replay (vcrpy) has patched httpx's transport now: a patched method wraps
    the original (``functools.wraps`` sets ``__wrapped__``); httpx's own has no such attribute."""
    return hasattr(httpx.AsyncHTTPTransport.handle_async_request, "__wrapped__")


class ReplayTransport(httpx.AsyncHTTPTransport):
    """The transport of a replayed run: it answers from the active replay's recordings itself
    (:func:`schemarouter.execution.offline.active_cassette`), through vcrpy's own httpx handler, so a
    replay holds even where something else undid vcrpy's global patch; outside a replay it defers to a
    patch another recorder made (a test's cassette), and with neither it sends nothing."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """The recorded answer to ``request`` (or vcrpy's refusal where no recording holds it)."""
        from vcr.stubs.httpx_stubs import vcr_handle_async_request

        from schemarouter.execution.offline import active_cassette

        cassette = active_cassette()
        if cassette is not None:
            response: httpx.Response = await vcr_handle_async_request(cassette, _no_network, httpx)(self, request)
            return response
        if replay_patched():
            return await super().handle_async_request(request)
        raise httpx.ConnectError("offline replay is not in place; no request is sent to the network", request=request)


async def _no_network(_transport: object, request: httpx.Request) -> httpx.Response:
    # what vcrpy would send to the real server: a replay never records, so this is never asked
    raise httpx.ConnectError("offline replay sends no request to the network", request=request)


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
    """The decoded body, stopping as soon as the *decoded* bytes pass ``max_bytes``."""
    declared = response.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise ResponseTooLarge(
            f"{source}: response of {int(declared):,} bytes exceeds the {max_bytes:,}-byte cap"
        )
    if hasattr(response, "_content"):  # already read (offline replay builds read responses)
        if len(response.content) > max_bytes:
            raise ResponseTooLarge(f"{source}: response exceeds the {max_bytes:,}-byte cap")
        return response.content
    try:
        decoder = BodyDecoder(response.headers.get("content-encoding"))
        body = bytearray()
        async for chunk in response.aiter_raw():
            for piece in decoder.feed(chunk):
                if len(body) + len(piece) > max_bytes:
                    raise ResponseTooLarge(f"{source}: decoded response exceeds the {max_bytes:,}-byte cap")
                body += piece
        decoder.finish()
    except EncodingError as exc:
        raise UnparseableBody(f"{source}: {exc}") from None
    return bytes(body)


def same_origin(a: httpx.URL, b: httpx.URL) -> bool:
    """Same scheme, host and port; an http -> https upgrade on the same host counts as the same."""
    if a.host != b.host:
        return False
    if a.scheme == b.scheme:
        return a.port == b.port
    return a.scheme == "http" and b.scheme == "https" and b.port in (None, 443)


def redirect_request(request: httpx.Request, response: httpx.Response, secrets: Secrets) -> httpx.Request:
    """The request a redirect asks for; credentials dropped when it leaves the original origin."""
    url = request.url.join(response.headers["location"])
    method = request.method
    if (response.status_code == 303 and method != "HEAD") or (response.status_code in (301, 302) and method == "POST"):
        method = "GET"
    headers = httpx.Headers(request.headers)
    headers.pop("host", None)
    content: bytes | None = request.content if method == request.method else None
    if content is None:
        for name in ("content-length", "content-type", "transfer-encoding"):
            headers.pop(name, None)
    if not same_origin(request.url, url):
        secrets.strip_headers(headers)
        url = secrets.strip_url(url)
    return httpx.Request(method, url, headers=headers, content=content, extensions=request.extensions)


@dataclass
class _Attempt:
    status: int
    headers: httpx.Headers
    content: bytes | None  # None: a retryable status whose body was not read
    url: httpx.URL


async def _attempt(
    client: httpx.AsyncClient, request: httpx.Request, *, source: str, config: HttpConfig,
    secrets: Secrets, may_retry: bool,
) -> _Attempt:
    """One attempt: follow redirects by hand (credentials stay with their origin), read the body capped."""
    shown = _shown(request.url)
    for _hop in range(MAX_REDIRECTS + 1):
        try:
            raw = await client.send(request, stream=True, follow_redirects=False)
        except httpx.TimeoutException:
            raise StepTimeout(f"{source}: no response from {shown} within {config.timeout_s:g} s") from None
        except httpx.HTTPError as exc:
            raise NetworkError(f"{source}: request to {_shown(request.url)} failed: {_first_line(exc)}") from None
        try:
            if raw.status_code in REDIRECT_STATUSES and "location" in raw.headers:
                try:
                    request = redirect_request(request, raw, secrets)
                except (httpx.InvalidURL, ValueError) as exc:
                    raise NetworkError(f"{source}: {shown} redirected to an invalid location: {exc}") from None
                continue
            if raw.status_code in RETRY_STATUSES and may_retry:
                return _Attempt(raw.status_code, raw.headers, None, request.url)
            try:
                content = await _read_capped(raw, config.max_bytes, source)
            except httpx.TimeoutException:
                raise StepTimeout(f"{source}: reading {shown} took longer than {config.timeout_s:g} s") from None
            except httpx.HTTPError as exc:  # e.g. the body ended before its Content-Length
                raise NetworkError(f"{source}: the response from {shown} broke off: {_first_line(exc)}") from None
            return _Attempt(raw.status_code, raw.headers, content, request.url)
        finally:
            await raw.aclose()
    raise NetworkError(f"{source}: more than {MAX_REDIRECTS} redirects starting at {shown}")


async def send(
    client: httpx.AsyncClient,
    request: httpx.Request,
    *,
    source: str,
    config: HttpConfig,
    limits: SourceLimits | None = None,
    sleep: Any = None,
    secrets: Secrets | None = None,
) -> Response:
    """Send with retries on 429/5xx; return the response or raise a typed StepError.

    A 4xx other than 429 is returned (the adapter decides what it means); a 429 or 5xx that
    outlasts the retries raises RateLimited or HttpStatusError. Each attempt, redirects and body
    included, must finish within ``config.timeout_s`` (a server trickling bytes cannot hold it).
    """
    semaphore = (limits or SourceLimits(config.per_source_concurrency)).semaphore(source)
    secrets = secrets or Secrets()
    shown = _shown(request.url)
    for attempt in range(config.retries + 1):
        async with semaphore:
            try:
                result = await asyncio.wait_for(
                    _attempt(client, request, source=source, config=config, secrets=secrets,
                             may_retry=attempt < config.retries),
                    config.timeout_s,
                )
            except TimeoutError:
                raise StepTimeout(f"{source}: {shown} did not answer in full within {config.timeout_s:g} s") from None
            except StepError:
                raise
            except Exception as exc:
                if type(exc).__module__.split(".")[0] == "vcr":  # offline replay: a clear step error
                    raise _replay_error(source, request, exc, secrets) from None
                raise
        if result.content is not None:
            break
        wait = retry_after_seconds(result.headers.get("retry-after"))
        if wait is None:
            wait = config.backoff_s * (2**attempt)
        await (sleep or _sleep)(min(wait, config.max_backoff_s))
    status = result.status
    if status == 429:
        raise RateLimited(f"{source}: still rate limited (HTTP 429) after {config.retries} retries")
    if status >= 500:
        raise HttpStatusError(f"{source}: HTTP {status} from {shown} after {config.retries} retries", status)
    return Response(status, result.headers, result.content or b"", str(result.url))


def _shown(url: httpx.URL) -> httpx.URL:
    """A URL for messages: no query string, so no key."""
    return url.copy_with(query=None)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:200] if text else type(exc).__name__


def _replay_error(source: str, request: httpx.Request, exc: Exception, secrets: Secrets) -> NetworkError:
    if type(exc).__name__ == "CannotOverwriteExistingCassetteException":
        return NoRecording(f"{source}: offline replay has no recording for {request.method} {secrets.redact_url(request.url)}")
    what = f"failed on {request.method} {_shown(request.url)}: {type(exc).__name__}: {_first_line(exc)}"
    return NetworkError(f"{source}: offline replay {what}")
