"""The schemarouter-materials-project plugin passes the plugin contract and declares exactly its source."""

from schemarouter_materials_project import plugin

from schemarouter.declarations import load_source_file
from schemarouter.testing import assert_plugin_contract, plugin_declarations


def test_plugin_contract() -> None:
    document = assert_plugin_contract(plugin)
    assert [source["id"] for source in document["sources"]] == ["materials_project"]


def test_every_non_identifier_field_carries_its_domain_aliases() -> None:
    source = load_source_file(plugin.source_file)
    bare = [f"{e.id}.{f.name}" for e in source.endpoints for f in e.fields if not f.identifier and not f.aliases]
    assert bare == [], f"fields without aliases: {bare}"
    assert "K_VRH" in source.endpoint("summary").field("k_vrh").aliases


def test_concept_aliases_merge_into_the_shared_vocabulary() -> None:
    concept = plugin_declarations(plugin).concepts["energy_above_hull"]
    assert concept.description, "the core description is kept"
    assert "E_hull" in concept.aliases
