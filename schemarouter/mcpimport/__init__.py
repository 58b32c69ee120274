"""Import an MCP server's tools as a local source (``schemarouter source import-mcp``).

Small modules, one job each: :mod:`.listing` connects with the official ``mcp`` client and lists
the tools (bounded in count, pages and time), :mod:`.mapper` turns tools into draft endpoints
with the OpenAPI importer's schema flattening and parameter mapping, :mod:`.overlay` is the
OpenAPI overlay plus a tool's ``access``, and the OpenAPI importer's builder applies the overlay
and validates the source; each endpoint's adapter spec then names protocol ``mcp``, the server
and the tool (:mod:`schemarouter.sources.mcp`). :mod:`.report` says what was mapped and what not,
which tools have no ``outputSchema`` and which have no annotations. Nothing here writes to the
registry; the caller stores the result. A refusal carries the report made so far.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from schemarouter.errors import SchemaRouterError
from schemarouter.execution.mcp_cassettes import load_recording
from schemarouter.mcpimport.build import McpBuilder
from schemarouter.mcpimport.listing import Listing, list_tools
from schemarouter.mcpimport.mapper import ToolMapper
from schemarouter.mcpimport.overlay import McpOverlay, load_mcp_overlay
from schemarouter.mcpimport.report import McpImportReport
from schemarouter.sources.local import LocalSource
from schemarouter.sources.mcp import McpServer


@dataclass(frozen=True)
class McpImportResult:
    """The local source an import produced, the report, and the samples it called."""

    local: LocalSource
    report: McpImportReport
    samples: dict[str, tuple[dict[str, Any], dict[str, Any]]]  # tool -> (arguments, raw result)


def import_mcp(
    server: McpServer, source_id: str, overlay: str | Path | None = None, *,
    samples: str | Path | None = None, sample_calls: Mapping[str, dict[str, Any]] | None = None,
    timeout_s: float = 30.0, env: Mapping[str, str] | None = None, headers: Mapping[str, str] | None = None,
    listing: Listing | None = None,
) -> McpImportResult:
    """Connect to ``server``, map its tools (with ``overlay``) to a validated local source; write nothing.

    ``samples``: a recording (``*.mcp.yaml``) whose results give fields to tools without an
    ``outputSchema``; ``sample_calls``: tool -> arguments to call once now for the same purpose (read
    tools only). ``listing``: tools already listed (tests, the benchmark), instead of connecting.
    """
    report = McpImportReport(spec=server.label(), source_id=source_id)
    try:
        ov = load_mcp_overlay(overlay)
        overlay_file = str(overlay) if overlay is not None else "overlay"
        calls = dict(sample_calls or {})
        if listing is None:
            listing = list_tools(server, source_id, timeout_s=timeout_s, env=env, headers=headers, samples=calls)
        report.server_name, report.server_version = listing.server_name, listing.server_version
        report.protocol_version = listing.protocol_version
        report.tools = report.operations = len(listing.tools)
        if listing.stopped:
            report.notes.append(listing.stopped)
        results = dict(_recorded(samples))
        results.update(listing.samples)
        mapper = ToolMapper(server, ov, overlay_file, report, results)
        mapped = mapper.tools(listing.tools)
        builder = McpBuilder(listing, server.label(), ov, overlay_file, source_id, report)
        builder.check_overlay_names([m.draft for m in mapped], mapper.excluded)
        local = builder.build_mcp(mapped)
    except SchemaRouterError as err:
        err.report = report  # type: ignore[attr-defined]  # the CLI prints it with the refusal
        raise
    return McpImportResult(local, report, {t: (calls[t], r) for t, r in listing.samples.items() if t in calls})


def _recorded(path: str | Path | None) -> dict[str, dict[str, Any]]:
    """Tool -> the first recorded result for it (under any source id: it may have been recorded before the import)."""
    if path is None or not Path(path).exists():
        return {}
    out: dict[str, dict[str, Any]] = {}
    for item in load_recording(Path(path)):
        out.setdefault(item.tool, item.result)
    return out


__all__ = ["McpImportReport", "McpImportResult", "McpOverlay", "import_mcp"]
