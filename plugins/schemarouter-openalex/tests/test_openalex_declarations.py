"""The schemarouter-openalex plugin passes the plugin contract and declares exactly its source."""

from schemarouter_openalex import plugin

from schemarouter.declarations import load_source_file
from schemarouter.testing import assert_plugin_contract


def test_plugin_contract() -> None:
    document = assert_plugin_contract(plugin)
    assert [source["id"] for source in document["sources"]] == ["openalex"]


def test_every_non_identifier_field_carries_its_domain_aliases() -> None:
    source = load_source_file(plugin.source_file)
    bare = [f"{e.id}.{f.name}" for e in source.endpoints for f in e.fields if not f.identifier and not f.aliases]
    assert bare == [], f"fields without aliases: {bare}"
    assert "journal name" in source.endpoint("works").field("venue").aliases
