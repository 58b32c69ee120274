"""Planning and running over an imported MCP server: the right tool, its parameters, only the planned fields.

The lab server (test kit, built with the mcp SDK) runs locally over stdio; the reference server
``mcp-server-time`` from PyPI too. Recorded sessions replay offline without starting a server.
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from schemarouter.plan import Plan, PlanStep
from schemarouter.registry import Registry
from schemarouter.registry.local import add_local_source
from tests.mcp_support import (  # noqa: F401  (fixtures)
    LAB,
    LAB_OVERLAY,
    TIME_SERVER,
    lab_db,
    lab_local,
    lab_template,
    write_overlay,
)
from tests.sr_cli import sr  # noqa: F401  (fixture)

BAND_GAP = "What is the band gap of LiFePO4 in the lab materials database?"


def _plan_file(tmp_path: Path, *steps: PlanStep) -> str:
    path = tmp_path / "plan.json"
    path.write_text(Plan(query="test", registry_fingerprint=None, steps=list(steps)).model_dump_json(), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("question", "endpoint", "params"), [
    (BAND_GAP, "get_material", {"formula": "LiFePO4"}),
    ("band gap and density of GaN from the lab", "get_material", {"formula": "GaN"}),
    ("Which lab materials contain Fe?", "search_materials", {"element": "Fe"}),
])
def test_question_plans_the_tool_with_its_parameters(sr, lab_db: str, question: str, endpoint: str,  # type: ignore[no-untyped-def]
                                                      params: dict[str, str]) -> None:
    ran = sr("plan", question, "--db", lab_db, "--json")
    assert ran.code == 0, ran.err
    steps = json.loads(ran.out)["steps"]
    assert [(s["source"], s["endpoint"], s["params"]) for s in steps] == [("lab", endpoint, params)]


def test_run_prints_only_the_planned_fields_with_units_and_license(sr, lab_db: str, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    starts = tmp_path / "starts.log"
    monkeypatch.setenv("LAB_MCP_STARTS", str(starts))
    ran = sr("run", "--mode", "minimal", BAND_GAP, "--db", lab_db, "--no-cache")
    assert ran.code == 0, ran.err
    assert "band_gap = 3.69 eV" in ran.out and "CC-BY-4.0" in ran.out
    assert "tools/call get_material" in ran.out
    for unplanned in ("pseudopotentials", "history", "calc_settings", "density"):
        assert unplanned not in ran.out, f"{unplanned} was not planned and must not reach the context"
    data = json.loads(sr("run", "--mode", "minimal", BAND_GAP, "--db", lab_db, "--no-cache", "--json").out)
    values = data["steps"][0]["records"][0]["values"]
    assert set(values) == {"material_id", "band_gap"}
    assert values["band_gap"]["unit"] == "eV" and values["band_gap"]["license"] == "CC-BY-4.0"
    assert len(starts.read_text().split()) == 2, "one server start per run (the variable was handed over by name)"


def test_one_session_per_server_per_run_and_chained_steps(sr, lab_db: str, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    starts = tmp_path / "starts.log"
    monkeypatch.setenv("LAB_MCP_STARTS", str(starts))
    plan = _plan_file(
        tmp_path,
        PlanStep(id="s1", source="lab", endpoint="search_materials", params={"element": "Ga"}, fields=["formula"]),
        PlanStep(source="lab", endpoint="get_material", params={"formula": {"from": "s1", "field": "formula"}},
                 fields=["band_gap", "space_group"]),
        PlanStep(source="lab", endpoint="get_material", params={"formula": "Si"}, fields=["density"]),
    )
    ran = sr("run", "--plan", plan, "--db", lab_db, "--no-cache", "--json")
    assert ran.code == 0, ran.err
    steps = json.loads(ran.out)["steps"]
    assert [s["error"] for s in steps] == [None, None, None]
    assert steps[1]["params"]["formula"] == "GaN", "the second step took the first one's value"
    assert steps[1]["records"][0]["values"]["space_group"]["value"] == "P6_3mc"
    assert steps[2]["records"][0]["values"]["density"]["value"] == 2.28
    assert len(starts.read_text().split()) == 1, "three steps, one session"


def test_recorded_session_replays_offline_without_a_server(sr, lab_db: str, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    cassettes = tmp_path / "cassettes"
    monkeypatch.setenv("SCHEMAROUTER_MCP_RECORD", str(cassettes / "lab"))
    live = json.loads(sr("run", BAND_GAP, "--db", lab_db, "--no-cache", "--json").out)
    recording = cassettes / "lab" / "lab.mcp.yaml"
    assert recording.exists()
    monkeypatch.delenv("SCHEMAROUTER_MCP_RECORD")
    starts = tmp_path / "starts.log"
    monkeypatch.setenv("LAB_MCP_STARTS", str(starts))
    offline = json.loads(sr("run", BAND_GAP, "--db", lab_db, "--offline", "--cassettes", str(cassettes), "--json").out)
    assert offline["steps"][0]["records"] == live["steps"][0]["records"]
    assert not starts.exists(), "offline replay starts no server"
    other = sr("run", "What is the band gap of TiO2 in the lab materials database?", "--db", lab_db, "--offline",
               "--cassettes", str(cassettes), "--json")
    error = json.loads(other.out)["steps"][0]["error"]
    assert error["kind"] == "no_recording" and "no recorded MCP call get_material" in error["message"]


def test_write_tool_runs_only_when_allowed(sr, lab_db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    plan = _plan_file(tmp_path, PlanStep(source="lab", endpoint="delete_material",
                                         params={"material_id": "lab-149"}, fields=[]))
    refused = json.loads(sr("run", "--plan", plan, "--db", lab_db, "--json").out)
    assert refused["steps"][0]["error"]["kind"] == "write_not_allowed"
    declined = sr("plan", "Delete material lab-149 from the lab", "--db", lab_db)
    assert "lab.delete_material" in declined.out and "writes are not enabled" in declined.out


def test_hanging_server_is_cut_off_and_the_rest_of_the_plan_returns(sr, lab_db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with Registry.open(lab_db) as reg:
        add_local_source(reg, lab_local("lab_stuck", hang=True), "mcp: lab --hang")
    plan = _plan_file(
        tmp_path,
        PlanStep(source="lab_stuck", endpoint="get_material", params={"formula": "Si"}, fields=["band_gap"]),
        PlanStep(source="lab", endpoint="get_material", params={"formula": "Si"}, fields=["band_gap"]),
    )
    started = time.monotonic()
    ran = sr("run", "--plan", plan, "--db", lab_db, "--timeout", "2", "--no-cache", "--no-fallback", "--json")
    elapsed = time.monotonic() - started
    steps = json.loads(ran.out)["steps"]
    assert steps[0]["error"]["kind"] == "timeout" and "did not answer within 2 s" in steps[0]["error"]["message"]
    assert steps[1]["error"] is None and steps[1]["records"][0]["values"]["band_gap"]["value"] == 0.61
    assert elapsed < 20, f"the hung server held the run for {elapsed:.1f} s"


def test_reference_time_server_runs_a_plan(sr, lab_db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    overlay = write_overlay(tmp_path / "time.yaml", endpoints={"get_current_time": {
        "identifier": "timezone", "parameters": {"timezone": {"example": "Europe/Paris"}}}})
    assert sr("source", "import-mcp", "--id", "clock", "--overlay", str(overlay), "--db", lab_db, "--",
              TIME_SERVER).code == 0
    plan = _plan_file(tmp_path, PlanStep(source="clock", endpoint="get_current_time",
                                         params={"timezone": "Europe/Paris"}, fields=["day_of_week"]))
    ran = sr("run", "--plan", plan, "--db", lab_db, "--no-cache", "--json")
    record = json.loads(ran.out)["steps"][0]["records"][0]
    assert record["record_id"] == "Europe/Paris"
    assert record["values"]["day_of_week"]["value"] in {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
                                                        "Saturday", "Sunday"}
    assert set(record["values"]) == {"timezone", "day_of_week"}
    checked = sr("sources", "check", "--live", "clock", "--db", lab_db)
    assert checked.code == 0 and "ok" in checked.out and "4/4 declared fields present" in checked.out, checked.out


@pytest.fixture
def lab_over_http() -> Iterator[str]:
    """The lab server on streamable HTTP at 127.0.0.1 (a free port); its URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([*LAB, "--http", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with socket.socket() as attempt:
                if attempt.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_streamable_http_server_imports_and_runs(sr, lab_db: str, tmp_path: Path, lab_over_http: str) -> None:  # type: ignore[no-untyped-def]
    ran = sr("source", "import-mcp", "--id", "lab_http", "--overlay", str(LAB_OVERLAY), "--url", lab_over_http,
             "--db", lab_db, "--json")
    assert ran.code == 0, ran.err
    assert json.loads(ran.out)["server"] == lab_over_http
    plan = _plan_file(tmp_path, PlanStep(source="lab_http", endpoint="get_material", params={"formula": "GaN"},
                                         fields=["band_gap"]))
    record = json.loads(sr("run", "--plan", plan, "--db", lab_db, "--no-cache", "--json").out)["steps"][0]["records"][0]
    assert record["values"]["band_gap"]["value"] == 1.73 and record["values"]["band_gap"]["unit"] == "eV"
