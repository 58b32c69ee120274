"""Build the local source of an MCP import: the OpenAPI importer's builder, then the MCP adapter specs.

:class:`~schemarouter.openapi.build.Builder` applies the overlay to the drafts (renames, units,
licenses, concepts, identifiers; a name the import did not produce is an error) and validates the
source. Here the server's name and instructions stand in for an OpenAPI ``info`` block, the key of
a server that needs one is the overlay's ``auth`` (or ``auth_env``: a stdio server gets it in the
variable of that name, an HTTP server as the ``Authorization`` header), and every endpoint's spec
becomes protocol ``mcp`` with the server and the tool it calls.
"""

from __future__ import annotations

from typing import Any

from schemarouter.checks.units import check_known
from schemarouter.mcpimport.listing import Listing
from schemarouter.mcpimport.mapper import MappedTool
from schemarouter.mcpimport.overlay import McpOverlay
from schemarouter.mcpimport.report import McpImportReport
from schemarouter.models import Auth
from schemarouter.openapi.build import Builder
from schemarouter.openapi.mapper import DraftEndpoint
from schemarouter.sources.local import LocalSource, check_adapter_specs
from schemarouter.sources.mcp import storable_schema
from schemarouter.sources.spec import AdapterSpec


class McpBuilder(Builder):
    """Builds and validates the local source of an MCP import."""

    def __init__(
        self, listing: Listing, server_label: str, overlay: McpOverlay, overlay_file: str, source_id: str,
        report: McpImportReport,
    ) -> None:
        info = {"title": listing.server_name or source_id, "description": listing.instructions}
        # an output schema's descriptions say units as a document's do ("lattice length a (angstrom)")
        super().__init__({"info": info}, server_label, overlay, overlay_file, source_id, report, check_known)
        self.mcp_overlay = overlay

    def build_mcp(self, mapped: list[MappedTool]) -> LocalSource:
        """The validated local source, each endpoint's adapter spec naming protocol ``mcp`` and its tool."""
        local = self.build([m.draft for m in mapped])
        by_place = {m.draft.place: m for m in mapped}
        specs: dict[str, AdapterSpec] = {}
        for endpoint in local.source.endpoints:
            tool = by_place[self.report.places[endpoint.id]]
            base = local.spec(endpoint.id).model_dump(mode="json")
            options = tool.options.model_copy(update={"output_schema": storable_schema(tool.options.output_schema)})
            base.update(protocol="mcp", options=options.model_dump(mode="json", exclude_none=True), locations={})
            specs[endpoint.id] = AdapterSpec.model_validate(base)
        result = LocalSource(local.source, specs)
        check_adapter_specs(result, self.spec_file)
        return result

    def _auth(self, drafts: list[DraftEndpoint]) -> Auth | None:
        """The overlay's auth block, or its ``auth_env``: the key handed over under the variable's own name
        (stdio) or as ``Authorization`` (HTTP)."""
        overlay = self.mcp_overlay
        if overlay.auth is not None:
            return overlay.auth
        if overlay.auth_env:
            name = "Authorization" if drafts and not drafts[0].base_url.startswith("https://mcp.invalid") else overlay.auth_env
            data: dict[str, Any] = {"env": overlay.auth_env, "in": "header", "name": name}
            return Auth.model_validate(data)
        return None
