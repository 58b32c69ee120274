"""Loaded models share what they can (one fields-set object per model type, one model per distinct
parameter and response field: memory at 10,000 sources); copying or dumping one must behave exactly as for a model
built from its own declaration."""

from __future__ import annotations

import copy
from typing import Any

from schemarouter.declarations import Declarations, collect
from schemarouter.graph import build_graph
from schemarouter.models import Source
from schemarouter.plugins import make_plugin_manager
from schemarouter.registry import Registry
from tests.factories import SourcePlugin, source, source_dict


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


def _synced_and_loaded(url: str, data: dict[str, Any]) -> tuple[Source, Source]:
    """The source declared by ``data`` and as a registry at ``url`` reads it back after a sync."""
    original = Source.model_validate(data)
    with Registry.open(url) as reg:
        reg.sync(collect(make_plugin_manager(load_entrypoints=False, extra=[SourcePlugin("a", original)])))
        loaded, _ = reg.source("lab_store")
    return original, loaded


def test_endpoints_declaring_the_same_parameter_share_one_loaded_model(sqlite_url: str) -> None:
    data = source_dict()
    first = data["endpoints"][0]
    page = {"name": "page", "type": "integer", "description": "Page of results.", "default": 1}
    first["parameters"].append(dict(page))
    second = {**copy.deepcopy(first), "id": "runs", "path": "/api/runs"}
    second["parameters"].append({"name": "size", "type": "integer", "default": 20})
    data["endpoints"].append(second)
    original, loaded = _synced_and_loaded(sqlite_url, data)
    a, b = (e.parameters for e in loaded.endpoints)
    assert a[1] is b[1] and a[0] is b[0], "the same declaration is one model"
    assert b[2].name == "size" and all(b[2] is not p for p in a), "a different one is its own"
    assert loaded == original


def test_endpoints_returning_the_same_field_share_one_loaded_model(sqlite_url: str) -> None:
    # an API's list and detail endpoints return the same fields: one model each, read back shared
    data = source_dict()
    first = data["endpoints"][0]
    second = {**copy.deepcopy(first), "id": "runs", "path": "/api/runs"}
    second["fields"][1] = {**second["fields"][1], "description": "Said otherwise."}
    data["endpoints"].append(second)
    original, loaded = _synced_and_loaded(sqlite_url, data)
    a, b = (e.fields for e in loaded.endpoints)
    assert a[0] is b[0], "the same declaration is one model"
    assert a[1] is not b[1] and b[1].description == "Said otherwise.", "a field declared otherwise is its own"
    assert loaded == original
    # ... and the graph keeps one normalized alias tuple for the two "optical gap" fields
    graph = build_graph(Declarations(sources={"lab_store": loaded}), "f")
    gaps = [info.fields["gap"] for info in graph.endpoints.values()]
    assert len(gaps) == 2 and gaps[0].alias_words == ("optical gap",) and gaps[0].alias_words is gaps[1].alias_words


def test_loaded_models_share_their_attribute_keys_and_stay_frozen(sqlite_url: str) -> None:
    import sys

    import pydantic
    import pytest

    original = source()
    with Registry.open(sqlite_url) as reg:
        reg.sync(collect(make_plugin_manager(load_entrypoints=False, extra=[SourcePlugin("a", original)])))
        loaded = reg.load().sources["lab_store"]
    field = loaded.endpoints[0].fields[0]
    # a key-sharing instance dictionary holds the values only: smaller than a dictionary of its own
    assert sys.getsizeof(field.__dict__) < sys.getsizeof(dict(field.__dict__))
    assert sys.getsizeof(loaded.endpoints[0].__dict__) < sys.getsizeof(dict(loaded.endpoints[0].__dict__))
    assert list(field.__dict__) == list(type(field).model_fields), "every attribute, in declaration order"
    with pytest.raises(pydantic.ValidationError):
        field.name = "changed"  # type: ignore[misc]
    assert loaded == original and loaded.model_dump() == original.model_dump()


def test_a_pickled_declaration_comes_back_equal_frozen_and_key_sharing(sqlite_url: str) -> None:
    """The graph cache file pickles declarations as their values in order: what comes back must be the
    same model (equal, same fields set, same dump), as small as a loaded one, and still frozen."""
    import pickle
    import sys

    import pydantic
    import pytest

    original = source()
    with Registry.open(sqlite_url) as reg:
        reg.sync(collect(make_plugin_manager(load_entrypoints=False, extra=[SourcePlugin("a", original)])))
        loaded = reg.load().sources["lab_store"]
    for model in (original, loaded):
        back = pickle.loads(pickle.dumps(model, protocol=pickle.HIGHEST_PROTOCOL))
        assert back == model and back.model_dump() == model.model_dump()
        assert back.model_dump(exclude_unset=True) == model.model_dump(exclude_unset=True)
        field = back.endpoints[0].fields[0]
        assert field.model_fields_set == model.endpoints[0].fields[0].model_fields_set
        assert sys.getsizeof(field.__dict__) < sys.getsizeof(dict(field.__dict__)), "keys shared, values only"
        assert list(field.__dict__) == list(type(field).model_fields)
        with pytest.raises(pydantic.ValidationError):
            field.name = "changed"  # type: ignore[misc]
        copied = field.model_copy(update={"unit": "K"})
        assert copied.unit == "K" and "unit" in copied.model_fields_set and field.unit != "K"
