"""The HTTP API and the web page (``schemarouter serve``): FastAPI, served by uvicorn.

FastAPI because the plan and result models are pydantic already: the OpenAPI document
(``/openapi.json``) is generated from them, and request bodies are validated by the same models.
Responses of the hot path (``POST /v1/plan``) are serialized once by pydantic-core and sent as
they are. Every error is ``{"error": "...", "code": "..."}`` with a 4xx/5xx status; nothing sends a
traceback. The interactive docs pages are off: they load their scripts from a CDN.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request

from schemarouter import __version__
from schemarouter.plan import Plan
from schemarouter.service import schemas as S
from schemarouter.service.errors import ServiceError
from schemarouter.service.limits import ASGIApp, BearerAuth, BodyLimit, Receive, Scope, Send, send_json
from schemarouter.service.operations import Service
from schemarouter.service.watcher import RegistryWatcher

log = logging.getLogger("schemarouter.service")
WEB = Path(str(files("schemarouter.service") / "web"))
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": S.ErrorOut, "description": why}
    for code, why in (
        (400, "malformed request"),
        (401, "bearer token missing or wrong"),
        (404, "not found"),
        (409, "stale plan"),
        (413, "body or question too large"),
        (422, "invalid request or plan"),
        (503, "registry empty or unavailable"),
        (504, "run timed out"),
    )
}


class CatchAll:
    """Turn an unexpected exception into a JSON 500 and one log line (type and message, no traceback)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; answer a JSON 500 if it raises before a response started."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as err:
            log.error(
                "%s %s failed: %s: %s",
                scope.get("method"),
                scope.get("path"),
                type(err).__name__,
                str(err).splitlines()[0] if str(err) else "",
            )
            if not started:
                await send_json(
                    send, 500, {"error": "internal error (logged on the server)", "code": "internal"}
                )


def validation_error_body(problems: Sequence[Mapping[str, Any]]) -> tuple[int, dict[str, str]]:
    """Status and JSON error for pydantic validation problems: 400 for malformed JSON, else 422."""
    bad_json = next((p for p in problems if p.get("type") == "json_invalid"), None)
    if bad_json is not None:
        why = (bad_json.get("ctx") or {}).get("error", "")
        return 400, {"error": f"malformed JSON body{': ' + str(why) if why else ''}", "code": "bad_request"}
    parts = []
    for p in problems[:5]:
        where = ".".join(str(x) for x in p.get("loc", ()) if x != "body") or "body"
        parts.append(f"{where}: {p.get('msg', 'invalid')}")
    return 422, {"error": "; ".join(parts), "code": "invalid"}


class PlanFastPath:
    """``POST /v1/plan`` straight to the service, past FastAPI's routing and dependency injection.

    Planning takes well under a millisecond, so the framework's per-request work is a large share
    of the hot path; this answers exactly what the FastAPI route answers (same model, same
    service call, same errors; a test holds the two equal) for a fraction of the cost. Requests
    the route would not read as JSON go on to FastAPI.
    """

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        self.service = service
        self.plan = CatchAll(self._plan)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer ``POST /v1/plan`` with a JSON body here; pass everything else on."""
        if scope["type"] == "http" and scope["path"] == "/v1/plan" and scope["method"] == "POST":
            kind = next((bytes(v) for k, v in scope.get("headers", ()) if k == b"content-type"), b"")
            if not kind or kind.split(b";")[0].strip().lower() == b"application/json":
                await self.plan(scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _plan(self, scope: Scope, receive: Receive, send: Send) -> None:
        chunks = []
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        try:
            request = S.PlanRequest.model_validate_json(b"".join(chunks))
        except ValidationError as err:
            status, error = validation_error_body(err.errors(include_input=False))
            await send_json(send, status, error)
            return
        try:
            data = self.service.plan(request.text, request.mode).model_dump_json().encode()
        except ServiceError as err:
            await send_json(send, err.status, err.as_dict())
            return
        head = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": head})
        await send({"type": "http.response.body", "body": data})


def create_app(service: Service, *, watch: bool = True, fast_plan: bool = True) -> ASGIApp:
    """The ASGI app: API, page and OpenAPI document, wrapped in the body cap and (with a token) auth."""

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        watcher = RegistryWatcher(service.state, service.config.poll_s).start() if watch else None
        service.watch_method = watcher.method if watcher else "off"
        try:
            yield
        finally:
            if watcher is not None:
                watcher.stop()

    app = FastAPI(
        title="schemarouter",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        description="Field-aware tool routing: minimal, executable, attributed plans over data sources.",
    )

    @app.exception_handler(ServiceError)
    async def service_error(_: Request, err: ServiceError) -> JSONResponse:
        return JSONResponse(err.as_dict(), status_code=err.status)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, err: RequestValidationError) -> JSONResponse:
        status, error = validation_error_body(err.errors())
        return JSONResponse(error, status_code=status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, err: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(
            {"error": str(err.detail), "code": f"http_{err.status_code}"},
            status_code=err.status_code,
            headers=err.headers,
        )

    @app.post("/v1/plan", response_model=Plan, responses=ERRORS, summary="Plan a question")
    async def plan(body: S.PlanRequest) -> Response:
        """The minimal, attributed plan for a question on the registry this server serves."""
        result = service.plan(body.text, body.mode)
        return Response(result.model_dump_json(), media_type="application/json")

    @app.post(
        "/v1/run", response_model=S.RunOut, responses=ERRORS, summary="Run a question or a plan"
    )
    async def run(body: S.RunRequest) -> JSONResponse:
        """Execute a plan (or plan the question first); values come with unit, source type and license.

        The answer is the lean result (context, values, missing fields, step errors); include_plan
        returns the whole run document with the plan."""
        question = S.one_question(body.question, body.query)
        return JSONResponse(
            await service.run(question, body.plan, body.mode, body.offline, body.include_plan)
        )

    @app.get(
        "/v1/sources", response_model=S.SourcesOut, responses=ERRORS, summary="List the registry's sources"
    )
    async def sources() -> JSONResponse:
        return JSONResponse(service.list_sources())

    @app.get("/v1/sources/{source_id}", responses=ERRORS, summary="Describe one source")
    async def source(source_id: str) -> JSONResponse:
        """Endpoints, parameters and fields (with units, source types and licenses) of one source."""
        return JSONResponse(service.describe_source(source_id))

    @app.get("/healthz", response_model=S.HealthOut, summary="Liveness and the registry state served")
    async def healthz() -> JSONResponse:
        return JSONResponse(service.health())

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(WEB / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=WEB), name="static")
    # inside Starlette's error middleware, so an unexpected error becomes a JSON 500 before it could
    # become a plain-text one
    app.add_middleware(CatchAll)
    wrapped: ASGIApp = PlanFastPath(app, service) if fast_plan else app
    if service.config.token:
        wrapped = BearerAuth(wrapped, service.config.token)
    return BodyLimit(wrapped, service.config.max_body_bytes)
