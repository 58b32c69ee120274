"""``schemarouter mcp`` over stdio, driven by the MCP SDK's own client: one real session, real calls.

The conversation runs once per module (starting the server costs seconds); each test then checks
one thing it showed.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from schemarouter.registry import Registry
from tests.service_support import cli_server, mcp_stdio
from tests.sr_cli import copy_registry, synced_template

ASPIRIN = "What is the molecular weight of aspirin?"
WRONG_ARGUMENTS = [
    ("plan", {"question": 123}),
    ("plan", {"question": "band gap of GaN", "mode": "everything"}),
    ("plan", {}),
    ("run", {"plan": "not a plan", "offline": True}),
    ("run", {"question": ASPIRIN, "offline": "yes"}),
    ("run", {"question": ASPIRIN, "query": "band gap of GaN"}),
    ("describe_source", {"source_id": ["materials_project"]}),
]


async def _conversation(db: str, home: Path) -> dict[str, Any]:
    from mcp import Client

    transport = mcp_stdio(["mcp", "--db", db, "--no-live"], home, home.parent / "server.err")
    seen: dict[str, Any] = {}
    async with Client(transport, read_timeout_seconds=120) as client:
        seen["tools"] = (await client.list_tools()).tools
        planned = await client.call_tool("plan", {"question": ASPIRIN})
        seen["plan"] = planned
        seen["run_plan"] = await client.call_tool(
            "run", {"plan": planned.structured_content, "offline": True}
        )
        seen["run_question"] = await client.call_tool("run", {"question": ASPIRIN, "offline": True})
        # on a server without live execution, leaving offline out replays: an agent's first call works
        seen["run_default"] = await client.call_tool("run", {"query": ASPIRIN})
        seen["run_full"] = await client.call_tool("run", {"question": ASPIRIN, "include_plan": True})
        seen["run_live"] = await client.call_tool("run", {"question": ASPIRIN, "offline": False})
        stale = dict(planned.structured_content)
        stale["registry_fingerprint"] = "sha256:" + "1" * 64
        seen["run_stale"] = await client.call_tool("run", {"plan": stale, "offline": True})
        seen["wrong"] = [await client.call_tool(name, args) for name, args in WRONG_ARGUMENTS]
        seen["sources"] = await client.call_tool("list_sources", {})
        seen["describe"] = await client.call_tool("describe_source", {"source_id": "pubchem"})
        seen["describe_unknown"] = await client.call_tool("describe_source", {"source_id": "pubchen"})
        seen["resources"] = (await client.list_resources()).resources
        seen["fingerprint"] = (await client.read_resource("schemarouter://registry/fingerprint")).contents[0]
        seen["registry"] = (await client.read_resource("schemarouter://registry")).contents[0]
        seen["after_errors"] = await client.call_tool("plan", {"question": "Get the arXiv paper 1605.08386"})
    return seen


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return copy_registry(
        synced_template(tmp_path_factory.mktemp("template")), tmp_path_factory.mktemp("registry")
    )


@pytest.fixture(scope="module")
def seen(db: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return asyncio.run(_conversation(db, tmp_path_factory.mktemp("home")))


def _text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


def test_tools_are_listed_with_short_descriptions(seen: dict[str, Any], db: str) -> None:
    from schemarouter.service import Service, ServiceConfig
    from schemarouter.service.mcp_server import create_server, tool_definition_tokens, tool_definitions
    from schemarouter.service.state import RegistryState

    tools = {t.name: t for t in seen["tools"]}
    assert set(tools) == {"plan", "run", "list_sources", "describe_source"}
    assert all(t.description and len(t.description) <= 200 for t in tools.values())
    # every parameter says what it is, and every tool says what it returns
    for tool in tools.values():
        assert all(p.get("description") for p in tool.input_schema["properties"].values()), tool.name
        assert tool.output_schema and tool.output_schema.get("properties"), tool.name
    assert {"status", "context", "records", "missing", "errors"} <= set(tools["run"].output_schema["properties"])
    assert {"steps", "registry_fingerprint"} <= set(tools["plan"].output_schema["properties"])
    # the figure the benchmark reports is the size of exactly what this client received
    definitions = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in seen["tools"]]
    state = RegistryState(db)
    try:
        local = tool_definitions(create_server(Service(state, ServiceConfig())))
    finally:
        state.close()
    assert definitions == local
    assert (
        0 < tool_definition_tokens(definitions) < tool_definition_tokens(definitions, with_output_schema=True)
    )


def test_plan_tool_returns_the_plan(seen: dict[str, Any], db: str) -> None:
    result = seen["plan"]
    assert not result.is_error
    plan = result.structured_content
    assert plan["steps"][0]["source"] == "pubchem"
    assert "MolecularWeight" in plan["steps"][0]["fields"]
    with Registry.open(db) as registry:
        assert plan["registry_fingerprint"] == registry.fingerprint()
    assert json.loads(_text(result)) == plan


def test_run_tool_returns_lean_attributed_values(seen: dict[str, Any]) -> None:
    for key in ("run_plan", "run_question", "run_default"):
        result = seen[key]
        assert not result.is_error, _text(result)
        lean = result.structured_content
        assert json.loads(_text(result)) == lean
        assert lean["status"] == "ok" and lean["offline"] is True
        record = next(r for r in lean["records"] if "MolecularWeight" in r["values"])
        assert record["source"] == "pubchem" and record["values"]["MolecularWeight"][1] == "g/mol"
        assert "MolecularWeight=180.16 g/mol" in lean["context"] and "[calculated; " in lean["context"]
        # the plan stays one parameter away, and the answer is a small multiple of the context
        assert "plan" not in lean and "steps" not in lean
        assert len(_text(result)) < 4 * len(lean["context"])
        # the recording holds no hydrogen-bond counts: reported as not returned, not left out
        assert "HBondDonorCount" in lean["missing"]["pubchem.compound_properties"]


def test_run_tool_returns_the_full_run_on_request(seen: dict[str, Any]) -> None:
    full = seen["run_full"].structured_content
    assert full["plan"]["steps"][0]["source"] == "pubchem" and full["query"] == ASPIRIN
    values = [v for s in full["steps"] for r in s["records"] for v in r["values"].values()]
    weight = next(v for v in values if v["field"] == "MolecularWeight")
    assert weight["unit"] == "g/mol" and weight["source"] == "pubchem"
    assert weight["source_type"] == "calculated" and weight["license"] and weight["attribution"]
    assert full["records"] == seen["run_default"].structured_content["records"]
    missing = full["not_returned"]
    assert missing and "HBondDonorCount" in missing[0]["fields"]
    assert missing[0]["about"] == "pubchem.compound_properties name=aspirin"


def test_refusals_are_tool_errors(seen: dict[str, Any]) -> None:
    assert seen["run_live"].is_error and "live execution is disabled" in _text(seen["run_live"])
    assert seen["run_stale"].is_error and "stale plan" in _text(seen["run_stale"])
    assert seen["describe_unknown"].is_error and "pubchem" in _text(seen["describe_unknown"])


def test_wrong_argument_types_are_tool_errors_and_the_session_goes_on(seen: dict[str, Any]) -> None:
    for (name, args), result in zip(WRONG_ARGUMENTS, seen["wrong"], strict=True):
        assert result.is_error, f"{name}({args}) was accepted"
        assert "Traceback" not in _text(result)
    assert not seen["after_errors"].is_error
    assert seen["after_errors"].structured_content["steps"][0]["source"] == "arxiv"


def test_browse_tools_and_resources(seen: dict[str, Any], db: str) -> None:
    sources = seen["sources"].structured_content["sources"]
    assert len(sources) == 19
    described = seen["describe"].structured_content
    assert described["id"] == "pubchem" and described["endpoints"]
    uris = {str(r.uri) for r in seen["resources"]}
    assert {"schemarouter://registry", "schemarouter://registry/fingerprint"} <= uris
    with Registry.open(db) as registry:
        assert seen["fingerprint"].text == registry.fingerprint()
    assert len(json.loads(seen["registry"].text)["sources"]) == 19


def test_streamable_http_transport(db: str, tmp_path: Path) -> None:
    from mcp import Client

    async def call(url: str) -> Any:
        async with Client(url, read_timeout_seconds=60) as client:
            return await client.call_tool("plan", {"question": ASPIRIN})

    with cli_server(["mcp", "--http", "--db", db, "--no-live"], tmp_path, "/mcp") as server:
        result = asyncio.run(call(server.url + "/mcp"))
    assert not result.is_error
    assert result.structured_content["steps"][0]["source"] == "pubchem"
