"""The frozen registry every benchmark router plans over, as one export document.

Three ways to get it, all ending in the same place (declarations written to a throw-away
SQLite registry and exported, so the benchmark sees exactly what ``registry export`` writes):

- ``plugins``: the installed first-party plugins (the product as shipped, alias layer included);
- ``inventory``: the shipped ``inventory.yaml`` (``adapter:`` blocks dropped) with the core
  vocabulary, for installs without the plugins; it has no field alias layer;
- an export file (``--registry-export FILE``), e.g. a registry with the user's own sources.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from schemarouter.declarations import Declarations, Owner, coerce, collect, validate
from schemarouter.errors import SchemaRouterError
from schemarouter.models import DomainConcept, FieldGroup, Intent, Source
from schemarouter.registry import Registry
from schemarouter.registry.store import parse_export
from schemarouter_bench import data_path

if TYPE_CHECKING:
    from schemarouter.graph import SchemaGraph

INVENTORY_OWNER = Owner("plugin", "benchmark-inventory", "1")


@dataclass
class Frozen:
    """One frozen registry state: declarations, the export document and (lazily) its graph."""

    origin: str
    decls: Declarations
    export: dict[str, Any]
    fingerprint: str | None
    _graph: SchemaGraph | None = field(default=None, repr=False)

    @property
    def graph(self) -> SchemaGraph:
        """The schema graph over the frozen declarations, built on first use."""
        if self._graph is None:
            from schemarouter.graph import build_graph

            self._graph = build_graph(self.decls, self.fingerprint)
        return self._graph

    @property
    def endpoints(self) -> dict[str, set[str]]:
        """Endpoint ids per source id."""
        return {sid: {e.id for e in s.endpoints} for sid, s in self.decls.sources.items()}

    @property
    def n_fields(self) -> int:
        """How many response fields the frozen registry declares in all."""
        return sum(len(e.fields) for s in self.decls.sources.values() for e in s.endpoints)


def inventory_declarations(path: str | Path | None = None) -> Declarations:
    """The inventory's tools as :class:`Source` models plus the core vocabulary (intents, groups, concepts)."""
    from schemarouter.default_plugins import vocabulary

    path = Path(path) if path is not None else data_path("inventory.yaml")
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise SchemaRouterError(f"cannot read inventory {path}: {err}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("tools"), list):
        raise SchemaRouterError(f"inventory {path} has no 'tools' list")
    vocab = vocabulary._vocabulary()
    decls = Declarations()
    label = f"inventory {path.name}"
    for item in vocab["field_groups"]:
        g = coerce(FieldGroup, item, label, "field group")
        decls.field_groups[g.name] = g
    for item in vocab["intents"]:
        i = coerce(Intent, item, label, "intent")
        decls.intents[i.name] = i
    for item in vocab["concepts"]:
        c = coerce(DomainConcept, item, label, "concept")
        decls.concepts[c.name] = c
    for tool in doc["tools"]:
        tool = dict(tool)
        tool["endpoints"] = [
            {k: v for k, v in e.items() if k != "adapter"} for e in tool.get("endpoints", [])
        ]
        source = coerce(Source, tool, label, "source")
        decls.sources[source.id] = source
        decls.owners[source.id] = INVENTORY_OWNER
    validate(decls)
    return decls


def plugin_declarations() -> Declarations:
    """The declarations of the installed plugins, collected and validated."""
    from schemarouter.plugins import plugin_manager

    return collect(plugin_manager())


def freeze(decls: Declarations, origin: str) -> Frozen:
    """Write ``decls`` to a temporary SQLite registry and read back its export."""
    with tempfile.TemporaryDirectory(prefix="sr-bench-") as tmp:
        registry = Registry.open(f"sqlite:///{tmp}/frozen.db")
        try:
            registry.replace(decls)
            export = registry.export()
            loaded = registry.load()
            fingerprint = registry.fingerprint()
        finally:
            registry.close()
    return Frozen(origin=origin, decls=loaded, export=export, fingerprint=fingerprint)


def load_frozen(registry_export: str | Path | None = None, origin: str = "auto") -> Frozen:
    """The benchmark's registry: an export file, the installed plugins, or the shipped inventory.

    ``origin="auto"`` uses the plugins when they declare every inventory source (the product as
    a user installs it) and falls back to the inventory otherwise.
    """
    if registry_export is not None:
        return freeze(parse_export(registry_export), f"export {Path(registry_export).name}")
    inventory = inventory_declarations()
    if origin == "inventory":
        return freeze(inventory, "inventory.yaml")
    plugins = plugin_declarations()
    missing = sorted(set(inventory.sources) - set(plugins.sources))
    if origin == "plugins" and missing:
        raise SchemaRouterError(f"installed plugins lack inventory sources: {', '.join(missing)}")
    if missing:
        return freeze(inventory, "inventory.yaml (plugins missing: " + ", ".join(missing[:3]) + ")")
    extra = set(plugins.sources) - set(inventory.sources)
    for sid in extra:  # third-party plugins are not part of the benchmark's frozen 19
        del plugins.sources[sid]
        del plugins.owners[sid]
    return freeze(plugins, "installed plugins")


def without_aliases(decls: Declarations) -> Declarations:
    """A copy with the alias layer removed (field aliases and concept aliases); for the ablation."""
    out = Declarations(
        intents=dict(decls.intents),
        field_groups=dict(decls.field_groups),
        owners=dict(decls.owners),
        concepts={n: c.model_copy(update={"aliases": []}) for n, c in decls.concepts.items()},
    )
    for sid, source in decls.sources.items():
        endpoints = [
            e.model_copy(update={"fields": [f.model_copy(update={"aliases": []}) for f in e.fields]})
            for e in source.endpoints
        ]
        out.sources[sid] = source.model_copy(update={"endpoints": endpoints})
    return out
