"""Map an MCP server's tools to draft endpoints, the way the OpenAPI importer maps operations.

A tool becomes one endpoint: its ``inputSchema`` properties parameters (types, required, enums,
descriptions, through the OpenAPI mapper's parameter mapping), its ``outputSchema`` properties
fields (flattened by the OpenAPI importer's :class:`~schemarouter.openapi.schema.Flattener`, nested
objects joined into dotted paths, lists of objects into ``[]`` paths, and the records found the
same way: a list of objects inside an envelope is the records), its title, description and
annotations the endpoint's text. Each tool's schemas are their own JSON documents, so ``$ref``
resolves inside them; a schema that refers to itself stops, reported, where the OpenAPI importer
stops. A tool without an ``outputSchema`` takes fields from the overlay, else from a sample result
(recorded, or called at import), else it is left out and the report says so.

A tool whose annotations say it changes data (``readOnlyHint: false``, or ``destructiveHint:
true``) becomes a write endpoint, kept so that the router can name it in a decline and never called
unless writes are allowed; without a ``readOnlyHint`` a tool whose name starts with a verb of
change (create, delete, update, ...) is a write too, any other a read (both noted).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from schemarouter.execution import errors as E
from schemarouter.execution.mcp import result_body
from schemarouter.mcpimport.access import tool_access
from schemarouter.mcpimport.overlay import McpEndpointOverlay, McpOverlay
from schemarouter.mcpimport.report import McpImportReport
from schemarouter.openapi.mapper import DraftEndpoint, DraftParam, Mapper
from schemarouter.openapi.naming import choose_identifier, field_name, slugify, unique
from schemarouter.openapi.resolver import CircularRef
from schemarouter.openapi.schema import FlatField, schema_from_example
from schemarouter.sources.mcp import McpServer, McpToolOptions

PLACEHOLDER_BASE = "https://mcp.invalid"  # RFC 2606: a stdio server has no URL; endpoints show this one
_PARAM_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")
MAX_TOOL_TEXT = 4000


@dataclass
class MappedTool:
    """A draft endpoint and the tool it calls."""

    draft: DraftEndpoint
    options: McpToolOptions


class ToolMapper:
    """Maps a server's tools to draft endpoints, reporting what it leaves out."""

    def __init__(
        self, server: McpServer, overlay: McpOverlay, overlay_file: str, report: McpImportReport,
        samples: Mapping[str, dict[str, Any]] | None = None,
    ) -> None:
        self.server = server
        self.overlay = overlay
        self.overlay_file = overlay_file
        self.report = report
        self.samples = dict(samples or {})
        self.excluded: set[str] = set()
        self.base_url = server.url.rstrip("/") if server.url else PLACEHOLDER_BASE
        self._taken: set[str] = set()
        self._first: dict[str, str] = {}  # normalised id -> the tool that got it first
        self._document_fields = 0  # the OpenAPI importer's per-document field budget, across every tool

    def tools(self, tools: list[dict[str, Any]]) -> list[MappedTool]:
        """Draft endpoints for ``tools`` in listing order (a malformed tool is reported and left out)."""
        out = []
        seen_names: set[str] = set()
        for index, tool in enumerate(tools):
            name = tool.get("name")
            if not isinstance(name, str) or not name.strip() or len(name) > 256:
                self.report.add(f"tools[{index}]", "malformed tool", "no usable name")
                continue
            if name in seen_names:
                self.report.add(f"tool {name}", "duplicate tool", "listed twice; the first kept")
                continue
            seen_names.add(name)
            mapped = self._tool(name, tool)
            if mapped is not None:
                out.append(mapped)
        return out

    def _endpoint_id(self, name: str) -> str:
        base = slugify(name)
        endpoint_id = unique(base, self._taken, 64)
        if endpoint_id != base:
            self.report.add(f"tool {name}", "name collision",
                            f"normalises to {base!r} like tool {self._first[base]!r}; mapped as {endpoint_id!r}")
        self._first.setdefault(base, name)
        return endpoint_id

    def _tool(self, name: str, tool: dict[str, Any]) -> MappedTool | None:
        place = f"tool {name}"
        endpoint_id = self._endpoint_id(name)
        overlay = self.overlay.endpoints.get(endpoint_id)
        if overlay is not None and overlay.exclude:
            self.report.notes.append(f"{place}: excluded by the overlay")
            self.excluded.add(endpoint_id)
            return None
        access = tool_access(tool, overlay.access if overlay is not None else None)
        if not access.annotated:
            self.report.unannotated.append(name)
            self.report.notes.append(f"{place}: no readOnlyHint; read as a {access.access} (its name) - set "
                                     f"endpoints.{endpoint_id}.access in the overlay if that is wrong")
        annotations: dict[str, Any] = found if isinstance(found := tool.get("annotations"), dict) else {}
        title = str(tool.get("title") or annotations.get("title") or "").strip()[:400]
        description = str(tool.get("description") or "").strip()
        text = f"{title}. {description}" if title and description else title or description
        params = self._params(tool.get("inputSchema"), place)
        if params is None:
            return None
        draft = DraftEndpoint(
            id=endpoint_id, place=place, base_url=self.base_url, path="/tools/" + quote(name, safe=""),
            description=text[:MAX_TOOL_TEXT], records="", method=access.method, access=access.access,
            summary=(title or description.split(". ")[0])[:400], params=params,
        )
        output_schema = tool.get("outputSchema") if isinstance(tool.get("outputSchema"), dict) else None
        options = McpToolOptions(server=self.server, tool=name, output_schema=output_schema)
        if access.access == "write":
            self.report.add(place, "write tool", "kept as a write endpoint; called only where writes are allowed")
            return MappedTool(draft, options)
        if not self._fields(draft, tool, output_schema, overlay, options):
            return None
        return MappedTool(draft, options)

    # ------------------------------------------------------------------ parameters
    def _params(self, schema: Any, place: str) -> list[DraftParam] | None:
        if schema is None:
            return []
        if not isinstance(schema, dict):
            self.report.add(place, "malformed tool", "inputSchema is not an object schema")
            return None
        mapper = Mapper(schema, place, self.overlay, self.report, self.overlay_file)
        try:
            root, _ = mapper.flattener.normalize(schema, f"{place} inputSchema", ())
        except CircularRef as loop:
            self.report.add(f"{place} inputSchema", "recursive schema", loop.loop)
            return None
        if root is None:
            return None
        properties: dict[str, Any] = found if isinstance(found := root.get("properties"), dict) else {}
        listed: list[Any] = found_list if isinstance(found_list := root.get("required"), list) else []
        required = [r for r in listed if isinstance(r, str)]
        out: list[DraftParam] = []
        for key, prop in properties.items():
            where = f"{place} argument {key}"
            if not _PARAM_NAME.match(str(key)) or len(str(key)) > 128:
                self.report.add(where, "argument name not allowed in a declaration", repr(key) + (
                    "; required: send it with the overlay's endpoint 'fixed'" if key in required else ""))
                continue
            declared = {"schema": prop, "description": prop.get("description") if isinstance(prop, dict) else None}
            draft = mapper.parameter(declared, str(key), "query", key in required, where)
            if draft is not None:
                out.append(draft)
        return out

    # ------------------------------------------------------------------ fields
    def _fields(
        self, draft: DraftEndpoint, tool: dict[str, Any], output_schema: dict[str, Any] | None,
        overlay: McpEndpointOverlay | None, options: McpToolOptions,
    ) -> bool:
        """Fill the draft's records and fields; False (reported) when the tool has none to offer."""
        place, name = draft.place, options.tool
        declared = {n: f for n, f in (overlay.fields.items() if overlay else ()) if f.path is not None}
        wanted = overlay.records if overlay else None
        schema: Any = output_schema
        source_of_fields = "outputSchema"
        if schema is None:
            sample = self.samples.get(name)
            if sample is not None:
                schema = self._sample_schema(name, sample, place)
                source_of_fields = "sample"
            self.report.no_output_schema[name] = "sample" if schema is not None else "overlay" if declared else "none"
        fields: list[FlatField] = []
        records = wanted or ""
        if schema is not None:
            mapper = Mapper(schema, place, self.overlay, self.report, self.overlay_file)
            mapper.flattener.document_fields = self._document_fields
            where = f"{place} {'outputSchema' if source_of_fields == 'outputSchema' else 'sample result'}"
            records, item_schema, chain = mapper.records_of(schema, place, wanted, draft.id)
            fields = mapper.flattener.fields(item_schema, where + (f" {records}[]" if records else ""), chain)
            self._document_fields = mapper.flattener.document_fields
            if source_of_fields == "sample" and fields:
                self.report.notes.append(f"{place}: no outputSchema; {len(fields)} fields inferred from a sample result")
        if not fields and not declared:
            if schema is not None:
                self.report.add(place, "no mappable result fields")
            self.report.undescribed[place] = draft.id
            return False
        names: list[str] = []
        used: set[str] = set()
        for f in fields:
            names.append(unique(field_name(f.path), used, 128))
        for field_name_, field_overlay in declared.items():
            if field_name_ in used:
                from schemarouter.openapi.errors import OpenAPIImportError

                raise OpenAPIImportError(
                    self.overlay_file, f"endpoints.{draft.id}.fields.{field_name_}.path",
                    f"the tool's result already has a field {field_name_!r}; leave out 'path' to change it",
                )
            used.add(field_name_)
            names.append(field_name_)
            fields.append(FlatField(path=str(field_overlay.path), type=field_overlay.type or "string",
                                    description=field_overlay.description or ""))
        draft.records, draft.fields, draft.names = records, fields, names
        draft.identifier = choose_identifier(fields, names)
        return True

    def _sample_schema(self, name: str, sample: dict[str, Any], place: str) -> dict[str, Any] | None:
        """A schema inferred from a sample result, or None (reported) when it holds no JSON."""
        try:
            body = result_body(self.report.source_id, McpToolOptions(server=self.server, tool=name), sample)
        except E.StepError as err:
            self.report.add(place, "unusable sample result", str(err).split(": ", 1)[-1][:200])
            return None
        return schema_from_example(body)
