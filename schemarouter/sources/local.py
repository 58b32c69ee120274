"""Local sources: a user's own source declared in a file, with the execution facts a plugin keeps in code.

A local source is a :class:`~schemarouter.models.Source` plus, per endpoint, an optional
:class:`~schemarouter.sources.spec.AdapterSpec` (records path, parameter locations, fixed
params). The YAML form is the Source schema with an optional ``adapter:`` block on each
endpoint, the same block the inventory uses; the declaration models themselves never get an
``adapter`` key, so the block is split off here, validated, and carried beside the Source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from schemarouter.declarations import coerce, describe_validation_error, read_yaml
from schemarouter.errors import DeclarationError, SchemaRouterError
from schemarouter.field_paths import PathSyntaxError, parse_path
from schemarouter.models import Source
from schemarouter.sources.mcp import tool_options
from schemarouter.sources.spec import AdapterSpec
from schemarouter.sources.sql import PROTOCOL as PROTOCOL_SQL
from schemarouter.sources.sql import check_sql_spec

_TEMPLATE_VAR = re.compile(r"\{([^{}]+)\}")
# Where a generic HTTP JSON adapter can put a parameter; the other AdapterSpec locations are
# conventions of specific first-party APIs (NOMAD, MPDS, AFLUX, ...).
GENERIC_LOCATIONS = frozenset({"query", "path", "body"})
LABEL_MAX = 200


@dataclass(frozen=True)
class LocalSource:
    """A source and its adapter specs (endpoint id -> spec; endpoints without one use the defaults)."""

    source: Source
    adapter_specs: dict[str, AdapterSpec] = field(default_factory=dict)

    def spec(self, endpoint_id: str) -> AdapterSpec:
        """The adapter spec of an endpoint, the defaults when it has none."""
        return self.adapter_specs.get(endpoint_id) or AdapterSpec()

    def spec_dicts(self) -> dict[str, dict[str, Any]]:
        """The adapter specs as JSON-ready data, by endpoint id."""
        return {eid: spec.model_dump(mode="json") for eid, spec in sorted(self.adapter_specs.items())}


def local_source_from_mapping(data: Any, owner: str) -> LocalSource:
    """Validate a Source mapping whose endpoints may carry ``adapter:`` blocks."""
    if not isinstance(data, dict):
        raise DeclarationError(owner, "file", "expected a mapping with the keys of a Source declaration")
    data = dict(data)
    raw_specs: dict[str, Any] = {}
    endpoints = data.get("endpoints")
    if isinstance(endpoints, list):
        cleaned = []
        for index, endpoint in enumerate(endpoints):
            if isinstance(endpoint, dict) and "adapter" in endpoint:
                endpoint = dict(endpoint)
                raw_specs[str(endpoint.get("id") or f"[{index}]")] = endpoint.pop("adapter")
            cleaned.append(endpoint)
        data["endpoints"] = cleaned
    source = coerce(Source, data, owner, "source")
    specs: dict[str, AdapterSpec] = {}
    for endpoint_id, raw in raw_specs.items():
        where = f"source {source.id!r} endpoint {endpoint_id!r} adapter"
        if raw is None:
            continue
        if not isinstance(raw, dict):
            raise DeclarationError(owner, where, "expected a mapping (records, locations, fixed, unit_from, notes)")
        try:
            specs[endpoint_id] = AdapterSpec.model_validate(raw)
        except ValidationError as exc:
            raise DeclarationError(owner, where, describe_validation_error(exc, raw)) from None
    local = LocalSource(source, specs)
    check_adapter_specs(local, owner)
    return local


def check_adapter_specs(local: LocalSource, owner: str) -> None:
    """Cross-check each spec against its endpoint: names it uses must be declared."""
    source = local.source
    for endpoint in source.endpoints:
        spec = local.spec(endpoint.id)
        where = f"source {source.id!r} endpoint {endpoint.id!r} adapter"
        params = {p.name for p in endpoint.parameters}
        fields = {f.name for f in endpoint.fields}
        for name, location in spec.locations.items():
            if name not in params:
                raise DeclarationError(owner, f"{where} locations", f"{name!r} is not a parameter of the endpoint")
            if location not in GENERIC_LOCATIONS:
                raise DeclarationError(
                    owner, f"{where} locations",
                    f"{name!r}: location {location!r} is specific to a first-party adapter; a local source "
                    f"can use {', '.join(sorted(GENERIC_LOCATIONS))}",
                )
        template = set(_TEMPLATE_VAR.findall(endpoint.path))
        for var in sorted(template):
            if spec.location(var) != "path":
                raise DeclarationError(
                    owner, where,
                    f"path {endpoint.path!r} has {{{var}}}: declare a parameter {var!r} and set locations: "
                    f"{{{var}: path}}",
                )
        for name, location in spec.locations.items():
            if location == "path" and name not in template:
                raise DeclarationError(owner, f"{where} locations", f"{name!r} is not a {{{name}}} in path {endpoint.path!r}")
        for name, unit_field in spec.unit_from.items():
            for fname in (name, unit_field):
                if fname not in fields:
                    raise DeclarationError(owner, f"{where} unit_from", f"{fname!r} is not a field of the endpoint")
        if spec.records:
            try:
                parse_path(spec.records)
            except PathSyntaxError as exc:
                raise DeclarationError(owner, f"{where} records", str(exc)) from None
        if spec.protocol == "mcp":
            try:
                tool_options(spec.options)
            except ValueError as exc:
                raise DeclarationError(owner, f"{where} options", str(exc)) from None
    _check_protocols(local, owner)
    unknown = sorted(set(local.adapter_specs) - {e.id for e in source.endpoints})
    if unknown:
        raise DeclarationError(owner, f"source {source.id!r}", f"adapter spec for unknown endpoint {unknown[0]!r}")


def _check_protocols(local: LocalSource, owner: str) -> None:
    """One protocol per source; a database endpoint's options fit it; a connection password only for a database."""
    source = local.source
    protocols = {local.spec(e.id).protocol for e in source.endpoints}
    if len(protocols) > 1:
        raise DeclarationError(owner, f"source {source.id!r}", f"its endpoints mix protocols ({', '.join(sorted(protocols))})")
    protocol = protocols.pop()
    if protocol == PROTOCOL_SQL:
        for endpoint in source.endpoints:
            where = f"source {source.id!r} endpoint {endpoint.id!r} adapter"
            try:
                check_sql_spec(endpoint, local.spec(endpoint.id).options, where)
            except SchemaRouterError as err:
                raise DeclarationError(owner, where, str(err).removeprefix(where + ": ")) from None
        if source.auth is not None and source.auth.location != "connection":
            raise DeclarationError(owner, f"source {source.id!r} auth",
                                   "a database source's password is declared with in: connection")
    else:
        if source.auth is not None and source.auth.location == "connection":
            raise DeclarationError(owner, f"source {source.id!r} auth",
                                   "in: connection is a database password; an HTTP source sends its key in a header or the query")
        for endpoint in source.endpoints:
            if not endpoint.base_url.startswith(("http://", "https://")):
                raise DeclarationError(owner, f"source {source.id!r} endpoint {endpoint.id!r} base_url",
                                       f"a database URL needs adapter: {{protocol: {PROTOCOL_SQL}}} (schemarouter source import-sql)")


def load_local_source_file(path: str | Path) -> LocalSource:
    """Read a local source YAML (or JSON) file: the Source schema plus optional ``adapter:`` blocks."""
    path = Path(path)
    return local_source_from_mapping(read_yaml(path), str(path))


def label_for(path: str | Path) -> str:
    """The owner label stored for a file: its absolute path (shortened from the left to fit)."""
    text = str(Path(path).resolve())
    return text if len(text) <= LABEL_MAX else "…" + text[-(LABEL_MAX - 1):]
