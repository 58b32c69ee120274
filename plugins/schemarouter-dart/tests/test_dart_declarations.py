"""The schemarouter-dart plugin passes the plugin contract and declares exactly its source."""

from schemarouter_dart import plugin

from schemarouter.declarations import load_source_file
from schemarouter.testing import assert_plugin_contract, plugin_declarations


def test_plugin_contract() -> None:
    document = assert_plugin_contract(plugin)
    assert [source["id"] for source in document["sources"]] == ["dart"]


def test_every_non_identifier_field_carries_its_domain_aliases() -> None:
    source = load_source_file(plugin.source_file)
    bare = [f"{e.id}.{f.name}" for e in source.endpoints for f in e.fields if not f.identifier and not f.aliases]
    assert bare == [], f"fields without aliases: {bare}"
    assert "revenue" in source.endpoint("financial_statement").field("account_nm").aliases


def test_concept_aliases_merge_into_the_shared_vocabulary() -> None:
    concept = plugin_declarations(plugin).concepts["fiscal_year"]
    assert concept.description, "the core description is kept"
    assert "사업연도" in concept.aliases
