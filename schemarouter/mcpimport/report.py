"""What an MCP import mapped: the OpenAPI import report, with what only a tool listing has.

Besides the counts and the unmapped constructs (:class:`~schemarouter.openapi.report.ImportReport`)
it names the server, the tools that declare no ``outputSchema`` (and where their fields came
from, if anywhere), the tools without annotations (read as reads unless their name says they
write) and the samples used.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from schemarouter.openapi.report import ImportReport


@dataclass
class McpImportReport(ImportReport):
    """An import report for an MCP server (``spec`` holds the server's command line or URL)."""

    server_name: str = ""
    server_version: str = ""
    protocol_version: str = ""
    tools: int = 0
    # tool name -> where its fields came from: "overlay", "sample" or "none" (left out)
    no_output_schema: dict[str, str] = field(default_factory=dict)
    unannotated: list[str] = field(default_factory=list)  # tools with no readOnlyHint

    def summary(self) -> str:
        """One line: server, tools, endpoints, parameters, fields, unmapped items."""
        name = f"{self.server_name} {self.server_version}".strip() or "MCP server"
        writes = f" ({self.write_endpoints} writes)" if self.write_endpoints else ""
        return (
            f"{self.spec} ({name}, MCP {self.protocol_version or '?'}) -> source {self.source_id}: {self.tools} tools, "
            f"{self.endpoints} endpoints{writes}, {self.parameters} parameters, {self.fields} fields; "
            f"{len(self.unmapped)} items not mapped"
        )

    def schema_line(self) -> str | None:
        """The tools without an outputSchema, and where their fields came from, as one line."""
        if not self.no_output_schema:
            return None
        parts = [f"{tool} ({where if where != 'none' else 'no fields: left out'})"
                 for tool, where in sorted(self.no_output_schema.items())]
        return "tools without an outputSchema: " + ", ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        data = super().as_dict()
        data.pop("openapi_version", None)
        data.pop("converted_from", None)
        data.pop("needs_base_url", None)
        data["server"] = self.spec
        data.pop("spec", None)
        data.update({"server_name": self.server_name, "server_version": self.server_version,
                     "protocol_version": self.protocol_version, "tools": self.tools,
                     "no_output_schema": dict(sorted(self.no_output_schema.items())),
                     "unannotated": self.unannotated})
        return data
