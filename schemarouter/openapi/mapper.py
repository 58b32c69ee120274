"""Map an OpenAPI document's operations to draft endpoints (before the overlay is applied).

GET operations become read endpoints. A POST becomes a read too when it only looks things up
(its operation id or summary says search, query, list, find, lookup or filter, or the overlay
lists it under ``read_only_posts``); its JSON body's top-level properties become parameters sent
in the body. Every other POST, and every PUT, PATCH and DELETE, becomes a *write* endpoint: kept
with its parameters so the router can explain a decline, never executed unless the user allows
writes for the source. GETs are mapped first, in document order, so their endpoint ids do not
depend on the other operations.

A draft keeps what the document says: id, URL, parameters (query, path, body), where records sit
and the flattened fields with their types, units and descriptions. Everything the document says
that a declaration cannot hold is reported with its place (``GET /path ...``).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from schemarouter.field_paths import WHOLE_RECORD
from schemarouter.models import PARAM_NAME_PATTERN
from schemarouter.openapi.errors import OpenAPIImportError, mapping, sequence
from schemarouter.openapi.naming import (
    choose_identifier,
    field_name,
    last_path_parameter,
    slugify,
    unique,
    valid_name,
)
from schemarouter.openapi.overlay import Overlay
from schemarouter.openapi.prose import code_labels, is_read_only_post
from schemarouter.openapi.report import ImportReport
from schemarouter.openapi.resolver import CircularRef, DanglingRef, ExternalRef, Resolver
from schemarouter.openapi.responses import JSON_TYPE, ResponseReading
from schemarouter.openapi.schema import FlatField, Flattener, schema_from_example

WHOLE_RESPONSE = WHOLE_RECORD  # the path of a field that is the whole response
WHOLE_RESPONSE_NAME = "response"

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
WRITE_METHODS = ("post", "put", "patch", "delete")
# A document's write budget: the few documents with thousands of operations (a whole cloud's API) keep
# writes only while fewer than this many endpoints are mapped (reads come first and are all kept), so
# that no import takes minutes for operations that are never executed by default.
MAX_ENDPOINTS = 2000
# And a clock: on a slow or busy machine the mapping stops taking new operations this long after the
# import started (reading the file counts), so that reading, mapping and validating any document stays
# well within 30 s; what it leaves out is reported.
MAPPING_SECONDS = 12.0
PLACEHOLDER_HOST = "https://server.invalid"  # RFC 2606: never resolves; the note says to set base_url
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")
_PARAM_NAME = re.compile(PARAM_NAME_PATTERN)  # a query parameter's name, sent as written ("page[size]")
_TEMPLATE_VAR = re.compile(r"\{([^{}]+)\}")
# a response-format suffix of a path: "{.format}" (RFC 6570 label expansion) or ".{format}" at the end
_FORMAT_SUFFIX = re.compile(r"\{(?P<label>\.[A-Za-z_][\w\-]*)\}$|\.\{(?P<dotted>[A-Za-z_][\w\-]*)\}$")
_FORMAT_NAMES = frozenset({"format", "fmt", "ext", "extension", "output", "output_format", "response_format",
                           "responseformat", "outputformat"})
_PARAM_TYPES = {"string", "integer", "number", "boolean", "array", "object"}
_FORMAT = re.compile(r"^[A-Za-z0-9_.\-]{1,64}$")


@dataclass
class DraftParam:
    """A parameter as the document declares it, before the overlay applies."""

    name: str
    type: str
    location: str  # "query" | "path" | "body"
    required: bool = False
    description: str = ""
    example: Any = None
    enum: list[Any] | None = None
    format: str | None = None
    pattern: str | None = None
    enum_labels: dict[str, str] | None = None  # what each code means, where the description lists them


@dataclass
class DraftEndpoint:
    """An operation mapped to an endpoint, before the overlay applies."""

    id: str
    place: str  # "GET /path"
    base_url: str
    path: str
    description: str
    records: str
    method: str = "GET"
    access: str = "read"
    summary: str = ""
    tags: list[str] = field(default_factory=list)
    params: list[DraftParam] = field(default_factory=list)
    fields: list[FlatField] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # one field name per entry of ``fields``
    identifier: str | None = None
    security: list[str] = field(default_factory=list)
    authorized: bool = False  # every way to call it needs a security scheme (no ``{}`` alternative)
    fixed: dict[str, Any] = field(default_factory=dict)  # parameters always sent with one value (format=json)


def as_bool(value: Any) -> bool | None:
    """A YAML/JSON boolean, also when written as a string (``"false"``); None when it is neither."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no"):
        return value.strip().lower() in ("true", "yes")
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    return None


class Mapper(ResponseReading):
    """Maps an OpenAPI document's operations to draft endpoints, reporting what it leaves out."""

    def __init__(
        self, doc: dict[str, Any], file: str, overlay: Overlay, report: ImportReport, overlay_file: str = "overlay",
        started: float | None = None,
    ) -> None:
        self.doc = doc
        self.file = file
        self.overlay = overlay
        self.overlay_file = overlay_file
        self.report = report
        self.resolver = Resolver(doc, file)
        self.flattener = Flattener(self.resolver, report)
        self.excluded: set[str] = set()
        self._auth_params = self._auth_param_names()
        self._server_noted = False
        self._kept = 0
        self._deadline = (time.monotonic() if started is None else started) + MAPPING_SECONDS
        self._budget_noted = False

    def _resolve(self, node: Any, place: str) -> Any:
        try:
            return self.resolver.resolve(node)[0]
        except ExternalRef as ext:
            self.report.add(place, "external $ref", ext.ref)
        except DanglingRef as bad:
            self.report.add(place, "dangling $ref", f"{bad.ref}: {bad.problem}")
        except CircularRef as loop:
            self.report.add(place, "circular $ref", loop.loop)
        return None

    # ------------------------------------------------------------------ servers
    def base_url(self, *levels: Any) -> str:
        """The API's base URL: the overlay's, else the first absolute server, else a placeholder."""
        if self.overlay.base_url:
            return self.overlay.base_url.rstrip("/")
        for servers in levels:
            if isinstance(servers, list) and servers and isinstance(servers[0], dict) and servers[0].get("url"):
                url = str(servers[0]["url"])
                variables = mapping(servers[0].get("variables"), self.file, "servers", "'variables'")
                for var, spec in variables.items():
                    default = spec.get("default", "") if isinstance(spec, dict) else ""
                    url = url.replace("{" + str(var) + "}", str(default))
                url = url.strip().rstrip("/")
                if url.startswith("//"):
                    url = "https:" + url  # protocol-relative: the document's own scheme is unknown; https
                if re.match(r"^https?://\S+$", url):
                    return url
                return self._placeholder(url)
        return self._placeholder("")

    def _placeholder(self, relative: str) -> str:
        """No absolute server URL: a host that never resolves, and a note saying what to set."""
        relative = relative if relative.startswith("/") and " " not in relative else ""
        url = PLACEHOLDER_HOST + relative
        if not self._server_noted:
            self._server_noted = True
            self.report.needs_base_url = True
            self.report.notes.append(
                f"servers: no absolute server URL ({relative or 'none'}); the endpoints use {url} until "
                f"base_url is given in the overlay"
            )
        return url

    # ------------------------------------------------------------------ operations
    def endpoints(self) -> list[DraftEndpoint]:
        """Draft endpoints for the document's operations: GETs first, then POST, PUT, PATCH and DELETE."""
        drafts: list[DraftEndpoint] = []
        taken: set[str] = set()
        items: list[tuple[str, dict[str, Any]]] = []
        for path, raw_item in self.doc["paths"].items():
            place = f"paths {path}"
            if str(path).startswith("x-"):
                continue  # a specification extension, not a path
            item = self._resolve(raw_item, place)
            if not isinstance(item, dict):
                self.report.add(place, "malformed path item", f"a mapping expected, not {type(item).__name__}")
                continue
            items.append((str(path), item))
        read_posts = self._read_only_posts(items)
        for path, item in items:  # GETs first: their ids are what they were before other methods mapped
            if "get" in item:
                self.report.operations += 1
                draft = self._operation(path, item, "get", taken, write=False)
                if draft is not None:
                    drafts.append(draft)
        for path, item in items:
            for method in METHODS:
                if method == "get" or method not in item:
                    continue
                place = f"{method.upper()} {path}"
                if method not in WRITE_METHODS:
                    self.report.add(place, f"{method.upper()} operation", "only GET, POST, PUT, PATCH and DELETE are mapped")
                    continue
                op = item[method]
                read = method == "post" and isinstance(op, dict) and (place in read_posts or is_read_only_post(op))
                if read:
                    self.report.operations += 1
                draft = self._operation(path, item, method, taken, write=not read)
                if draft is not None:
                    drafts.append(draft)
        return drafts

    def _operation(
        self, path: str, item: dict[str, Any], method: str, taken: set[str], write: bool,
    ) -> DraftEndpoint | None:
        """One operation; a malformed one is reported and left out, not a refusal of the document."""
        place = f"{method.upper()} {path}"
        over_time = time.monotonic() > self._deadline
        if (write and self._kept >= MAX_ENDPOINTS) or over_time:
            budget = f"{MAPPING_SECONDS:g} s of import" if over_time else f"{MAX_ENDPOINTS:,} endpoints"
            if not self._budget_noted:
                self._budget_noted = True
                self.report.notes.append(f"a very large document: operations after {budget} are reported, not "
                                         f"mapped (GETs were mapped first)")
            self.report.add(place, "document budget spent", f"{budget} already")
            return None
        try:
            op = mapping(item[method], self.file, place, "an operation")
            draft = self._endpoint(path, item, op, place, method, taken, write=write)
            self._kept += draft is not None
            return draft
        except OpenAPIImportError as err:
            if err.file != self.file:
                raise  # the overlay's mistake: the user must fix it
            self.report.add(err.place or place, "malformed operation", err.problem)
            return None

    def _read_only_posts(self, items: list[tuple[str, dict[str, Any]]]) -> set[str]:
        """The places (``POST /path``) the overlay's ``read_only_posts`` names; an unknown name is an error."""
        by_name: dict[str, str] = {}
        for path, item in items:
            op = item.get("post")
            if isinstance(op, dict):
                place = f"POST {path}"
                by_name[place] = place
                if isinstance(op.get("operationId"), str):
                    by_name[op["operationId"]] = place
                    by_name[slugify(op["operationId"])] = place
        out: set[str] = set()
        for index, name in enumerate(self.overlay.read_only_posts):
            if name not in by_name:
                raise OpenAPIImportError(
                    self.overlay_file, f"read_only_posts[{index}]",
                    f"no POST operation {name!r} in the document (give an operationId or 'POST /path')",
                )
            out.add(by_name[name])
        return out

    def _endpoint_id(self, op: dict[str, Any], path: str, method: str, taken: set[str]) -> str:
        op_id = op.get("operationId")
        if op_id:
            base = slugify(re.sub(r"^(get)[_\-\s]+", "", str(op_id), flags=re.IGNORECASE))
        elif method == "get":
            base = slugify(path.replace("{", "by_"))
        else:
            base = slugify(f"{method}_{path.replace('{', 'by_')}")
        return unique(base, taken, 64)

    def _endpoint(
        self, path: str, item: dict[str, Any], op: dict[str, Any], place: str, method: str, taken: set[str],
        write: bool = False,
    ) -> DraftEndpoint | None:
        endpoint_id = self._endpoint_id(op, path, method, taken)
        base_url = self.base_url(op.get("servers"), item.get("servers"), self.doc.get("servers"))
        overlay = self.overlay.endpoints.get(endpoint_id)
        if overlay is not None and overlay.exclude:
            self.report.notes.append(f"{place}: excluded by the overlay")
            self.excluded.add(endpoint_id)
            return None
        summary = str(op.get("summary") or "").strip()
        description = summary
        if op.get("description"):
            description = f"{description}. {str(op['description']).strip()}" if description else str(op["description"]).strip()
        tags = list(dict.fromkeys(str(t).strip()[:120] for t in sequence(op.get("tags"), self.file, place, "'tags'")
                                  if isinstance(t, (str, int)) and str(t).strip()))
        found = self._params(item.get("parameters"), op.get("parameters"), place)
        if found is None:
            return None
        params, renames = found
        path, fixed = self._json_format(path, params, renames, place)
        for old, new in renames.items():
            path = path.replace("{" + old + "}", "{" + new + "}")
        path = self._path_template(path, params, place)
        path = "/" + re.sub(r"\s", lambda m: f"%{ord(m.group()):02X}", path.lstrip("/"))  # a URL path has no spaces
        if method != "get":
            body = self._body_params(op, place, {p.name for p in params}, write)
            if body is None:
                return None
            params += body
        security = sequence(op.get("security", self.doc.get("security")), self.file, f"{place} security", "'security'")
        schemes = sorted({name for req in security if isinstance(req, dict) for name in req})
        authorized = bool(schemes) and not any(isinstance(req, dict) and not req for req in security)
        draft = DraftEndpoint(
            id=endpoint_id, place=place, base_url=base_url, path=path, description=description[:4000], records="",
            method=method.upper(), access="write" if write else "read", summary=summary[:400], tags=tags,
            params=params, security=schemes, authorized=authorized, fixed=fixed,
        )
        if write:
            self.report.add(place, "write operation", "kept as a write endpoint; executed only where writes are allowed")
            return draft
        # fields the overlay declares (with a path) for a response the document leaves undescribed
        declared = {name: f for name, f in (overlay.fields.items() if overlay else ()) if f.path is not None}
        # a response the overlay describes is mapped: what the document lacks is no unmapped item then
        schema, example = self._response_schema(op, place, report=not declared)
        if schema is None and example is None and not declared and not self._undescribed_body(op):
            self.report.undescribed[place] = endpoint_id
            return None
        wanted = overlay.records if overlay else None
        records: str = wanted or ""
        item_schema: Any = {}
        chain: tuple[str, ...] = ()
        fields: list[FlatField] = []
        keys = [p.name for p in params if p.location == "path"]
        # the parameter a path ends with addresses one record (``/studies/{urn}``): an object answering
        # it that carries that property is the record, whatever lists it holds
        last = last_path_parameter(path)
        addressed = [last] if last else []
        if schema is not None:
            records, item_schema, chain = self._records(schema, place, wanted, endpoint_id, addressed)
            fields = self.flattener.fields(item_schema, f"{place} response" + (f" {records}[]" if records else ""), chain)
        if not fields and example is not None:
            # The schema declares nothing usable (free-form, untyped, a string holding JSON); the
            # document's own response example shows the record's shape.
            inferred = schema_from_example(example)
            records, item_schema, chain = self._records(inferred, place, wanted, endpoint_id, addressed)
            fields = self.flattener.fields(item_schema, f"{place} example" + (f" {records}[]" if records else ""), chain)
            if fields:
                self.report.notes.append(f"{place}: the schema declares no fields; {len(fields)} fields inferred "
                                         f"from the response example")
        if not fields and not declared:
            if (schema is not None or example is not None) and not self._undescribed_body(op):
                self.report.add(place, "no mappable response fields")
                self.report.undescribed[place] = endpoint_id
                return None
            # An operation whose success response the document leaves undescribed still answers
            # something: its whole response is one field, so the operation can be found, planned and
            # run; the overlay can name its fields instead (endpoints.<id>.fields).
            fields = [FlatField(path=WHOLE_RESPONSE, type="object",
                                description=f"The whole response of {summary or endpoint_id} "
                                            "(the document describes no fields)")]
            self.report.notes.append(f"{place}: the document describes no response fields; its whole response "
                                     f"is one field, {WHOLE_RESPONSE_NAME!r}")
        names: list[str] = []
        used: set[str] = set()
        for f in fields:
            names.append(unique(WHOLE_RESPONSE_NAME if f.path == WHOLE_RESPONSE else field_name(f.path), used, 128))
        for name, field_overlay in declared.items():
            if name in used:
                raise OpenAPIImportError(
                    self.overlay_file, f"endpoints.{endpoint_id}.fields.{name}.path",
                    f"the document's response already has a field {name!r}; leave out 'path' to change it",
                )
            used.add(name)
            names.append(name)
            fields.append(FlatField(path=str(field_overlay.path), type=field_overlay.type or "string",
                                    description=field_overlay.description or ""))
        if declared:
            self.report.notes.append(f"{place}: {len(declared)} response fields declared by the overlay")
        draft.records, draft.fields, draft.names = records, fields, names
        draft.identifier = choose_identifier(fields, names, keys)
        return draft

    def _json_format(self, path: str, params: list[DraftParam], renames: dict[str, str],
                     place: str) -> tuple[str, dict[str, Any]]:
        """Ask for JSON where the document lets the caller choose the response format: a format
        suffix of the path (``/projects/{id}{.format}``, RFC 6570's label expansion, or
        ``/projects/{id}.{format}``) becomes ``.json``, and a ``format``-like query parameter that
        offers ``json`` is always sent with it. Their parameters leave the endpoint (noted): the
        executor reads JSON, so they are no choice a question makes."""
        fixed: dict[str, Any] = {}
        by_name = {p.name: p for p in params}

        def offers_json(p: DraftParam | None) -> Any:
            return next((m for m in p.enum or () if isinstance(m, str) and m.lower() == "json"), None) if p else None

        dropped: set[str] = set()
        for m in list(_FORMAT_SUFFIX.finditer(path)):
            var = m.group("label") or m.group("dotted")
            bare = var.lstrip(".")
            declared = by_name.get(renames.get(var, var))
            query = by_name.get(bare) if by_name.get(bare) is not None and by_name[bare].location == "query" else None
            if not (bare.lower() in _FORMAT_NAMES or offers_json(declared) or offers_json(query)):
                continue
            path = path.replace(m.group(), ".json", 1)
            if declared is not None and declared.location == "path":
                dropped.add(declared.name)
                renamed = f"{place} parameter {var}: path variable renamed"
                self.report.notes[:] = [n for n in self.report.notes if not n.startswith(renamed)]
            self.report.notes.append(f"{place}: format suffix {m.group()} sent as .json")
        for p in params:
            member = offers_json(p)
            if p.location == "query" and member is not None and p.name.lower() in _FORMAT_NAMES:
                fixed[p.name] = member
                dropped.add(p.name)
                self.report.notes.append(f"{place} parameter {p.name}: always sent as {member!r} (JSON is what is read)")
        params[:] = [p for p in params if p.name not in dropped]
        return path, fixed

    def _path_template(self, path: str, params: list[DraftParam], place: str) -> str:
        """Path variables the parameters do not declare become required string parameters (noted)."""
        declared = {p.name for p in params if p.location == "path"}
        for var in _TEMPLATE_VAR.findall(path):
            if var in declared:
                continue
            name = valid_name(var, {p.name for p in params})
            if name != var:
                path = path.replace("{" + var + "}", "{" + name + "}")
            params.append(DraftParam(name=name, type="string", location="path", required=True))
            declared.add(name)
            self.report.notes.append(f"{place}: path variable {{{var}}} has no parameter; mapped as a required string")
        return path

    # ------------------------------------------------------------------ parameters
    def _params(self, path_level: Any, op_level: Any, place: str) -> tuple[list[DraftParam], dict[str, str]] | None:
        """The query and path parameters, and path variables renamed to declarable names (old -> new)."""
        merged: dict[tuple[str, str], dict[str, Any]] = {}
        for group in (path_level, op_level):
            for index, raw in enumerate(sequence(group, self.file, place, "'parameters'")):
                param = self._resolve(raw, f"{place} parameters[{index}]")
                if not isinstance(param, dict) or "name" not in param or "in" not in param:
                    continue
                merged[(str(param["in"]), str(param["name"]))] = param
        out: list[DraftParam] = []
        renames: dict[str, str] = {}
        query_names = {name for (location, name) in merged if location == "query"}
        for (location, name), param in merged.items():
            where = f"{place} parameter {name}"
            required = location == "path" or bool(as_bool(param.get("required")))
            if location in ("header", "cookie"):
                self.report.add(where, f"{location} parameter")
                continue
            if location not in ("query", "path"):
                self.report.add(where, f"parameter in {location!r}")
                continue
            if location == "query" and name in self._auth_params:
                continue  # the API key: sent by the adapter from the auth env var
            declared_name = name
            if location == "path" and (not _NAME.match(name) or name in query_names):
                # a path variable's name never goes on the wire: rename it to a declarable one
                taken = query_names | {n for (loc, n) in merged if loc == "path" and n != name}
                declared_name = valid_name(name + ("_path" if name in query_names else ""), taken)
            elif not _PARAM_NAME.match(name):
                self.report.add(where, "parameter name not allowed in a declaration", repr(name) + (
                    "; required: send it with the overlay's endpoint 'fixed'" if required else ""))
                continue
            draft = self._param(param, declared_name, location, required, where)
            if draft is None:
                if location == "path":
                    return None
                continue
            if declared_name != name:
                renames[name] = declared_name
                self.report.notes.append(f"{where}: path variable renamed {{{name}}} -> {{{declared_name}}}")
                draft.description = draft.description or f"path variable {{{name}}}"
            out.append(draft)
        return out, renames

    def parameter(self, param: dict[str, Any], name: str, location: str, required: bool, where: str) -> DraftParam | None:
        """A parameter from its declaration (``schema``, ``description``, ``example``); the MCP importer
        maps a tool's input properties through it too."""
        return self._param(param, name, location, required, where)

    def records_of(self, schema: Any, place: str, wanted: str | None, endpoint_id: str) -> tuple[str, Any, tuple[str, ...]]:
        """Where a response's records sit, their schema and its ``$ref`` chain (see :meth:`_records`)."""
        return self._records(schema, place, wanted, endpoint_id)

    def _param(self, param: dict[str, Any], name: str, location: str, required: bool, where: str) -> DraftParam | None:
        schema_raw = param.get("schema")
        if schema_raw is None:
            if "content" in param:
                self.report.add(where, "parameter without a schema", "content-typed parameters are not mapped"
                                + ("; required: send it with the overlay's endpoint 'fixed'" if required else ""))
                return None if location != "path" else DraftParam(name, "string", location, True)
            schema_raw = {}
        try:
            schema, _ = self.flattener.normalize(schema_raw, where, ())
        except CircularRef:
            schema = None
        kind = self.flattener.value_type(schema, where) if schema is not None else None
        schema = schema or {}
        if kind not in _PARAM_TYPES:
            self.report.notes.append(f"{where}: no single parameter type ({kind or 'a union, or none'}); read as a string")
            kind = "string"
        fmt = schema.get("format") if isinstance(schema.get("format"), str) else None
        if kind == "string" and fmt in ("date", "date-time"):
            kind = "date"
        example = param.get("example", schema.get("example", schema.get("default")))
        enum = schema.get("enum") if isinstance(schema.get("enum"), list) else None
        items = self._resolve(schema.get("items"), f"{where} items") if kind == "array" else None
        if enum is None and isinstance(items, dict) and isinstance(items.get("enum"), list):
            enum = items["enum"]  # a list of codes (TCGA cohorts): each member one of these
        description = str(param.get("description") or schema.get("description") or "").strip()[:4000]
        labels = None
        if enum is None and kind in ("integer", "string"):
            # "Mapping for item_type is: 1 - Figure, 2 - Media, 3 - Dataset": the codes become
            # declared data (enum, enum_labels), which the overlay may correct
            labels = code_labels(description)
            if labels:
                enum = [int(code) if kind == "integer" else code for code in labels]
                self.report.notes.append(f"{where}: {len(labels)} codes and their labels read from the description")
        return DraftParam(
            name=name, type=kind, location=location, required=required, description=description,
            example=example, enum=enum, format=fmt if fmt and _FORMAT.match(fmt) else None,
            pattern=self._pattern(schema.get("pattern"), where), enum_labels=labels,
        )

    def _pattern(self, value: Any, where: str) -> str | None:
        if not isinstance(value, str) or not value or len(value) > 500:
            return None
        try:
            re.compile(value)
        except (re.error, RecursionError, OverflowError):
            self.report.notes.append(f"{where}: pattern is not a Python regular expression; left out")
            return None
        return value

    def _body_params(self, op: dict[str, Any], place: str, taken: set[str], write: bool) -> list[DraftParam] | None:
        """The JSON request body's top-level properties as ``body`` parameters."""
        raw = op.get("requestBody")
        if raw is None:
            return []
        body = self._resolve(raw, f"{place} requestBody")
        content = mapping(mapping(body, self.file, f"{place} requestBody", "a request body").get("content"),
                          self.file, f"{place} requestBody", "'content'")
        json_types = [t for t in map(str, content) if JSON_TYPE.match(t.split(";")[0].strip())]
        if not json_types:
            self.report.add(place, "non-JSON request body", ", ".join(map(str, content)) or "no content")
            return [] if write else None
        where = f"{place} requestBody"
        media = mapping(content[json_types[0]], self.file, f"{where} {json_types[0]}", "a media type")
        try:
            schema, _ = self.flattener.normalize(media.get("schema", {}), where, ())
        except CircularRef:
            schema = None
        if schema is None or self.flattener.value_type(schema, where) != "object":
            self.report.add(where, "request body is not an object with properties")
            return [] if write else None
        required: list[Any] = schema["required"] if isinstance(schema.get("required"), list) else []
        out: list[DraftParam] = []
        for key, prop in (schema.get("properties") or {}).items():
            name = str(key)
            prop_where = f"{where} {name}"
            if name in self._auth_params:
                continue  # the key: sent by the adapter from the auth env var
            if not _NAME.match(name) or name in taken:
                self.report.add(prop_where, "body property not declarable as a parameter",
                                "name clashes with a query or path parameter" if name in taken else repr(name))
                continue
            draft = self._param({"schema": prop}, name, "body", name in required, prop_where)
            if draft is not None:
                out.append(draft)
        return out

    def _auth_param_names(self) -> set[str]:
        """The query parameters that carry the key: those of the document's apiKey schemes, and the
        one the overlay's ``auth`` names (a document may declare its key as a plain parameter)."""
        components = mapping(self.doc.get("components"), self.file, "components", "'components'")
        schemes = mapping(components.get("securitySchemes"), self.file, "components securitySchemes", "'securitySchemes'")
        names = {
            str(s.get("name")) for s in schemes.values()
            if isinstance(s, dict) and s.get("type") == "apiKey" and s.get("in") == "query"
        }
        auth = self.overlay.auth
        if auth is not None and auth.location == "query":
            names.add(auth.name)
        return names
