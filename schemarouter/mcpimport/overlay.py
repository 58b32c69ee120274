"""The overlay of an MCP import: the OpenAPI importer's overlay, plus what only a tool needs.

An MCP server says even less than an OpenAPI document: no license, no source type, no units. The
overlay is the same file as for ``import-openapi`` (:mod:`schemarouter.openapi.overlay`), keyed
by the endpoint ids the import makes of tool names, with one addition per endpoint: ``access``,
to correct a tool whose annotations say it reads when it writes (or the reverse). Keys that only
mean something for HTTP (``base_url``, ``read_only_posts``, ``projection``) are refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError, model_validator

from schemarouter.declarations import describe_validation_error, read_yaml
from schemarouter.errors import DeclarationError
from schemarouter.openapi.errors import OpenAPIImportError
from schemarouter.openapi.overlay import EndpointOverlay, Overlay


class McpEndpointOverlay(EndpointOverlay):
    """Overrides for one imported tool."""

    access: Literal["read", "write"] | None = None  # over what the tool's annotations say

    @model_validator(mode="after")
    def _http_only(self) -> McpEndpointOverlay:
        if self.projection is not None:
            raise ValueError("projection is an HTTP setting; an MCP endpoint is always cut to the planned fields")
        return self


class McpOverlay(Overlay):
    """What an MCP server cannot say: the source's metadata and per-tool overrides."""

    endpoints: dict[str, McpEndpointOverlay] = Field(default_factory=dict)  # type: ignore[assignment]

    @model_validator(mode="after")
    def _http_only(self) -> McpOverlay:
        for key in ("base_url", "read_only_posts"):
            if getattr(self, key):
                raise ValueError(f"{key} is an OpenAPI setting; an MCP import takes the server from the command line")
        return self


def load_mcp_overlay(path: str | Path | None) -> McpOverlay:
    """Read and validate an MCP overlay file (none: an empty overlay)."""
    if path is None:
        return McpOverlay()
    try:
        data = read_yaml(Path(path))
    except DeclarationError as err:
        raise OpenAPIImportError(str(path), err.item, err.problem) from None
    if data is None:
        return McpOverlay()
    if not isinstance(data, dict):
        raise OpenAPIImportError(str(path), "", "an overlay is a mapping (title, source_type, license, endpoints, ...)")
    try:
        return McpOverlay.model_validate(data)
    except ValidationError as exc:
        raise OpenAPIImportError(str(path), "", describe_validation_error(exc, data)) from None
