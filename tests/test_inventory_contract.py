"""The 19 first-party plugins declare the frozen benchmark inventory exactly.

The inventory (``bench/schemarouter_bench/data/inventory.yaml``) is the contract the gold plans are
written against. These tests sync the installed plugins into a fresh registry, export it, and
compare every contract attribute with the inventory read as plain YAML (not through the models,
so a model default that silently changed a value would still be caught). Aliases and
descriptions are the plugins' own work and are not compared.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from schemarouter_bench import data_path

from schemarouter.declarations import collect
from schemarouter.plugins import LOAD_PLUGINS_ENV, make_plugin_manager
from schemarouter.registry import Registry

REPO = Path(__file__).resolve().parents[1]
SHARED_INVENTORY = REPO.parent / "shared" / "bench" / "inventory.yaml"


def _inventory() -> dict[str, Any]:
    return yaml.safe_load(data_path("inventory.yaml").read_text(encoding="utf-8"))


INVENTORY = _inventory()
TOOLS: dict[str, dict[str, Any]] = {tool["id"]: tool for tool in INVENTORY["tools"]}


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Registry export after syncing exactly the 19 first-party plugins (selected by entry point)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(LOAD_PLUGINS_ENV, ",".join(sorted(TOOLS)))
        decls = collect(make_plugin_manager())
    url = f"sqlite:///{tmp_path_factory.mktemp('contract') / 'registry.db'}"
    with Registry.open(url) as registry:
        registry.sync(decls)
        document = json.loads(registry.export_bytes())
        document["_stats"] = registry.stats()
    return document


@pytest.fixture(scope="module")
def sources(exported: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {source["id"]: source for source in exported["sources"]}


def _source_contract(raw: dict[str, Any]) -> dict[str, Any]:
    """The contract attributes of one source, with the declaration models' defaults made explicit."""
    license = raw["license"]
    return {
        "id": raw["id"],
        "domain": raw["domain"],
        "source_type": raw["source_type"],
        "license": {
            "id": license["id"], "name": license["name"], "url": license.get("url"),
            "attribution": license.get("attribution"), "verified": license.get("verified", False),
        },
        # how a key is sent is the contract; where to get one (key_url) is the plugin's own help
        "auth": {k: v for k, v in raw["auth"].items() if k != "key_url"} if raw.get("auth") else None,
        "priority": raw.get("priority", 5),
        "endpoints": [_endpoint_contract(e) for e in raw["endpoints"]],
    }


def _endpoint_contract(raw: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": raw["id"],
        "method": raw.get("method", "GET"),
        "base_url": raw["base_url"],
        "path": raw["path"],
        "intents": raw.get("intents", []),
        "projection": raw.get("projection"),
        "parameters": [
            {
                "name": p["name"], "type": p["type"], "required": p.get("required", False),
                "concept": p.get("concept"), "enum": p.get("enum"),
            }
            for p in raw.get("parameters", [])
        ],
        "fields": [
            {
                "name": f["name"], "path": f["path"], "type": f["type"], "unit": f.get("unit"),
                "group": f["group"], "identifier": f.get("identifier", False),
                "concepts": f.get("concepts", []), "source_type": f.get("source_type"),
                "license": f.get("license"),
            }
            for f in raw["fields"]
        ],
    }


def test_the_shipped_inventory_is_the_shared_one_byte_for_byte() -> None:
    if not SHARED_INVENTORY.exists():
        pytest.skip(f"{SHARED_INVENTORY} is absent (not a checkout beside the shared benchmark folder)")
    assert data_path("inventory.yaml").read_bytes() == SHARED_INVENTORY.read_bytes(), (
        "bench/schemarouter_bench/data/inventory.yaml differs from ../shared/bench/inventory.yaml; copy it again"
    )


def test_totals_are_19_sources_22_endpoints_122_parameters_166_fields(exported: dict[str, Any]) -> None:
    counts = exported["_stats"]["counts"]
    assert (counts["sources"], counts["endpoints"], counts["parameters"], counts["fields"]) == (19, 22, 122, 166)


def test_the_same_source_ids_as_the_inventory(sources: dict[str, dict[str, Any]]) -> None:
    assert sorted(sources) == sorted(TOOLS)


def _pure_numbers_as_the_inventory_writes_them(contract: dict[str, Any], inventory: dict[str, Any]) -> None:
    """A numeric field the inventory leaves without a unit may declare ``unit: "1"`` (a count, a year,
    a ratio): that says it is a pure number, which the inventory's silence does not contradict. Any
    other unit must match."""
    want = {(e["id"], f["name"]): f.get("unit") for e in inventory["endpoints"] for f in e["fields"]}
    for endpoint in contract["endpoints"]:
        for f in endpoint["fields"]:
            if f["unit"] == "1" and want.get((endpoint["id"], f["name"])) is None:
                f["unit"] = None


@pytest.mark.parametrize("source_id", sorted(TOOLS))
def test_source_matches_the_inventory_on_every_contract_attribute(
    source_id: str, sources: dict[str, dict[str, Any]]
) -> None:
    expected = _source_contract(TOOLS[source_id])
    actual = _source_contract(sources[source_id])
    _pure_numbers_as_the_inventory_writes_them(actual, TOOLS[source_id])
    # Compare piecewise first so a failure names the endpoint and item that differ.
    assert [e["id"] for e in actual["endpoints"]] == [e["id"] for e in expected["endpoints"]]
    for got, want in zip(actual["endpoints"], expected["endpoints"], strict=True):
        where = f"{source_id}.{want['id']}"
        assert [p["name"] for p in got["parameters"]] == [p["name"] for p in want["parameters"]], where
        for p_got, p_want in zip(got["parameters"], want["parameters"], strict=True):
            assert p_got == p_want, f"{where} parameter {p_want['name']}"
        assert [f["name"] for f in got["fields"]] == [f["name"] for f in want["fields"]], where
        for f_got, f_want in zip(got["fields"], want["fields"], strict=True):
            assert f_got == f_want, f"{where} field {f_want['name']}"
    assert actual == expected


def test_no_adapter_block_leaks_into_the_declarations(sources: dict[str, dict[str, Any]]) -> None:
    for source in sources.values():
        for endpoint in source["endpoints"]:
            assert "adapter" not in endpoint, f"{source['id']}.{endpoint['id']}"


def test_fields_by_source_type_follow_the_inventory(exported: dict[str, Any]) -> None:
    expected: Counter[str] = Counter()
    for tool in TOOLS.values():
        for endpoint in tool["endpoints"]:
            for field in endpoint["fields"]:
                expected[field.get("source_type") or tool["source_type"]] += 1
    assert exported["_stats"]["fields_by_source_type"] == dict(sorted(expected.items()))


def test_vocabulary_names_match_the_inventory(exported: dict[str, Any]) -> None:
    assert set(exported["field_groups"]) == set(INVENTORY["field_groups"])
    assert {c["name"] for c in exported["concepts"]} == set(INVENTORY["concepts"])
    intents = {i["name"]: i for i in exported["intents"]}
    assert set(intents) == {i["name"] for i in INVENTORY["intents"]}
    for raw in INVENTORY["intents"]:
        assert intents[raw["name"]]["field_groups"] == raw["field_groups"], raw["name"]
        assert intents[raw["name"]]["domains"] == raw.get("domains", []), raw["name"]


def test_every_source_declares_aliases_beyond_the_inventory(sources: dict[str, dict[str, Any]]) -> None:
    """The alias layer is the plugins' own work: each source adds names users type for it."""
    for source_id, source in sources.items():
        added = {a.casefold() for a in source["aliases"]} - {a.casefold() for a in TOOLS[source_id].get("aliases", [])}
        assert added, f"{source_id} declares no source aliases of its own"


@pytest.mark.postgres
def test_postgres_registry_exports_the_same_document(exported: dict[str, Any], pg_url: str) -> None:
    """The contract holds on Postgres too: its export equals the SQLite one, byte for byte."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(LOAD_PLUGINS_ENV, ",".join(sorted(TOOLS)))
        decls = collect(make_plugin_manager())
    with Registry.open(pg_url) as registry:
        registry.sync(decls)
        document = json.loads(registry.export_bytes())
        counts = registry.stats()["counts"]
    assert (counts["sources"], counts["endpoints"], counts["parameters"], counts["fields"]) == (19, 22, 122, 166)
    assert document == {key: value for key, value in exported.items() if key != "_stats"}
