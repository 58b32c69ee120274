"""Ask an MCP server for its tools (and, on request, a sample result of a few), within bounds.

The import connects with the same session the adapter uses
(:class:`~schemarouter.execution.mcp_session.McpSession`: the official client over a transport
that caps every message), walks ``tools/list`` page by page, and stops at ``MAX_TOOLS`` tools,
``MAX_PAGES`` pages or ``LIST_SECONDS`` seconds, whichever comes first, saying so in the listing.
A server that never answers ``initialize`` or exits is one line naming it.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from schemarouter.errors import SchemaRouterError
from schemarouter.execution import errors as E
from schemarouter.execution.mcp_session import McpSession, RawResult, server_env
from schemarouter.mcpimport.access import tool_access
from schemarouter.sources.mcp import McpServer

MAX_TOOLS = 2000
MAX_PAGES = 200
LIST_SECONDS = 60.0
MAX_BYTES = 20 * 1024 * 1024


@dataclass
class Listing:
    """What the server said about itself and its tools."""

    server_name: str = ""
    server_version: str = ""
    protocol_version: str = ""
    instructions: str = ""
    tools: list[dict[str, Any]] = field(default_factory=list)  # raw tool objects (inputSchema, outputSchema...)
    stopped: str | None = None  # why the listing stopped before its end
    samples: dict[str, dict[str, Any]] = field(default_factory=dict)  # tool -> raw result of a sample call


def list_tools(
    server: McpServer, source_id: str, *, timeout_s: float = 30.0, env: Mapping[str, str] | None = None,
    headers: Mapping[str, str] | None = None, samples: Mapping[str, dict[str, Any]] | None = None,
) -> Listing:
    """Connect to ``server``, list its tools, call the ``samples`` (tool -> arguments); SchemaRouterError on failure."""
    environ = os.environ if env is None else env
    try:
        return asyncio.run(_list(server, source_id, timeout_s, server_env(server, environ, None, None),
                                 dict(headers or {}), dict(samples or {})))
    except E.StepError as err:
        raise SchemaRouterError(f"import-mcp: {err}") from None


async def _list(
    server: McpServer, source_id: str, timeout_s: float, env: dict[str, str], headers: dict[str, str],
    samples: dict[str, dict[str, Any]],
) -> Listing:
    import mcp_types as types
    from mcp.shared.exceptions import MCPError
    from pydantic import ValidationError

    session = McpSession(server, source=source_id, env=env, headers=headers, timeout_s=timeout_s, max_bytes=MAX_BYTES)
    listing = Listing()
    try:
        await session.open(timeout_s)
        client = session.client
        assert client is not None
        info = client.server_info
        listing.server_name = (info.name if info else "")[:200]
        listing.server_version = (info.version if info else "")[:60]
        listing.protocol_version = client.protocol_version
        listing.instructions = (client.instructions or "")[:4000]
        deadline = time.monotonic() + LIST_SECONDS
        cursor: str | None = None
        for page_number in range(MAX_PAGES):
            request = types.ListToolsRequest(params=types.PaginatedRequestParams(cursor=cursor))
            try:
                page = (await client.session.send_request(request, RawResult,
                                                          request_read_timeout_seconds=timeout_s)).root
            except MCPError as exc:
                raise session.call_error("tools/list", exc, timeout_s) from None
            except ValidationError as exc:
                first: dict[str, Any] = dict(exc.errors()[0]) if exc.errors() else {}
                where = ".".join(str(p) for p in first.get("loc", ()) if p != "root") or "the page"
                raise SchemaRouterError(f"import-mcp: {session.name} answered tools/list with an invalid listing "
                                        f"({where}: {first.get('msg', 'invalid')})") from None
            tools = found if isinstance(found := page.get("tools"), list) else []
            listing.tools += [t for t in tools if isinstance(t, dict)]
            cursor = page.get("nextCursor") if isinstance(page.get("nextCursor"), str) else None
            if cursor is None:
                break
            if len(listing.tools) >= MAX_TOOLS:
                listing.stopped = f"listing stopped after {len(listing.tools):,} tools (the import maps {MAX_TOOLS:,})"
                break
            if time.monotonic() > deadline:
                listing.stopped = f"listing stopped after {LIST_SECONDS:g} s ({len(listing.tools):,} tools)"
                break
            if page_number == MAX_PAGES - 1:
                listing.stopped = f"listing stopped after {MAX_PAGES} pages ({len(listing.tools):,} tools)"
        if len(listing.tools) > MAX_TOOLS:
            listing.stopped = listing.stopped or f"the server lists {len(listing.tools):,} tools; the import maps {MAX_TOOLS:,}"
            listing.tools = listing.tools[:MAX_TOOLS]
        by_name = {str(t.get("name")): t for t in listing.tools}
        for tool, arguments in samples.items():
            if tool not in by_name:
                raise SchemaRouterError(f"import-mcp: --sample {tool}: the server lists no tool {tool!r}")
            if tool_access(by_name[tool]).access != "read":
                raise SchemaRouterError(f"import-mcp: --sample {tool}: the tool writes (its annotations or its name "
                                        f"say so); only read tools are called at import")
            listing.samples[tool] = await session.call_tool(tool, arguments, timeout_s)
    finally:
        await session.close()
    return listing
