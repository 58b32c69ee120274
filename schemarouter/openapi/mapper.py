"""Map an OpenAPI document's GET operations to draft endpoints (before the overlay is applied).

A draft keeps what the document says: id, URL, query and path parameters, where records sit
and the flattened fields with their types, units and descriptions. Everything the document
says that a declaration cannot hold is reported with its place (``GET /path ...``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from schemarouter.openapi.errors import OpenAPIImportError, mapping, sequence
from schemarouter.openapi.overlay import Overlay
from schemarouter.openapi.report import ImportReport
from schemarouter.openapi.resolver import ExternalRef, Resolver
from schemarouter.openapi.schema import FlatField, Flattener

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")
_TEMPLATE_VAR = re.compile(r"\{([^{}]+)\}")
_PARAM_TYPES = {"string", "integer", "number", "boolean", "array", "object"}
_ID_KEYS = ("uuid", "uid", "key", "code", "slug")


@dataclass
class DraftParam:
    name: str
    type: str
    location: str  # "query" | "path"
    required: bool = False
    description: str = ""
    example: Any = None
    enum: list[Any] | None = None


@dataclass
class DraftEndpoint:
    id: str
    place: str  # "GET /path"
    base_url: str
    path: str
    description: str
    records: str
    params: list[DraftParam] = field(default_factory=list)
    fields: list[FlatField] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # one field name per entry of ``fields``
    identifier: str | None = None
    security: list[str] = field(default_factory=list)


def slugify(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "_", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", text).lower()).strip("_")
    if not slug or not slug[0].isalpha():
        slug = f"op_{slug}".rstrip("_")
    return slug[:64].rstrip("_")


def field_name(path: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]+", "_", path.replace("[]", "").replace(".", "_")).strip("_")
    return name if name and (name[0].isalpha() or name[0] == "_") else f"f_{name}"


def _unique(base: str, taken: set[str], limit: int) -> str:
    name, n = base[:limit], 2
    while name in taken:
        suffix = f"_{n}"
        name, n = base[: limit - len(suffix)] + suffix, n + 1
    taken.add(name)
    return name


def choose_identifier(fields: list[FlatField], names: list[str]) -> str | None:
    """The record key: an ``id``-like scalar outside lists, top level before nested."""
    scalar = [(f, n) for f, n in zip(fields, names) if not f.in_list and f.type in ("string", "integer")]
    top = [(f, n) for f, n in scalar if "." not in f.path]
    for pool in (top, scalar):
        for rule in (
            lambda k: k.lower() == "id",
            lambda k: k.lower() in _ID_KEYS,
            lambda k: k.endswith(("_id", "Id", "ID", "-id")),
        ):
            for f, n in pool:
                if rule(f.key):
                    return n
    return None


class Mapper:
    def __init__(
        self, doc: dict[str, Any], file: str, overlay: Overlay, report: ImportReport, overlay_file: str = "overlay"
    ) -> None:
        self.doc = doc
        self.file = file
        self.overlay = overlay
        self.overlay_file = overlay_file
        self.report = report
        self.resolver = Resolver(doc, file)
        self.flattener = Flattener(self.resolver, report)
        self.excluded: set[str] = set()

    def _resolve(self, node: Any, place: str) -> Any:
        try:
            return self.resolver.resolve(node, place)[0]
        except ExternalRef as ext:
            self.report.add(place, "external $ref", ext.ref)
            return None

    def base_url(self, *levels: Any) -> str | None:
        if self.overlay.base_url:
            return self.overlay.base_url.rstrip("/")
        for servers in levels:
            if isinstance(servers, list) and servers and isinstance(servers[0], dict) and servers[0].get("url"):
                url = str(servers[0]["url"])
                variables = mapping(servers[0].get("variables"), self.file, "servers", "'variables'")
                for var, spec in variables.items():
                    default = spec.get("default", "") if isinstance(spec, dict) else ""
                    url = url.replace("{" + str(var) + "}", str(default))
                return url.rstrip("/")
        return None

    def endpoints(self) -> list[DraftEndpoint]:
        drafts: list[DraftEndpoint] = []
        taken: set[str] = set()
        for path, raw_item in self.doc["paths"].items():
            item = mapping(self._resolve(raw_item, f"paths {path}"), self.file, f"paths {path}", "a path item")
            for method in METHODS:
                if method not in item:
                    continue
                place = f"{method.upper()} {path}"
                if method != "get":
                    self.report.add(place, "non-GET operation", "only GET operations become endpoints")
                    continue
                self.report.operations += 1
                op = mapping(item["get"], self.file, place, "an operation")
                draft = self._endpoint(str(path), item, op, place, taken)
                if draft is not None:
                    drafts.append(draft)
        return drafts

    def _endpoint(
        self, path: str, item: dict[str, Any], op: dict[str, Any], place: str, taken: set[str]
    ) -> DraftEndpoint | None:
        op_id = op.get("operationId")
        base = slugify(re.sub(r"^(get)[_\-\s]+", "", str(op_id), flags=re.I)) if op_id else slugify(path.replace("{", "by_"))
        endpoint_id = _unique(base, taken, 64)
        base_url = self.base_url(op.get("servers"), item.get("servers"), self.doc.get("servers"))
        if base_url is None or not re.match(r"^https?://\S+$", base_url):
            raise OpenAPIImportError(
                self.file, f"{place} servers",
                f"no absolute server URL ({base_url or 'none'}); give base_url in the overlay",
            )
        overlay = self.overlay.endpoints.get(endpoint_id)
        if overlay is not None and overlay.exclude:
            self.report.notes.append(f"{place}: excluded by the overlay")
            self.excluded.add(endpoint_id)
            return None
        description = str(op.get("summary") or "").strip()
        if op.get("description"):
            description = f"{description}. {str(op['description']).strip()}" if description else str(op["description"]).strip()
        params = self._params(item.get("parameters"), op.get("parameters"), place)
        if params is None:
            return None
        declared = {p.name for p in params if p.location == "path"}
        missing = [v for v in _TEMPLATE_VAR.findall(path) if v not in declared]
        if missing:
            self.report.add(place, "path variable without a usable parameter", ", ".join(missing))
            return None
        schema = self._response_schema(op, place)
        if schema is None:
            return None
        records, item_schema, chain = self._records(schema, place, overlay.records if overlay else None, endpoint_id)
        fields = self.flattener.fields(item_schema, f"{place} response" + (f" {records}[]" if records else ""), chain)
        if not fields:
            self.report.add(place, "no mappable response fields")
            return None
        names: list[str] = []
        used: set[str] = set()
        for f in fields:
            names.append(_unique(field_name(f.path), used, 128))
        security = sequence(op.get("security", self.doc.get("security")), self.file, f"{place} security", "'security'")
        schemes = sorted({name for req in security if isinstance(req, dict) for name in req})
        return DraftEndpoint(
            id=endpoint_id, place=place, base_url=base_url, path=path, description=description[:4000],
            records=records, params=params, fields=fields, names=names,
            identifier=choose_identifier(fields, names), security=schemes,
        )

    def _params(self, path_level: Any, op_level: Any, place: str) -> list[DraftParam] | None:
        merged: dict[tuple[str, str], dict[str, Any]] = {}
        for group in (path_level, op_level):
            for index, raw in enumerate(sequence(group, self.file, place, "'parameters'")):
                param = self._resolve(raw, f"{place} parameters[{index}]")
                if not isinstance(param, dict) or "name" not in param or "in" not in param:
                    continue
                merged[(str(param["in"]), str(param["name"]))] = param
        auth_params = self._auth_param_names()
        out: list[DraftParam] = []
        for (location, name), param in merged.items():
            where = f"{place} parameter {name}"
            if location in ("header", "cookie"):
                self.report.add(where, f"{location} parameter")
                continue
            if location == "query" and name in auth_params:
                continue  # the API key: sent by the adapter from the auth env var
            if not _NAME.match(name):
                self.report.add(where, "parameter name not allowed in a declaration", repr(name))
                if location == "path" or param.get("required"):
                    return None
                continue
            if "schema" not in param:
                self.report.add(where, "parameter without a schema", "content-typed parameters are not mapped")
                if location == "path" or param.get("required"):
                    return None
                continue
            schema, _ = self.flattener.normalize(param["schema"], where, ())
            kind = self.flattener.value_type(schema, where) if schema is not None else None
            if kind not in _PARAM_TYPES:
                self.report.add(where, "parameter of unknown type", str(kind))
                if location == "path" or param.get("required"):
                    return None
                continue
            assert schema is not None
            if kind == "string" and schema.get("format") in ("date", "date-time"):
                kind = "date"
            example = param.get("example", schema.get("example", schema.get("default")))
            enum = schema.get("enum") if isinstance(schema.get("enum"), list) else None
            out.append(DraftParam(
                name=name, type=kind, location=location, required=bool(param.get("required") or location == "path"),
                description=str(param.get("description") or schema.get("description") or "").strip()[:4000],
                example=example, enum=enum,
            ))
        return out

    def _auth_param_names(self) -> set[str]:
        components = mapping(self.doc.get("components"), self.file, "components", "'components'")
        schemes = mapping(components.get("securitySchemes"), self.file, "components securitySchemes", "'securitySchemes'")
        return {
            str(s.get("name")) for s in schemes.values()
            if isinstance(s, dict) and s.get("type") == "apiKey" and s.get("in") == "query"
        }

    def _response_schema(self, op: dict[str, Any], place: str) -> Any:
        raw = mapping(op.get("responses"), self.file, f"{place} responses", "'responses'")
        responses = {str(code): value for code, value in raw.items()}  # YAML: 200 is an int
        codes = [c for c in responses if c == "200"] or sorted(c for c in responses if c.startswith("2"))
        if not codes:
            self.report.add(place, "no 2xx response")
            return None
        response = self._resolve(responses[codes[0]], f"{place} response {codes[0]}")
        where = f"{place} response {codes[0]}"
        content = mapping(mapping(response, self.file, where, "a response").get("content"), self.file, where, "'content'")
        json_types = [t for t in map(str, content) if t.split(";")[0].strip() == "application/json" or t.endswith("+json")]
        if not json_types:
            self.report.add(place, "non-JSON response", ", ".join(content) or "no content")
            return None
        schema = mapping(content[json_types[0]], self.file, f"{where} {json_types[0]}", "a media type").get("schema")
        if schema is None:
            self.report.add(place, "JSON response without a schema")
            return None
        return schema

    def _records(
        self, schema: Any, place: str, wanted: str | None, endpoint_id: str
    ) -> tuple[str, Any, tuple[str, ...]]:
        """Where records sit: the overlay's path, a root list, or the one list of objects."""
        where = f"{place} response"
        node, chain = self.flattener.normalize(schema, where, ())
        if node is None:
            return "", schema, ()
        if wanted is not None:
            return wanted, self._follow(node, chain, wanted, place, endpoint_id), chain
        if self.flattener.value_type(node, where) == "array":
            return "", node.get("items", {}), chain
        if _has_id_property(node):
            return "", node, chain  # a record with an id of its own, not an envelope around a list
        lists = []
        for key, child in (node.get("properties") or {}).items():
            child_node, child_chain = self.flattener.normalize(child, f"{where} {key}", chain)
            if child_node is None or self.flattener.value_type(child_node, where) != "array":
                continue
            items, _ = self.flattener.normalize(child_node.get("items", {}), f"{where} {key}[]", child_chain)
            if items is not None and self.flattener.value_type(items, where) == "object" and items.get("properties"):
                lists.append((key, child_node.get("items", {}), child_chain))
        if len(lists) == 1:
            return lists[0]
        return "", node, chain

    def _follow(self, node: dict[str, Any], chain: tuple[str, ...], path: str, place: str, endpoint_id: str) -> Any:
        if path == "":
            return node.get("items", {}) if self.flattener.value_type(node, place) == "array" else node
        current: Any = node
        for key in path.split("."):
            props = (current or {}).get("properties") or {}
            if key not in props:
                raise OpenAPIImportError(
                    self.overlay_file, f"endpoints.{endpoint_id}.records",
                    f"{path!r}: the response has no property {key!r} (has: {', '.join(props) or 'none'})",
                )
            current, chain = self.flattener.normalize(props[key], f"{place} response {key}", chain)
        if current is not None and self.flattener.value_type(current, place) == "array":
            return current.get("items", {})
        return current


def _has_id_property(node: dict[str, Any]) -> bool:
    keys = [str(k) for k in (node.get("properties") or {})]
    return any(k.lower() == "id" or k.lower() in _ID_KEYS or k.endswith(("_id", "Id", "ID")) for k in keys)
