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
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.types import CallToolResult, TextContent
from pydantic import Field, StrictBool

from schemarouter import __version__
from schemarouter.plan import Plan
from schemarouter.service import schemas as S
from schemarouter.service.errors import ServiceError
from schemarouter.service.operations import Service

INSTRUCTIONS = (
    "Routes a question to the data sources and response fields that answer it. Call run with the "
    "question (or plan, then run the plan). Values carry unit, source type and license."
)


@contextmanager
def _as_tool_error() -> Iterator[None]:
    """A refusal of the service becomes an MCP tool error with the same one-line message."""
    try:
        yield
    except ServiceError as err:
        raise ToolError(err.message) from None


def _one(question: str | None, query: str | None) -> str | None:
    """The question under either key (a disagreement is a tool error)."""
    try:
        return S.one_question(question, query)
    except ValueError as err:
        raise ToolError(str(err)) from None


def _answer(document: dict[str, Any]) -> CallToolResult:
    """A tool result: the document as structured content and, once, as compact JSON text (what an
    agent's model reads; pretty-printing would add a third to its tokens)."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=document)


Question = Annotated[str | None, Field(description=S.QUESTION)]
Query = Annotated[str | None, Field(description=S.QUERY)]
Mode = Annotated[Literal["recall", "minimal"], Field(description=S.MODE)]


def create_server(service: Service) -> MCPServer:
    """The MCP server over ``service`` (tools, the registry resources)."""
    server: MCPServer = MCPServer("schemarouter", version=__version__, instructions=INSTRUCTIONS)

    @server.tool(
        description="Plan which sources, endpoints and fields answer a question. Returns the plan JSON."
    )
    def plan(question: Question = None, mode: Mode = "recall", query: Query = None) -> Annotated[CallToolResult, Plan]:
        with _as_tool_error():
            return _answer(service.plan(_one(question, query), mode).model_dump(mode="json"))

    @server.tool(
        description="Run a question or a plan from the plan tool: context and values with unit, source, "
        "license; fields not returned; step errors."
    )
    async def run(
        question: Question = None,
        plan: Annotated[dict[str, Any] | None, Field(description="A plan from the plan tool.")] = None,
        offline: Annotated[StrictBool | None, Field(description=S.OFFLINE)] = None,
        mode: Mode = "recall",
        include_plan: Annotated[StrictBool, Field(description=S.INCLUDE_PLAN)] = False,
        query: Query = None,
    ) -> Annotated[CallToolResult, S.RunOut]:
        with _as_tool_error():
            return _answer(await service.run(_one(question, query), plan, mode, offline, include_plan))

    @server.tool(description="List the registry's sources (id, title, domain, source type, license).")
    def list_sources() -> Annotated[CallToolResult, S.SourcesOut]:
        return _answer(service.list_sources())

    @server.tool(description="Describe one source: endpoints, parameters, fields with units and licenses.")
    def describe_source(
        source_id: Annotated[str, Field(description="A source id, as list_sources gives it.")],
    ) -> Annotated[CallToolResult, S.SourceOut]:
        with _as_tool_error():
            return _answer(service.describe_source(source_id))

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
