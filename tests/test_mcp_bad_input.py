"""Bad MCP servers: one clear line each, in bounded time and memory, and the other steps kept.

The test kit's fault server (``schemarouter.testing.mcp_faults``) speaks raw JSON-RPC over stdio and
misbehaves one way per mode: silent, hanging, 50 MB and 10,000-deep answers, an exit mid-call, a
result that breaks its own outputSchema, a self-referring outputSchema, colliding tool names and
5,000 tools.
"""

from __future__ import annotations

import resource
import time
from pathlib import Path

import pytest

from schemarouter.declarations import Declarations
from schemarouter.errors import SchemaRouterError
from schemarouter.execution.executor import Executor
from schemarouter.execution.http import HttpConfig
from schemarouter.execution.mcp import McpAdapter
from schemarouter.mcpimport import import_mcp
from schemarouter.mcpimport.listing import MAX_TOOLS
from schemarouter.plan import Plan, PlanStep
from schemarouter.sources.local import LocalSource
from schemarouter.sources.mcp import McpServer, tool_options
from tests.mcp_support import faults, write_overlay

MODES = ("good", "hang", "huge", "deep", "exit", "mismatch", "silent")


@pytest.fixture(scope="module")
def overlay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_overlay(tmp_path_factory.mktemp("ov") / "faults.yaml")


@pytest.fixture(scope="module")
def good(overlay: Path) -> LocalSource:
    return import_mcp(McpServer(command=faults("good")), "faults", overlay).local


def _as_mode(local: LocalSource, mode: str) -> LocalSource:
    """The good server's source, renamed and pointed at the fault server in ``mode``."""
    source = local.source.model_copy(update={"id": f"faults_{mode}"})
    specs = {}
    for eid, spec in local.adapter_specs.items():
        options = tool_options(spec.options)
        options = options.model_copy(update={"server": McpServer(command=faults(mode))})
        specs[eid] = spec.model_copy(update={"options": options.model_dump(mode="json", exclude_none=True)})
    return LocalSource(source, specs)


def test_every_fault_is_one_line_and_the_other_steps_return(good: LocalSource) -> None:
    locals_ = {mode: _as_mode(good, mode) for mode in MODES}
    decls = Declarations(sources={lo.source.id: lo.source for lo in locals_.values()})
    adapters = {lo.source.id: McpAdapter(lo.adapter_specs) for lo in locals_.values()}
    executor = Executor(decls, adapters, env={"PATH": "/usr/bin:/bin"}, step_timeout_s=30,
                        config=HttpConfig(timeout_s=3, max_bytes=5 * 1024 * 1024))
    plan = Plan(query="faults", registry_fingerprint=None, steps=[
        PlanStep(source=f"faults_{mode}", endpoint="lookup", params={"id": "a1"}, fields=["value"]) for mode in MODES
    ])
    started = time.monotonic()
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = executor.run_sync(plan)
    elapsed = time.monotonic() - started
    by_mode = dict(zip(MODES, result.steps, strict=True))
    assert by_mode["good"].error is None and by_mode["good"].records[0].values["value"].value == 42.0
    expected = {
        "hang": ("timeout", "did not answer within 3 s"),
        "huge": ("response_too_large", "over the 5,242,880-byte cap"),
        "deep": ("unparseable_body", "nested too deeply"),
        "exit": ("network", "exited with code 3: fault server: crashed on purpose"),
        "mismatch": ("schema_mismatch", "does not match its outputSchema at value"),
        "silent": ("timeout", "did not answer initialize within 5 s"),
    }
    for mode, (kind, words) in expected.items():
        error = by_mode[mode].error
        assert error is not None, mode
        assert error.kind == kind and words in error.message, (mode, error)
        assert "\n" not in error.message and len(error.message) < 400
    assert elapsed < 25, f"the faults held the run for {elapsed:.0f} s"
    growth_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before) / 1024
    assert growth_mb < 200, f"a 50 MB answer grew the process by {growth_mb:.0f} MB"


def test_server_that_never_answers_initialize_fails_the_import_in_time(overlay: Path) -> None:
    started = time.monotonic()
    with pytest.raises(SchemaRouterError, match="did not answer initialize within 2 s"):
        import_mcp(McpServer(command=faults("silent")), "silent", overlay, timeout_s=2)
    assert time.monotonic() - started < 10


def test_self_referring_output_schema_stops_and_is_reported(overlay: Path) -> None:
    result = import_mcp(McpServer(command=faults("selfref")), "taxa", overlay)
    tree = result.local.source.endpoint("tree")
    paths = {f.path for f in tree.fields}
    assert {"name", "rank", "parent.name"} <= paths, "the schema is followed once more, then stops"
    assert any(u.construct == "recursive schema" for u in result.report.unmapped)


def test_colliding_tool_names_get_distinct_ids_and_a_line_each(overlay: Path) -> None:
    result = import_mcp(McpServer(command=faults("collide")), "clash", overlay)
    ids = [e.id for e in result.local.source.endpoints]
    assert ids == ["lookup", "get_data", "get_data_2", "get_data_3", "get_data_4"]
    collisions = [u.line() for u in result.report.unmapped if u.construct == "name collision"]
    assert len(collisions) == 3 and "normalises to 'get_data' like tool 'get-data'" in collisions[0]
    tools = {tool_options(result.local.spec(i).options).tool for i in ids}
    assert tools == {"lookup", "get-data", "get_data", "Get Data", "get.data"}, "each id still calls its own tool"


def test_server_with_5000_tools_is_mapped_within_bounds(overlay: Path) -> None:
    started = time.monotonic()
    result = import_mcp(McpServer(command=faults("many")), "many", overlay)
    elapsed = time.monotonic() - started
    assert len(result.local.source.endpoints) == MAX_TOOLS
    assert any("listing stopped after" in n for n in result.report.notes)
    assert elapsed < 60, f"5,000 tools took {elapsed:.0f} s"
