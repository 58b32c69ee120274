"""Collecting plugin declarations: every hook, cross-reference checks, and errors naming the plugin."""

from typing import Any

import pytest

from schemarouter import hookimpl
from schemarouter.declarations import collect, load_source_file, summarize
from schemarouter.errors import DeclarationError, SchemaRouterError
from schemarouter.models import DomainConcept, FieldGroup, Intent
from schemarouter.plugins import DEFAULT_PLUGINS, make_plugin_manager
from tests.factories import SourcePlugin, source, source_dict


def _collect(*plugins: Any):  # type: ignore[no-untyped-def]
    return collect(make_plugin_manager(load_entrypoints=False, extra=list(plugins)))


def test_default_plugin_registers_the_base_vocabulary() -> None:
    decls = _collect()
    assert len(decls.intents) == 13 and len(decls.field_groups) == 16 and len(decls.concepts) == 42
    assert decls.intents["material_property"].field_groups == [
        "electronic", "thermodynamic", "mechanical", "magnetic", "dielectric"
    ]
    assert "bandgap" in decls.concepts["band_gap"].aliases


def test_hook_register_sources() -> None:
    decls = _collect(SourcePlugin("lab_plugin", source_dict()))
    assert list(decls.sources) == ["lab_store"]
    assert decls.owners["lab_store"].name == "lab_plugin"


def test_hook_register_intents() -> None:
    class IntentPlugin:
        __name__ = "intent_plugin"

        @hookimpl
        def register_intents(self, register):  # type: ignore[no-untyped-def]
            register(Intent(name="sample_lookup", domains=["materials"], field_groups=["identity"]))

    decls = _collect(IntentPlugin())
    assert decls.intents["sample_lookup"].field_groups == ["identity"]


def test_hook_register_field_groups() -> None:
    class GroupPlugin:
        __name__ = "group_plugin"

        @hookimpl
        def register_field_groups(self, register):  # type: ignore[no-untyped-def]
            register(FieldGroup(name="optical", description="Optical response"))

    decls = _collect(GroupPlugin())
    assert decls.field_groups["optical"].description == "Optical response"


def test_hook_register_concepts_merges_aliases() -> None:
    class ConceptPlugin:
        __name__ = "concept_plugin"

        @hookimpl
        def register_concepts(self, register):  # type: ignore[no-untyped-def]
            register(DomainConcept(name="band_gap", aliases=["HOMO-LUMO gap", "bandgap"]))
            register({"name": "porosity", "description": "Void fraction", "aliases": ["void fraction"]})

    decls = _collect(ConceptPlugin())
    aliases = decls.concepts["band_gap"].aliases
    assert aliases.count("bandgap") == 1 and aliases[-1] == "HOMO-LUMO gap"
    assert decls.concepts["band_gap"].description  # the core description is kept
    assert decls.concepts["porosity"].aliases == ["void fraction"]


def test_hook_register_adapters() -> None:
    adapter = object()

    class AdapterPlugin:
        __name__ = "adapter_plugin"

        @hookimpl
        def register_adapters(self, register):  # type: ignore[no-untyped-def]
            register("lab_store", adapter)

    pm = make_plugin_manager(load_entrypoints=False, extra=[AdapterPlugin()])
    summary = {s.info.name: s for s in summarize(pm)}
    assert summary["adapter_plugin"].adapters == ["lab_store"]
    assert summary["adapter_plugin"].hooks == ["register_adapters"]


def test_concept_description_conflict_names_the_plugin() -> None:
    class Conflicting:
        __name__ = "conflicting"

        @hookimpl
        def register_concepts(self, register):  # type: ignore[no-untyped-def]
            register(DomainConcept(name="band_gap", description="Something else"))

    with pytest.raises(DeclarationError, match=r"conflicting .*concept 'band_gap'.*different description"):
        _collect(Conflicting())


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"intents": ["material_propertyy"]}, "unknown intent 'material_propertyy' (did you mean 'material_property'?)"),
        ({"fields_group": "electronics"}, "field 'gap': unknown field group 'electronics' (did you mean 'electronic'?)"),
        ({"fields_concept": "bandgap"}, "field 'gap': unknown concept 'bandgap'"),
        ({"param_concept": "formulae"}, "parameter 'formula': unknown concept 'formulae'"),
    ],
)
def test_unknown_references_name_plugin_and_item(change: dict, expected: str) -> None:
    data = source_dict()
    endpoint = data["endpoints"][0]
    if "intents" in change:
        endpoint["intents"] = change["intents"]
    if "fields_group" in change:
        endpoint["fields"][1]["group"] = change["fields_group"]
    if "fields_concept" in change:
        endpoint["fields"][1]["concepts"] = [change["fields_concept"]]
    if "param_concept" in change:
        endpoint["parameters"][0]["concept"] = change["param_concept"]
    with pytest.raises(DeclarationError) as info:
        _collect(SourcePlugin("bad_plugin", data))
    message = str(info.value)
    assert message.startswith("bad_plugin local: source 'lab_store' endpoint 'samples'")
    assert expected in message


def test_invalid_model_from_a_plugin_names_plugin_and_item() -> None:
    data = source_dict()
    data["endpoints"][0]["fields"][1]["type"] = "float"
    with pytest.raises(DeclarationError, match=r"^bad_plugin local: source 'lab_store': endpoints\[samples\]\.fields\[gap\]\.type"):
        _collect(SourcePlugin("bad_plugin", data))


def test_duplicate_source_id_names_both_plugins() -> None:
    with pytest.raises(DeclarationError) as info:
        _collect(SourcePlugin("first_plugin", source()), SourcePlugin("second_plugin", source()))
    message = str(info.value)
    assert "first_plugin" in message and "second_plugin" in message and "'lab_store'" in message


def test_load_plugins_env_selects_and_rejects_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCHEMAROUTER_LOAD_PLUGINS", "")
    pm = make_plugin_manager()
    assert [name for name, _ in pm.list_name_plugin()] == list(DEFAULT_PLUGINS)
    monkeypatch.setenv("SCHEMAROUTER_LOAD_PLUGINS", "no_such_plugin")
    with pytest.raises(SchemaRouterError, match="SCHEMAROUTER_LOAD_PLUGINS names 'no_such_plugin'"):
        make_plugin_manager()


def test_load_source_file_reports_yaml_position(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: x\ntitle: [unclosed\n")
    with pytest.raises(DeclarationError, match=r"bad.yaml: line \d+, column \d+: invalid YAML"):
        load_source_file(bad)
    not_mapping = tmp_path / "list.yaml"
    not_mapping.write_text("- a\n- b\n")
    with pytest.raises(DeclarationError, match="expected a mapping"):
        load_source_file(not_mapping)
