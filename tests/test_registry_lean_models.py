"""Loaded models share one fields-set object per model type (memory at 10,000 sources); copying or
dumping one must behave exactly as for a model built from its own declaration."""

from __future__ import annotations

from schemarouter.declarations import collect
from schemarouter.plugins import make_plugin_manager
from schemarouter.registry import Registry
from tests.factories import SourcePlugin, source


def test_loaded_models_copy_and_dump_like_declared_ones(sqlite_url: str) -> None:
    original = source()
    with Registry.open(sqlite_url) as reg:
        reg.sync(collect(make_plugin_manager(load_entrypoints=False, extra=[SourcePlugin("a", original)])))
        loaded, _ = reg.source("lab_store")
    fields = loaded.endpoints[0].fields
    assert len(fields) >= 2
    before = set(fields[1].model_fields_set)
    renamed = fields[0].model_copy(update={"name": "renamed", "unit": "K"})
    assert renamed.name == "renamed" and fields[0].name != "renamed"
    assert set(fields[1].model_fields_set) == before  # the copy's fields set is its own
    assert "unit" in renamed.model_fields_set
    declared = original.endpoints[0].fields[0]
    assert fields[0].model_dump(exclude_unset=True).keys() >= declared.model_dump(exclude_unset=True).keys()
    assert loaded == original
