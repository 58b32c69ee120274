"""Local sources in the registry: store one with its adapter specs, check one, read one back.

The model of a local source (a :class:`~schemarouter.models.Source` plus adapter specs) is
declaration-level data and lives below the registry (:mod:`schemarouter.sources.local`); these are
the registry operations on it.
"""

from __future__ import annotations

from schemarouter.declarations import Declarations, Owner, validate
from schemarouter.errors import RegistryError
from schemarouter.registry.store import Registry, SyncReport
from schemarouter.sources.local import LocalSource
from schemarouter.sources.spec import AdapterSpec


def add_local_source(registry: Registry, local: LocalSource, label: str) -> SyncReport:
    """Store a local source with its adapter specs (one transaction; nothing written on error)."""
    if "vocabulary_fingerprint" not in registry.meta():
        raise RegistryError(
            "the registry has no vocabulary yet (intents, field groups, concepts); "
            "run schemarouter registry sync first"
        )
    return registry.add_local(local.source, label, local.spec_dicts())


def check_local_source(registry: Registry, local: LocalSource, label: str) -> None:
    """Every check ``add_local_source`` makes (vocabulary, plugin-owned id), writing nothing."""
    if "vocabulary_fingerprint" not in registry.meta():
        raise RegistryError(
            "the registry has no vocabulary yet (intents, field groups, concepts); "
            "run schemarouter registry sync first"
        )
    current = registry.load()
    owner = current.owners.get(local.source.id)
    if owner is not None and owner.kind != "local":
        raise RegistryError(f"source id {local.source.id!r} belongs to plugin {owner.name}; choose another id")
    decls = Declarations(
        intents=current.intents, field_groups=current.field_groups, concepts=current.concepts,
        sources={local.source.id: local.source}, owners={local.source.id: Owner("local", label, "local")},
    )
    validate(decls)


def read_local_source(registry: Registry, source_id: str) -> LocalSource:
    """A stored source with its adapter specs as models (plugin sources come back with none)."""
    source, _owner = registry.source(source_id)
    specs = {eid: AdapterSpec.model_validate(raw) for eid, raw in registry.adapter_specs(source_id).items()}
    return LocalSource(source, specs)
