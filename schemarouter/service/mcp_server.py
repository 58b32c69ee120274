"""The MCP server (``schemarouter mcp``): plan, run and browse tools for an agent, on the official SDK.

Tool descriptions are kept short on purpose: an agent pays for them in every prompt. Their size
in cl100k tokens (:func:`tool_definition_tokens`) is reported in the benchmark beside the
prompt-all baseline, which puts the whole schema into the prompt instead. Service errors and
wrong argument types come back as MCP tool errors (``isError``), never as a dropped session.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError

from schemarouter import __version__
from schemarouter.service.errors import ServiceError
from schemarouter.service.operations import Service

INSTRUCTIONS = (
    "Routes a question to the data sources and response fields that answer it. Call plan, then run "
    "(offline=true replays recorded responses). Values carry unit, source type and license."
)


@contextmanager
def _as_tool_error() -> Iterator[None]:
    """A refusal of the service becomes an MCP tool error with the same one-line message."""
    try:
        yield
    except ServiceError as err:
        raise ToolError(err.message) from None


def create_server(service: Service) -> MCPServer:
    """The MCP server over ``service`` (tools, the registry resources)."""
    server: MCPServer = MCPServer("schemarouter", version=__version__, instructions=INSTRUCTIONS)

    @server.tool(
        description="Plan which sources, endpoints and fields answer a question. Returns the plan JSON."
    )
    def plan(question: str, mode: Literal["recall", "minimal"] = "recall") -> dict[str, Any]:
        with _as_tool_error():
            return service.plan(question, mode).model_dump(mode="json")

    @server.tool(
        description="Run a question or a plan from the plan tool; returns values with unit, source, "
        "source type and license. offline=true replays recorded responses."
    )
    async def run(
        question: str | None = None,
        plan: dict[str, Any] | None = None,
        offline: bool = False,
        mode: Literal["recall", "minimal"] = "recall",
    ) -> dict[str, Any]:
        with _as_tool_error():
            return await service.run(question, plan, mode, offline)

    @server.tool(description="List the registry's sources (id, title, domain, source type, license).")
    def list_sources() -> dict[str, Any]:
        return service.list_sources()

    @server.tool(description="Describe one source: endpoints, parameters, fields with units and licenses.")
    def describe_source(source_id: str) -> dict[str, Any]:
        with _as_tool_error():
            return service.describe_source(source_id)

    @server.resource(
        "schemarouter://registry",
        name="registry",
        mime_type="application/json",
        description="The registry's sources and fingerprint.",
    )
    def registry() -> str:
        return json.dumps(service.list_sources())

    @server.resource(
        "schemarouter://registry/fingerprint",
        name="registry-fingerprint",
        mime_type="text/plain",
        description="The fingerprint of the registry state plans are made on.",
    )
    def fingerprint() -> str:
        return service.state.current.fingerprint or ""

    @server.resource(
        "schemarouter://sources/{source_id}",
        name="source",
        mime_type="application/json",
        description="One source's full declaration.",
    )
    def source(source_id: str) -> str:
        try:
            return json.dumps(service.describe_source(source_id))
        except ServiceError as err:
            raise ResourceError(err.message) from None

    return server


def tool_definitions(server: MCPServer) -> list[dict[str, Any]]:
    """The tool list exactly as a client receives it (name, description, input and output schema)."""
    tools = asyncio.run(server.list_tools())
    return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]


def tool_definition_tokens(definitions: list[dict[str, Any]], with_output_schema: bool = False) -> int:
    """cl100k tokens of the tool definitions an agent's prompt carries (compact JSON)."""
    from schemarouter.tokens import count_tokens

    shown = [
        d if with_output_schema else {k: v for k, v in d.items() if k != "outputSchema"} for d in definitions
    ]
    return count_tokens(json.dumps(shown, separators=(",", ":"), ensure_ascii=False))
