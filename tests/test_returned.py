"""Status and coverage come from what came back, not from what was planned: a planned field no record
carries is reported as not returned (per field, per step, per entity), a run whose answer fields all
came back empty is not ``ok`` and exits non-zero, and offline replay never answers with a recording
made for other fields."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from vcr.request import Request

from schemarouter.cli import cli
from schemarouter.cli.exit_codes import NOTHING, for_batch, for_status
from schemarouter.execution.replaymatch import QuestionKeys
from schemarouter.execution.results import Record, RunResult, StepFailure, StepResult, Value
from schemarouter.graph import SchemaGraph
from schemarouter.plan import Coverage, CoverageItem, Plan, PlanStep
from tests.routing_support import graph, routing_db  # noqa: F401

MP_FIELDS = ["material_id", "band_gap", "formula_pretty"]


def _value(field: str, value: Any, record_id: str) -> Value:
    return Value(field=field, value=value, source="mp", endpoint="summary", record_id=record_id,
                 source_type="calculated", license="CC-BY-4.0")


def _step(index: int, formula: str, band_gap: float | None, error: str | None = None) -> StepResult:
    step = StepResult(index=index, source="mp", endpoint="summary", fields=list(MP_FIELDS),
                      params={"formula": formula})
    if error:
        step.error = StepFailure(kind=error, message=f"mp: offline replay has no recording for {formula}")
        return step
    rid = f"mp-{index}"
    step.records = [Record(source="mp", endpoint="summary", record_id=rid, values={
        "material_id": _value("material_id", rid, rid), "formula_pretty": _value("formula_pretty", formula, rid),
        "band_gap": _value("band_gap", band_gap, rid)})]
    return step


def _run(*steps: StepResult) -> RunResult:
    plan = Plan(query="band gaps", registry_fingerprint=None,
                steps=[PlanStep(source="mp", endpoint="summary", params=s.params, fields=list(MP_FIELDS)) for s in steps],
                coverage=Coverage(items=[
                    CoverageItem(kind="concept", name="band_gap", covered=True, by=["mp.summary.band_gap"]),
                    CoverageItem(kind="param", name="formula", value="GaN", covered=True, by=["mp.summary.formula"]),
                ]))
    return RunResult(query="band gaps", steps=list(steps), plan=plan)


def test_records_without_the_asked_field_are_empty_not_ok() -> None:
    run = _run(_step(0, "C", None))
    assert run.status == "empty" and for_status(run.status) == NOTHING
    assert run.steps[0].missing_fields == ["band_gap"]
    band_gap = next(i for i in run.coverage.items if i.name == "band_gap")  # type: ignore[union-attr]
    assert not band_gap.covered and "no record returned a value" in band_gap.why
    shown = run.to_json()
    assert shown["status"] == "empty" and shown["steps"][0]["missing"] == ["band_gap"]
    assert shown["not_returned"] == [{"step": 0, "source": "mp", "endpoint": "summary", "about": "mp.summary formula=C",
                                      "fields": ["band_gap"], "answers": ["band_gap"], "error": None}]
    assert "not returned: band_gap" in str(run)
    assert for_batch(["ok", "empty"]) == 3 and for_batch(["empty", "failed"]) == NOTHING


def test_each_entity_is_reported_with_its_values_or_what_it_lacks() -> None:
    run = _run(_step(0, "GaN", 3.2), _step(1, "AlN", None), _step(2, "InN", None, error="no_recording"))
    assert run.status == "partial"
    about = {item["about"]: item for item in run.not_returned}
    assert set(about) == {"mp.summary formula=AlN", "mp.summary formula=InN"}
    assert about["mp.summary formula=AlN"]["answers"] == ["band_gap"]
    assert about["mp.summary formula=InN"]["fields"] == MP_FIELDS and about["mp.summary formula=InN"]["error"] == "no_recording"
    band_gap = next(i for i in run.coverage.items if i.name == "band_gap")  # type: ignore[union-attr]
    assert band_gap.covered and band_gap.by == ["mp.summary.band_gap"]
    # every step answered, each with its band gap: ok
    assert _run(_step(0, "GaN", 3.2), _step(1, "AlN", 6.0)).status == "ok"


def test_a_plan_that_ties_no_field_to_a_concept_is_answered_by_any_value() -> None:
    run = _run(_step(0, "C", None))
    run.plan.coverage = Coverage(items=[])  # type: ignore[union-attr]  # "get the record": no concept asked
    assert run.status == "ok" and run.not_returned[0]["fields"] == ["band_gap"]
    empty = _step(0, "C", None)
    empty.records[0].values = {}
    run.steps = [empty]
    assert run.status == "empty"


def _get(uri: str) -> Request:
    return Request("GET", uri, None, {})


MP = "https://api.materialsproject.org/materials/summary/?formula=C&_limit=1000&_fields="


def test_replay_prefers_the_recording_that_holds_most_of_the_asked_fields(graph: SchemaGraph) -> None:
    keys = QuestionKeys(graph.sources.values(), projection="covering")
    asked = _get(MP + "material_id,k_vrh,band_gap")
    other = _get(MP + "material_id,formula_pretty,density")  # made for other fields: never answers
    narrow = _get(MP + "material_id,band_gap")
    full = _get(MP + "material_id,band_gap,k_vrh,density")
    assert not keys.answers(asked, other, [other])
    assert keys.answers(asked, narrow, [other, narrow])  # a part: the rest is reported missing
    assert not keys.answers(asked, narrow, [other, narrow, full]) and keys.answers(asked, full, [other, narrow, full])
    assert not keys.answers(asked, _get(MP.replace("=C&", "=Si&") + "material_id,k_vrh,band_gap"), [])


@pytest.fixture(autouse=False)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCHEMAROUTER_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("SCHEMAROUTER_CASSETTES", raising=False)


def _sr(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.mark.usefixtures("_isolated")
def test_the_readme_diamond_example_says_what_was_not_returned(routing_db: str) -> None:
    question = "Bulk modulus of diamond in GPa from the Materials Project"
    human = _sr("run", "--offline", "--db", routing_db, question)
    assert human.exit_code == NOTHING, human.output
    assert "not returned for materials_project.summary formula=C" in human.output and "k_vrh" in human.output
    assert "status: empty" in human.output
    # the records show their structure, and the run says which one "diamond" means
    assert "spacegroup_symbol = I4/mmm" in human.output and "check: diamond is C in space group Fd-3m (227)" in human.output
    document = json.loads(_sr("run", "--offline", "--db", routing_db, "--json", question).output)
    assert document["status"] == "empty"
    bulk = next(i for i in document["coverage"]["items"] if i["name"] == "bulk_modulus")
    assert bulk["covered"] is False
    assert any("k_vrh" in item["answers"] for item in document["not_returned"])
