"""HttpJsonAdapter: run any declared HTTP JSON (or XML) endpoint from its declaration plus an AdapterSpec.

This is the generic adapter. From the :class:`~schemarouter.models.Endpoint` it takes the URL,
method, parameters and fields; from the :class:`~schemarouter.sources.spec.AdapterSpec` where
each parameter goes and where the records are. It renders path variables, query parameters,
JSON body keys and filter expressions, asks the server for only the planned fields where the
endpoint declares a projection, sends the key from the environment variable the source names
(header or query), and returns the records for the executor to project.

Special sources subclass it and override one hook: :meth:`assemble` (a request shape of their own,
from the parts placed here; parameters at a location this adapter does not know arrive in
``parts.custom``), :meth:`build_request` (extra rendering),
:meth:`resolve_client_params` (look-ups before the request), :meth:`check_body` (API-level
errors inside a 200 response) or :meth:`extract_records`. User sources use it as is::

    adapter = HttpJsonAdapter({"search": AdapterSpec(records="items")}, auth_required=False)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx

from schemarouter.execution.adapter import FetchResult, StepCall
from schemarouter.execution.errors import HttpStatusError, InvalidStep, NoRecords, UnparseableBody
from schemarouter.execution.http import Response
from schemarouter.execution.rendering import (
    FilterStyle,
    filter_key,
    projection_keys,
    render_filter,
    scalar_text,
    set_dotted,
)
from schemarouter.execution.secrets import CREDENTIAL_NAMES, Secrets
from schemarouter.execution.xmltree import parse_xml
from schemarouter.field_paths import extract
from schemarouter.sources.spec import AdapterSpec

# One query-string pair as httpx types it; adapters send text, but a list must be typed this wide to be
# accepted as request params (lists are invariant).
QueryPair = tuple[str, str | int | float | bool | None]


def redact_url(url: httpx.URL | str, extra: set[str] | frozenset[str] = frozenset()) -> str:
    """A URL to show: credential query parameters (the general list plus ``extra``) replaced."""
    return Secrets(CREDENTIAL_NAMES | {name.lower() for name in extra}).redact_url(url)


@dataclass
class RequestParts:
    """A step's request as placed from its parameters, before it becomes an ``httpx.Request``."""

    method: str
    url: str  # base URL and path, variables filled
    query: list[QueryPair] = field(default_factory=list)
    body: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    keys: list[str] = field(default_factory=list)  # the projection keys of the planned fields
    # (location, name, value) of parameters at a location only a source's own adapter places
    custom: list[tuple[str, str, Any]] = field(default_factory=list)


class HttpJsonAdapter:
    """A declarative adapter: one AdapterSpec per endpoint id (or one spec for all endpoints)."""

    def __init__(
        self,
        specs: Mapping[str, AdapterSpec] | AdapterSpec | None = None,
        *,
        auth_required: bool = True,
        filter_style: FilterStyle = "colon",
    ) -> None:
        self.specs = specs if specs is not None else AdapterSpec()
        self.auth_required = auth_required
        self.filter_style = filter_style

    def spec(self, endpoint_id: str) -> AdapterSpec:
        """The adapter spec for an endpoint, the defaults when none is declared."""
        if isinstance(self.specs, AdapterSpec):
            return self.specs
        return self.specs.get(endpoint_id) or AdapterSpec()

    # -- request -------------------------------------------------------------------------
    async def resolve_client_params(self, call: StepCall, params: dict[str, Any]) -> dict[str, Any]:
        """Resolve ``client``-located parameters into sendable ones; the default drops them."""
        spec = self.spec(call.endpoint.id)
        return {k: v for k, v in params.items() if spec.location(k) != "client"}

    def build_request(self, call: StepCall, params: dict[str, Any]) -> httpx.Request:
        """The HTTP request for a step: path, query, body and auth placed as declared."""
        return self.assemble(call, self.request_parts(call, params))

    def assemble(self, call: StepCall, parts: RequestParts) -> httpx.Request:
        """The ``httpx.Request`` of placed parts: a POST sends the body as JSON. A source whose
        parameters go where this adapter places none (``parts.custom``) overrides it."""
        if parts.custom:
            location = parts.custom[0][0]
            raise InvalidStep(f"{call.source.id}.{call.endpoint.id}: no generic way to send a parameter "
                              f"located in {location!r}; the source's own adapter must place it")
        if parts.method == "POST":
            return httpx.Request(parts.method, parts.url, params=parts.query, json=parts.body, headers=parts.headers)
        return httpx.Request(parts.method, parts.url, params=parts.query, headers=parts.headers)

    def request_parts(self, call: StepCall, params: dict[str, Any]) -> RequestParts:
        """Path, query, body, headers and auth of a step, each parameter placed as its spec declares."""
        endpoint, spec = call.endpoint, self.spec(call.endpoint.id)
        method = endpoint.method
        path_vars: dict[str, str] = {}
        query: list[QueryPair] = []
        body: dict[str, Any] = {}
        headers: dict[str, str] = {}
        filter_terms: list[tuple[str, Any]] = []
        custom: list[tuple[str, str, Any]] = []
        q_json: dict[str, Any] = {}
        raw_filter = None

        def place(name: str, value: Any, location: str) -> None:
            nonlocal raw_filter
            if location == "path":
                path_vars[name] = quote(scalar_text(value), safe="")
            elif location == "body":
                set_dotted(body, name, value)
            elif location == "body_query":
                body.setdefault("query", {})[name] = value
            elif location == "q_json":
                q_json[name] = value
            elif location == "filter":
                filter_terms.append((filter_key(endpoint, name, self.filter_style), value))
            elif location == "query" and name == "filter":
                raw_filter = scalar_text(value)
            elif location == "query":
                query.append((name, scalar_text(value)))
            else:
                custom.append((location, name, value))

        for name, value in params.items():
            if value is None:
                continue
            place(name, value, spec.location(name))
        for name, value in spec.fixed.items():
            location = spec.location(name)
            if location == "query" and method == "POST":
                body.setdefault(name, value)
            else:
                place(name, value, location)

        keys = projection_keys(endpoint, call.fields)
        projection = endpoint.projection
        if projection is not None and keys:
            if projection.style == "csv":
                query.append((projection.param, ",".join(keys)))
            elif projection.style == "path_csv":
                path_vars[projection.param] = ",".join(keys)
            elif projection.style == "json_list":
                set_dotted(body, projection.param, keys)
        rendered_filter = render_filter(filter_terms, self.filter_style, raw_filter)
        if rendered_filter:
            query.append(("filter", rendered_filter))
        if q_json:
            query.append(("q", json.dumps(q_json, ensure_ascii=False, separators=(",", ":"))))

        key = call.api_key(required=self.auth_required)
        auth = call.source.auth
        if key and auth is not None:
            if auth.location == "header":
                headers[auth.name] = key
            else:
                query.append((auth.name, key))

        try:
            path = endpoint.path.format(**path_vars)
        except KeyError as exc:
            raise InvalidStep(
                f"{call.source.id}.{endpoint.id}: the URL needs a value for {{{exc.args[0]}}}"
            ) from None
        url = endpoint.base_url.rstrip("/") + path
        return RequestParts(method, url, query, body, headers, keys, custom)

    # -- response ------------------------------------------------------------------------
    def parse_body(self, call: StepCall, response: Response) -> Any:
        """JSON or XML, told apart by the body itself; the declared Content-Type only names the error."""
        text = response.content
        content_type = response.headers.get("content-type", "").split(";")[0].strip() or "no content type"
        first = text.lstrip()[:1]
        if first == b"<":
            kind = "XML"
        elif first in (b"{", b"[") or "json" in content_type:
            kind = "JSON"
        else:
            kind = "XML" if "xml" in content_type else "JSON"
        try:
            return parse_xml(text) if kind == "XML" else json.loads(text)
        except Exception as exc:  # any parser failure is the body's fault, not ours
            declared = "" if kind.lower() in content_type else f", labelled {content_type}"
            raise UnparseableBody(
                f"{call.source.id}: response body is not valid {kind}{declared}"
                f" ({type(exc).__name__}: {str(exc)[:80]})"
            ) from None

    def check_status(self, call: StepCall, response: Response, body: Any) -> None:
        """4xx responses: 404 means nothing found; the rest are errors quoting the API's message."""
        if response.status < 400:
            return
        detail = _error_detail(body)
        if response.status == 404:
            raise NoRecords(f"{call.source.id}: nothing found (HTTP 404{': ' + detail if detail else ''})")
        raise HttpStatusError(
            f"{call.source.id}: HTTP {response.status}{': ' + detail if detail else ''}", response.status
        )

    def check_body(self, call: StepCall, body: Any) -> None:
        """API-level errors inside a 2xx response (override per source)."""

    def extract_records(self, call: StepCall, body: Any) -> list[Any]:
        """The records at the spec's records path, as a list."""
        spec = self.spec(call.endpoint.id)
        found = body if spec.records == "" else extract(body, spec.records)
        if found is None:
            raise UnparseableBody(f"{call.source.id}: response has no records at {spec.records!r}")
        if isinstance(found, dict):
            return [found]
        if not isinstance(found, list):
            raise UnparseableBody(
                f"{call.source.id}: expected a list of records at {spec.records or 'the root'!r}, "
                f"got {type(found).__name__}"
            )
        return found

    async def fetch(self, call: StepCall) -> FetchResult:
        """Send the step's request and return the parsed records."""
        params = await self.resolve_client_params(call, dict(call.params))
        request = self.build_request(call, params)
        response = await call.send(request)
        body = None
        if response.content.strip():
            try:
                body = self.parse_body(call, response)
            except UnparseableBody:
                if response.status < 400:
                    raise
        self.check_status(call, response, body)
        if body is None:
            raise UnparseableBody(f"{call.source.id}: empty response body (HTTP {response.status})")
        self.check_body(call, body)
        records = self.extract_records(call, body)
        if not records:
            raise NoRecords(f"{call.source.id}: no records for {_describe_params(call.params)}")
        auth_names = {call.source.auth.name} if call.source.auth else set()
        return FetchResult(
            records=records, request=redact_url(request.url, auth_names),
            unit_from=self.spec(call.endpoint.id).unit_from,
        )


def _describe_params(params: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in params.items()) or "the request"


def _error_detail(body: Any) -> str:
    """A short message from common error envelopes ({detail}, {message}, {error}, {Fault}, {errors})."""
    if isinstance(body, dict):
        for key in ("detail", "message", "error", "Fault", "errors", "error_message"):
            value = body.get(key)
            if value:
                if isinstance(value, dict):
                    value = value.get("Message") or value.get("message") or json.dumps(value)[:120]
                if isinstance(value, list):
                    value = json.dumps(value)[:120]
                return str(value)[:160]
    return ""
