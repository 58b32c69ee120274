"""Convert a Swagger 2.0 document to OpenAPI 3.0, so the importer maps both the same way.

Why a converter of our own: the maintained converters are not Python libraries one can call
offline. ``swagger2openapi`` (the converter behind APIs.guru) and ``swagger-converter`` run on
Node.js and the JVM; ``prance``'s ``convert`` module posts the document to an online service,
which a private specification must not leave for; and the one native package offering offline
conversion from Python is a few weeks old and ships a platform-specific binary. The mapping is
small and fixed by the two specifications, so it is written out here, covering what the importer
reads and bounded like every other walk (its input comes from :mod:`schemarouter.safeload`):

* ``host`` + ``basePath`` + ``schemes`` -> ``servers`` (https first);
* ``definitions`` / ``parameters`` / ``responses`` / ``securityDefinitions`` -> ``components``,
  every ``$ref`` rewritten to match;
* non-body parameters get a ``schema`` (type, format, items, enum, default, pattern, bounds);
* a ``body`` parameter, or the ``formData`` parameters, become the ``requestBody`` for each type
  the operation ``consumes``; a response ``schema`` becomes ``content`` for each type it
  ``produces`` (``application/json`` when neither says);
* ``type: file`` -> a binary string, ``x-nullable`` -> ``nullable``, a string ``discriminator``
  -> ``{propertyName: ...}``.
"""

from __future__ import annotations

from typing import Any

from schemarouter.openapi.errors import OpenAPIImportError

TARGET_VERSION = "3.0.3"
_PARAM_SCHEMA_KEYS = (
    "type", "format", "items", "enum", "default", "pattern", "maximum", "minimum", "exclusiveMaximum",
    "exclusiveMinimum", "maxLength", "minLength", "maxItems", "minItems", "uniqueItems", "multipleOf",
)
_OPERATIONS = ("get", "put", "post", "delete", "options", "head", "patch")
_REF_PREFIXES = {
    "#/definitions/": "#/components/schemas/",
    "#/parameters/": "#/components/parameters/",
    "#/responses/": "#/components/responses/",
}
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _rewrite_ref(ref: str, body_params: set[str]) -> str:
    if ref.startswith("#/parameters/") and ref[len("#/parameters/"):] in body_params:
        return "#/components/requestBodies/" + ref[len("#/parameters/"):]
    for old, new in _REF_PREFIXES.items():
        if ref.startswith(old):
            return new + ref[len(old):]
    return ref


class _Converter:
    def __init__(self, doc: dict[str, Any], file: str) -> None:
        self.doc = doc
        self.file = file
        parameters: dict[str, Any] = doc["parameters"] if isinstance(doc.get("parameters"), dict) else {}
        self.global_params: dict[str, Any] = parameters
        self.body_params = {str(k) for k, v in parameters.items() if isinstance(v, dict) and v.get("in") == "body"}
        self._memo: dict[int, Any] = {}

    # ---------------------------------------------------------------- schemas (rewritten, shared kept shared)
    def schema(self, node: Any, depth: int = 0) -> Any:
        """A copy of ``node`` with refs rewritten and the few 2.0-only keywords translated."""
        if not isinstance(node, (dict, list)):
            return node
        if depth > 256:  # safeload bounds documents to fewer levels; this is the converter's own guard
            raise OpenAPIImportError(self.file, "", "schema nesting too deep to convert")
        key = id(node)
        if key in self._memo:
            return self._memo[key]
        if isinstance(node, list):
            out_list: list[Any] = []
            self._memo[key] = out_list
            out_list.extend(self.schema(v, depth + 1) for v in node)
            return out_list
        out: dict[str, Any] = {}
        self._memo[key] = out
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str):
                out[k] = _rewrite_ref(v, self.body_params)
            elif k == "x-nullable":
                out["nullable"] = v
            elif k == "discriminator" and isinstance(v, str):
                out[k] = {"propertyName": v}
            elif k == "type" and v == "file":
                out["type"], out["format"] = "string", "binary"
            else:
                out[k] = self.schema(v, depth + 1)
        return out

    # ---------------------------------------------------------------- parameters
    def parameter(self, param: dict[str, Any]) -> dict[str, Any]:
        """A query/path/header parameter with its type facts moved into ``schema``."""
        out = {k: self.schema(v) for k, v in param.items()
               if k not in _PARAM_SCHEMA_KEYS and k not in ("collectionFormat", "allowEmptyValue", "x-example")}
        schema = {k: self.schema(param[k]) for k in _PARAM_SCHEMA_KEYS if k in param}
        if schema.get("type") == "file":
            schema["type"], schema["format"] = "string", "binary"
        if "schema" not in out:
            out["schema"] = schema
        if "x-example" in param and "example" not in out:
            out["example"] = param["x-example"]
        if param.get("collectionFormat") == "multi":
            out["explode"] = True
        return out

    def _lookup_param(self, raw: Any) -> tuple[Any, bool]:
        """(the parameter, whether it came through a ``#/parameters/`` ref)."""
        if isinstance(raw, dict) and isinstance(raw.get("$ref"), str) and raw["$ref"].startswith("#/parameters/"):
            return self.global_params.get(raw["$ref"][len("#/parameters/"):]), True
        return raw, False

    def parameters(
        self, raws: Any, consumes: list[str],
    ) -> tuple[list[Any], dict[str, Any] | None]:
        """Converted non-body parameters, and the request body (from ``body`` or ``formData``)."""
        out: list[Any] = []
        body: dict[str, Any] | None = None
        form: dict[str, Any] = {}
        form_required: list[str] = []
        for raw in raws if isinstance(raws, list) else []:
            param, via_ref = self._lookup_param(raw)
            if not isinstance(param, dict):
                out.append(self.schema(raw))  # a dangling or odd entry: the mapper reports it
                continue
            where = param.get("in")
            if where == "body":
                types = [t for t in consumes if t not in _FORM_TYPES] or ["application/json"]
                schema = self.schema(param.get("schema", {}))
                body = {"content": {t: {"schema": schema} for t in types}}
                if param.get("required") is not None:
                    body["required"] = param.get("required")
                if param.get("description"):
                    body["description"] = param["description"]
            elif where == "formData":
                name = str(param.get("name"))
                form[name] = self.parameter(param)["schema"]
                if param.get("description"):
                    form[name] = {**form[name], "description": param["description"]}
                if param.get("required") in (True, "true"):
                    form_required.append(name)
            elif via_ref:
                out.append({"$ref": _rewrite_ref(raw["$ref"], self.body_params)})
            else:
                out.append(self.parameter(param))
        if form and body is None:
            types = [t for t in consumes if t in _FORM_TYPES] or ["application/x-www-form-urlencoded"]
            form_schema: dict[str, Any] = {"type": "object", "properties": form}
            if form_required:
                form_schema["required"] = form_required
            body = {"content": {t: {"schema": form_schema} for t in types}}
        return out, body

    # ---------------------------------------------------------------- responses
    def response(self, raw: Any, produces: list[str]) -> Any:
        if not isinstance(raw, dict):
            return raw
        if isinstance(raw.get("$ref"), str):
            return {"$ref": _rewrite_ref(raw["$ref"], self.body_params)}
        out: dict[str, Any] = {"description": raw.get("description") or ""}
        if "schema" in raw:
            schema = self.schema(raw["schema"])
            examples: dict[str, Any] = raw["examples"] if isinstance(raw.get("examples"), dict) else {}
            content: dict[str, Any] = {}
            for media in produces or ["application/json"]:
                content[media] = {"schema": schema}
                if media in examples:
                    content[media]["example"] = examples[media]
            out["content"] = content
        if isinstance(raw.get("headers"), dict):
            out["headers"] = {name: {"description": (h or {}).get("description", ""), "schema": self.parameter(h)["schema"]}
                              for name, h in raw["headers"].items() if isinstance(h, dict)}
        return out

    # ---------------------------------------------------------------- operations and paths
    def operation(self, op: dict[str, Any], consumes: list[str], produces: list[str]) -> dict[str, Any]:
        consumes = _types(op.get("consumes")) or consumes
        produces = _types(op.get("produces")) or produces
        out = {k: self.schema(v) for k, v in op.items()
               if k not in ("parameters", "responses", "consumes", "produces", "schemes")}
        params, body = self.parameters(op.get("parameters"), consumes)
        if params:
            out["parameters"] = params
        if body is not None:
            out["requestBody"] = body
        responses = op.get("responses")
        if isinstance(responses, dict):
            out["responses"] = {code: self.response(r, produces) for code, r in responses.items()}
        elif responses is not None:
            out["responses"] = responses  # wrong type: the mapper names it
        return out

    def path_item(self, item: Any, consumes: list[str], produces: list[str]) -> Any:
        if not isinstance(item, dict):
            return item
        out: dict[str, Any] = {}
        shared, shared_body = self.parameters(item.get("parameters"), consumes)
        for key, value in item.items():
            if key in _OPERATIONS and isinstance(value, dict):
                op = self.operation(value, consumes, produces)
                if shared_body is not None and "requestBody" not in op:
                    op["requestBody"] = shared_body
                out[key] = op
            elif key == "parameters":
                if shared:
                    out["parameters"] = shared
            elif key == "$ref" and isinstance(value, str):
                out[key] = value
            else:
                out[key] = self.schema(value)
        return out

    def servers(self) -> list[dict[str, Any]]:
        host = self.doc.get("host")
        base = str(self.doc.get("basePath") or "")
        if base and not base.startswith("/"):
            base = "/" + base
        if not isinstance(host, str) or not host.strip():
            return [{"url": base}] if base else []
        schemes = [s for s in _types(self.doc.get("schemes")) if s in ("https", "http")] or ["https"]
        schemes.sort(key=lambda s: s != "https")
        return [{"url": f"{scheme}://{host.strip()}{base}".rstrip("/") or "/"} for scheme in schemes]

    def security_scheme(self, raw: Any) -> Any:
        if not isinstance(raw, dict):
            return raw
        kind = raw.get("type")
        if kind == "basic":
            return {"type": "http", "scheme": "basic", **({"description": raw["description"]} if raw.get("description") else {})}
        if kind == "oauth2":
            flow = {"implicit": "implicit", "password": "password", "application": "clientCredentials",
                    "accessCode": "authorizationCode"}.get(str(raw.get("flow")), "implicit")
            spec = {k: raw[k] for k in ("authorizationUrl", "tokenUrl") if k in raw}
            return {"type": "oauth2", "flows": {flow: {**spec, "scopes": raw.get("scopes") or {}}}}
        return self.schema(raw)

    def convert(self) -> dict[str, Any]:
        doc = self.doc
        consumes = _types(doc.get("consumes")) or ["application/json"]
        produces = _types(doc.get("produces")) or ["application/json"]
        out: dict[str, Any] = {"openapi": TARGET_VERSION}
        for key in ("info", "tags", "externalDocs", "security"):
            if key in doc:
                out[key] = self.schema(doc[key])
        for key, value in doc.items():
            if isinstance(key, str) and key.startswith("x-"):
                out[key] = value
        servers = self.servers()
        if servers:
            out["servers"] = servers
        paths = doc.get("paths")
        if isinstance(paths, dict):
            out["paths"] = {path: self.path_item(item, consumes, produces) for path, item in paths.items()}
        elif paths is not None:
            out["paths"] = paths
        components: dict[str, Any] = {}
        if isinstance(doc.get("definitions"), dict):
            components["schemas"] = {k: self.schema(v) for k, v in doc["definitions"].items()}
        params = {k: self.parameter(v) for k, v in self.global_params.items()
                  if isinstance(v, dict) and v.get("in") not in ("body", "formData")}
        if params:
            components["parameters"] = params
        bodies = {}
        for name in sorted(self.body_params):
            _, body = self.parameters([self.global_params[name]], consumes)
            if body is not None:
                bodies[name] = body
        if bodies:
            components["requestBodies"] = bodies
        if isinstance(doc.get("responses"), dict):
            components["responses"] = {k: self.response(v, produces) for k, v in doc["responses"].items()}
        if isinstance(doc.get("securityDefinitions"), dict):
            components["securitySchemes"] = {k: self.security_scheme(v) for k, v in doc["securityDefinitions"].items()}
        if components:
            out["components"] = components
        return out


def _types(value: Any) -> list[str]:
    return [str(v) for v in value if isinstance(v, str)] if isinstance(value, list) else []


def convert(doc: dict[str, Any], file: str) -> dict[str, Any]:
    """The OpenAPI 3.0 form of the Swagger 2.0 document ``doc`` (``file`` names it in errors)."""
    return _Converter(doc, file).convert()
