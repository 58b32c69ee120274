"""McpAdapter: run a local source's endpoints as tools of an MCP server (``protocol: mcp``).

Each endpoint is one tool (:class:`~schemarouter.sources.mcp.McpToolOptions` in its spec's
``options``). The adapter keeps one client session per server for the run (opened by the first
step that needs it, shared by the rest, closed by :meth:`McpAdapter.aclose` when the executor ends
the run), sends ``tools/call`` with the plan's parameters (plus the spec's ``fixed`` ones), and
reads records from the result's ``structuredContent`` (or from JSON text content when a tool has
none), checked against the ``outputSchema`` the tool declared. Records are cut to the planned
fields right here: the rest of a tool's result never leaves the adapter. Offline, results come
from the recorded MCP sessions (:mod:`~schemarouter.execution.mcp_cassettes`) and no server starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Mapping
from typing import Any

from schemarouter.execution import errors as E
from schemarouter.execution.adapter import FetchResult, StepCall
from schemarouter.execution.mcp_cassettes import RECORD_ENV, Interaction, current_replay, record_calls
from schemarouter.execution.mcp_session import McpSession, require_sdk, server_env
from schemarouter.execution.secrets import Secrets
from schemarouter.field_paths import extract
from schemarouter.models import ResponseField
from schemarouter.safeload import UnsafeDocumentError, load_json
from schemarouter.sources.mcp import McpServer, McpToolOptions, tool_options
from schemarouter.sources.spec import AdapterSpec

# The handshake may take longer than a call: a stdio server is a process that has to start.
MIN_CONNECT_TIMEOUT_S = 5.0
MAX_TEXT_ITEMS = 50


class McpAdapter:
    """The generic adapter of protocol ``mcp``: one spec (with McpToolOptions) per endpoint id."""

    def __init__(self, specs: Mapping[str, AdapterSpec]) -> None:
        self.specs = dict(specs)
        self._sessions: dict[str, McpSession] = {}
        self._opening: dict[str, asyncio.Lock] = {}
        self._recorded: dict[str, list[Interaction]] = {}  # source id -> calls made, when recording
        self._record_dir: str | None = None

    # ------------------------------------------------------------------ the step
    async def fetch(self, call: StepCall) -> FetchResult:
        """Call the endpoint's tool with the step's parameters; records cut to the planned fields."""
        spec = self.specs.get(call.endpoint.id)
        if spec is None:
            raise E.InvalidStep(f"{call.source.id}.{call.endpoint.id} has no MCP adapter spec")
        try:
            options = tool_options(spec.options)
        except ValueError as exc:
            raise E.InvalidStep(f"{call.source.id}.{call.endpoint.id}: {exc}") from None
        arguments = _arguments(call, spec)
        request = f"mcp {options.server.label()} tools/call {options.tool} " + json.dumps(
            arguments, sort_keys=True, default=str, ensure_ascii=False)[:500]
        replay = current_replay()
        if replay is not None:
            result = replay.lookup(call.source.id, options.tool, arguments)
            if result is None:
                raise E.NoRecording(f"{call.source.id}: no recorded MCP call {options.tool} with these arguments "
                                     f"under {replay.where} (offline replay)")
        else:
            session = await self._session(call, options.server)
            result = await session.call_tool(options.tool, arguments, call.config.timeout_s)
            self._record(call, options.tool, arguments, result)
        body = result_body(call.source.id, options, result)
        records = _records(call.source.id, body, spec.records)
        if not records:
            raise E.NoRecords(f"{call.source.id}: tools/call {options.tool} returned no records")
        return FetchResult(records=[_project(r, call.fields, call, spec) for r in records], request=request,
                           projected=True, unit_from=spec.unit_from)

    # ------------------------------------------------------------------ sessions
    async def _session(self, call: StepCall, server: McpServer) -> McpSession:
        require_sdk()
        key = server.key()
        lock = self._opening.setdefault(key, asyncio.Lock())
        async with lock:
            session = self._sessions.get(key)
            if session is None:
                auth = call.source.auth
                secret = call.api_key(required=False)
                headers = {auth.name: secret} if auth is not None and secret and server.url else {}
                env = server_env(server, call.env, auth.name if auth is not None else None, secret)
                session = McpSession(server, source=call.source.id, env=env, headers=headers,
                                     timeout_s=call.config.timeout_s, max_bytes=call.config.max_bytes)
                self._sessions[key] = session
                await session.open(max(MIN_CONNECT_TIMEOUT_S, call.config.timeout_s))
            return session

    async def aclose(self) -> None:
        """Close every session this run opened (their servers end) and write what was recorded."""
        sessions, self._sessions, self._opening = list(self._sessions.values()), {}, {}
        await asyncio.gather(*(s.close() for s in sessions), return_exceptions=True)
        recorded, self._recorded = self._recorded, {}
        if self._record_dir:
            for source, interactions in recorded.items():
                record_calls(self._record_dir, source, interactions)

    def _record(self, call: StepCall, tool: str, arguments: dict[str, Any], result: dict[str, Any]) -> None:
        folder = call.env.get(RECORD_ENV) or os.environ.get(RECORD_ENV)
        if not folder:
            return
        self._record_dir = folder
        clean = Secrets.from_sources([call.source], call.env).redact_any(result)
        self._recorded.setdefault(call.source.id, []).append(Interaction(call.source.id, tool, arguments, clean))


def _arguments(call: StepCall, spec: AdapterSpec) -> dict[str, Any]:
    """The tool's arguments: the spec's fixed ones, then the step's parameters that have a value."""
    arguments = dict(spec.fixed)
    arguments.update({k: v for k, v in call.params.items() if v is not None})
    return arguments


def result_body(source: str, options: McpToolOptions, result: dict[str, Any]) -> Any:
    """What a tool result holds: its structuredContent (checked against the tool's outputSchema), else
    the JSON its text content carries. A tool error or a result with neither is a StepError."""
    tool = options.tool
    content: list[Any] = found if isinstance(found := result.get("content"), list) else []
    texts: list[str] = [item["text"] for item in content[:MAX_TEXT_ITEMS]
                        if isinstance(item, dict) and item.get("type") == "text" and isinstance(item.get("text"), str)]
    if result.get("isError"):
        said = " ".join(t.strip() for t in texts if t.strip())[:200] or "no message"
        raise E.ToolError(f"{source}: tools/call {tool} failed: {said}")
    structured = result.get("structuredContent")
    if structured is not None:
        if options.output_schema is not None:
            check_output(source, tool, options.output_schema, structured)
        return structured
    bodies = []
    for text in texts:
        if text.lstrip()[:1] not in ("{", "["):
            continue
        try:
            bodies.append(load_json(text, name=f"{source} {tool} result"))
        except UnsafeDocumentError as exc:
            raise E.UnparseableBody(f"{source}: tools/call {tool}: {str(exc)[:200]}") from None
    if not bodies:
        kinds = sorted({str(item.get("type")) for item in content if isinstance(item, dict)}) or ["nothing"]
        raise E.UnparseableBody(f"{source}: tools/call {tool} returned no structured content and no JSON text "
                                f"(content: {', '.join(kinds)})")
    return bodies[0] if len(bodies) == 1 else bodies


def check_output(source: str, tool: str, schema: dict[str, Any], value: Any) -> None:
    """ResultMismatch when ``value`` does not validate against the tool's declared ``schema``."""
    from jsonschema import exceptions as jsonschema_exceptions
    from jsonschema.validators import validator_for
    from referencing import Registry
    from referencing.exceptions import Unresolvable

    try:
        cls = validator_for(schema)
        cls.check_schema(schema)
        error = jsonschema_exceptions.best_match(cls(schema, registry=Registry()).iter_errors(value))
    except (jsonschema_exceptions.SchemaError, Unresolvable, RecursionError):
        return  # the tool's own schema is broken or unbounded: the import reported it; the result is read as is
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the root"
        raise E.ResultMismatch(f"{source}: tools/call {tool} returned a result that does not match its outputSchema "
                               f"at {where}: {error.message[:160]}")


def _records(source: str, body: Any, path: str) -> list[Any]:
    found = body if path == "" else extract(body, path)
    if found is None:
        raise E.UnparseableBody(f"{source}: the tool result has no records at {path!r}")
    if isinstance(found, dict):
        return [found]
    if not isinstance(found, list):
        raise E.UnparseableBody(f"{source}: expected records at {path or 'the root'!r}, got {type(found).__name__}")
    return found


def _project(record: Any, fields: list[ResponseField], call: StepCall, spec: AdapterSpec) -> dict[str, Any]:
    """The planned fields of one record (and the fields that state their units), by name."""
    wanted = {f.name: f for f in fields}
    for name in list(wanted):
        unit_field = spec.unit_from.get(name)
        if unit_field is not None:
            with contextlib.suppress(KeyError):
                wanted.setdefault(unit_field, call.endpoint.field(unit_field))
    return {name: extract(record, f.path) for name, f in wanted.items()}
