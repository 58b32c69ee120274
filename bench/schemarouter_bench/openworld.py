"""The open-world registry: the frozen first-party sources plus real documents imported as a user would.

Every API of the imported-sources dev set and RestBench's TMDB document go through the same
importer a user runs (``source import-openapi`` with the minimal overlay shipped beside each
document) and join the benchmark's frozen first-party declarations in one registry, frozen like
the first-party one (written to a throw-away SQLite registry and read back). Both open-world
suites plan over this one registry, so each source is a distractor for the others' questions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schemarouter.declarations import Declarations, Owner
from schemarouter.errors import SchemaRouterError
from schemarouter.openapi import ImportResult, import_openapi
from schemarouter_bench.devset import TMDB_SOURCE, DevAPI, dev_apis, tmdb_overlay, tmdb_spec
from schemarouter_bench.frozen import Frozen, freeze

_METHODS = ("get", "put", "post", "delete", "patch")


@dataclass(frozen=True)
class Imported:
    """One document imported with its minimal overlay."""

    source_id: str
    spec: Path
    result: ImportResult

    @property
    def document(self) -> dict[str, Any]:
        """The imported OpenAPI document, parsed."""
        loaded: dict[str, Any] = json.loads(self.spec.read_text(encoding="utf-8"))
        return loaded


@dataclass
class OpenWorld:
    """The frozen open-world registry and what the import made of each document."""

    frozen: Frozen
    imported: dict[str, Imported]
    calls: dict[tuple[str, str], str] = field(default_factory=dict)  # (source, endpoint) -> "METHOD /path"
    _specs: dict[str, SpecIndex] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for sid in self.imported:
            source = self.frozen.decls.sources[sid]
            for e in source.endpoints:
                self.calls[(sid, e.id)] = f"{e.method} {e.path}"

    def spec(self, source_id: str) -> SpecIndex:
        """The operations of an imported document, for gold that today's importer does not map."""
        if source_id not in self._specs:
            self._specs[source_id] = SpecIndex(self.imported[source_id].document)
        return self._specs[source_id]


class SpecIndex:
    """Operations of an OpenAPI document by ``"METHOD /path"``: required parameters and operation id."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.operations: dict[str, dict[str, Any]] = {}
        self._path_params: dict[str, list[Any]] = {}
        for path, item in (doc.get("paths") or {}).items():
            if not isinstance(item, dict):
                continue
            for method in _METHODS:
                if isinstance(item.get(method), dict):
                    call = f"{method.upper()} {path}"
                    self.operations[call] = item[method]
                    self._path_params[call] = list(item.get("parameters") or [])

    def __contains__(self, call: str) -> bool:
        return call in self.operations

    def _resolve(self, node: Any) -> Any:
        for _ in range(32):  # a local $ref chain; never a cycle walk
            if not (
                isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/")
            ):
                return node
            target: Any = self.doc
            for part in node["$ref"][2:].split("/"):
                target = (
                    target.get(part.replace("~1", "/").replace("~0", "~"))
                    if isinstance(target, dict)
                    else None
                )
            node = target
        return node

    def required(self, call: str) -> set[str]:
        """Names of the parameters the document requires (path parameters always; body properties too)."""
        op = self.operations.get(call)
        if op is None:
            return set()
        names: set[str] = set()
        for raw in self._path_params[call] + list(op.get("parameters") or []):
            p = self._resolve(raw)
            if (
                isinstance(p, dict)
                and p.get("in") in ("path", "query")
                and (p.get("required") is True or p.get("in") == "path")
            ):
                names.add(str(p.get("name")))
        body = self._resolve(op.get("requestBody"))
        if isinstance(body, dict):
            for media in (body.get("content") or {}).values():
                schema = self._resolve((media or {}).get("schema"))
                if isinstance(schema, dict):
                    names.update(str(n) for n in schema.get("required") or [])
        return names

    def operation_id(self, call: str) -> str | None:
        """The document's operationId for a ``METHOD /path`` call, if it has one."""
        op = self.operations.get(call)
        value = op.get("operationId") if op else None
        return str(value) if value else None


def import_document(source_id: str, spec: Path, overlay: Path) -> Imported:
    """Import one document with its overlay, exactly as ``source import-openapi`` does."""
    return Imported(source_id, spec, import_openapi(spec, source_id, overlay))


def build_open_world(base: Frozen, apis: list[DevAPI] | None = None, tmdb: bool = True) -> OpenWorld:
    """``base``'s declarations plus every dev-set API and TMDB, imported and frozen into one registry."""
    imported: dict[str, Imported] = {}
    for api in dev_apis() if apis is None else apis:
        imported[api.source_id] = import_document(api.source_id, api.spec, api.overlay)
    if tmdb:
        imported[TMDB_SOURCE] = import_document(TMDB_SOURCE, tmdb_spec(), tmdb_overlay())
    decls = Declarations(
        intents=dict(base.decls.intents),
        field_groups=dict(base.decls.field_groups),
        concepts=dict(base.decls.concepts),
        sources=dict(base.decls.sources),
        owners=dict(base.decls.owners),
        adapter_specs=dict(base.decls.adapter_specs),
    )
    for sid, item in imported.items():
        if sid in decls.sources:
            raise SchemaRouterError(f"imported source id {sid!r} is already a first-party source")
        decls.sources[sid] = item.result.local.source
        decls.owners[sid] = Owner("local", item.spec.name, "")
        decls.adapter_specs[sid] = item.result.local.spec_dicts()
    names = ", ".join(sorted(imported))
    frozen = freeze(decls, f"{base.origin} + imported with minimal overlays ({names})")
    return OpenWorld(frozen, imported)
