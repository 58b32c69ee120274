"""The open-world registries: the frozen first-party sources plus real documents imported as a user would.

Every document goes through the same importer a user runs (``source import-openapi`` with the
minimal overlay shipped beside it) and joins the benchmark's frozen first-party declarations in one
registry. Two registries: the open world (the imported-sources APIs, the held-out scientific APIs,
RestBench's TMDB and the large API beside it, each a distractor for the others' questions) and the
tool-use world (thousands of tools from public tool-use benchmarks), each frozen like the
first-party one (written to a throw-away SQLite registry and read back).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schemarouter.checks.units import check_known
from schemarouter.declarations import Declarations, Owner
from schemarouter.errors import SchemaRouterError
from schemarouter.openapi import ImportResult, import_openapi
from schemarouter_bench.devset import (
    TMDB_SOURCE,
    beside_root,
    dev_apis,
    heldout_root,
    science_root,
    tmdb_overlay,
    tmdb_spec,
    tooluse_root,
)
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
    refused: dict[str, str] = field(default_factory=dict)  # source id -> why the importer refused its document
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


@dataclass(frozen=True)
class Document:
    """One OpenAPI document to import, under a source id, with the overlay a user would write."""

    source_id: str
    spec: Path
    overlay: Path


def import_document(source_id: str, spec: Path, overlay: Path) -> Imported:
    """Import one document with its overlay, exactly as ``source import-openapi`` does."""
    return Imported(source_id, spec, import_openapi(spec, source_id, overlay, unit_known=check_known))


def open_world_documents() -> list[Document]:
    """The documents of the open-world registry: the imported-sources APIs, the held-out scientific
    APIs, the scientific APIs added later, RestBench's TMDB and the large API imported beside it."""
    folders = [*dev_apis(), *dev_apis(heldout_root()), *dev_apis(science_root()), *dev_apis(beside_root())]
    return [Document(api.source_id, api.spec, api.overlay) for api in folders] + [
        Document(TMDB_SOURCE, tmdb_spec(), tmdb_overlay())
    ]


def tooluse_documents(root: Path | None = None) -> list[Document]:
    """The tool-use suite's documents (BFCL functions and ToolAlpaca APIs), each with the suite's overlay;
    ``root``: another folder laid out the same way (:func:`~schemarouter_bench.devset.toolbench_root`)."""
    root = root or tooluse_root()
    return [Document(p.stem, p, root / "overlay.yaml") for p in sorted((root / "docs").glob("*.json"))]


def build_world(base: Frozen, documents: list[Document], label: str, *, strict: bool = True) -> OpenWorld:
    """``base``'s declarations plus each document imported and frozen into one registry. ``strict``:
    a document the importer refuses stops the benchmark; otherwise it is recorded in ``refused`` and
    its questions count as misses for every router."""
    imported: dict[str, Imported] = {}
    refused: dict[str, str] = {}
    for doc in documents:
        try:
            imported[doc.source_id] = import_document(doc.source_id, doc.spec, doc.overlay)
        except SchemaRouterError as err:
            if strict:
                raise
            refused[doc.source_id] = str(err)
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
    frozen = freeze(decls, f"{base.origin} + {label}")
    return OpenWorld(frozen, imported, refused=refused)


def build_open_world(base: Frozen, documents: list[Document] | None = None) -> OpenWorld:
    """``base`` plus the open-world documents (:func:`open_world_documents`) imported with minimal overlays."""
    documents = open_world_documents() if documents is None else documents
    names = ", ".join(sorted(d.source_id for d in documents))
    return build_world(base, documents, f"imported with minimal overlays ({names})")


def build_tooluse_world(base: Frozen, root: Path | None = None) -> OpenWorld:
    """``base`` plus the tool-use suite's documents (thousands of tools), or those of another folder
    laid out the same way (``root``)."""
    documents = tooluse_documents(root)
    label = f"the {root.name if root else 'tool-use'} suite's {len(documents)} documents"
    return build_world(base, documents, label, strict=False)
