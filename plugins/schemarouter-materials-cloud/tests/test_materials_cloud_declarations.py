"""The schemarouter-materials-cloud plugin passes the plugin contract and declares exactly its source."""

import schemarouter_materials_cloud as plugin

from schemarouter.testing import assert_plugin_contract


def test_plugin_contract() -> None:
    document = assert_plugin_contract(plugin)
    assert [source["id"] for source in document["sources"]] == ["materials_cloud"]
