"""The Python API a notebook user needs: ``schemarouter.run``/``plan``, ``Router.run``, typed results and
readable reprs, all from the top-level package."""

from __future__ import annotations

from pathlib import Path

import pytest

import schemarouter
from schemarouter.execution.results import RunResult
from schemarouter.plan import Plan
from tests.routing_support import routing_db  # noqa: F401


def test_the_package_exports_the_whole_api() -> None:
    for name in schemarouter.__all__:
        assert getattr(schemarouter, name) is not None
    assert schemarouter.RunResult is RunResult and schemarouter.Plan is Plan
    with pytest.raises(AttributeError):
        schemarouter.Executor  # noqa: B018 - not public here


def test_run_a_question(routing_db: str) -> None:
    result = schemarouter.run("What is the molecular weight of aspirin?", db=routing_db, offline=True)
    assert isinstance(result, schemarouter.RunResult) and result.status == "ok"
    weight = next(v for v in result.values if v.field == "MolecularWeight")
    assert (weight.value, weight.unit, weight.source) == (pytest.approx(180.16), "g/mol", "pubchem")
    assert isinstance(result.plan, schemarouter.Plan) and result.coverage is not None
    shown = repr(result)
    assert shown.startswith("RunResult ok: 'What is the molecular weight of aspirin?'") and "\n" in shown
    assert "MolecularWeight=180.16 g/mol" in shown


def test_router_plans_and_runs(routing_db: str) -> None:
    router = schemarouter.Router.from_registry(routing_db)
    plan = router.plan("What is the formation energy of SmPO4?")
    assert repr(plan).splitlines()[0] == "Plan (recall): 'What is the formation energy of SmPO4?'"
    assert "covered: concept formation_energy by materials_project.summary" in repr(plan)
    result = router.run(plan, offline=True)
    assert result.status == "ok" and result.plan is plan
    value = next(v for v in result.values if v.field == "formation_energy_per_atom")
    assert value.value == pytest.approx(-3.4798, abs=1e-4) and value.unit == "eV/atom"
    assert router.run("What is the formation energy of SmPO4?", offline=True).values == result.values


def test_run_syncs_an_empty_registry_first(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    result = schemarouter.run("Get the arXiv paper 1605.08386", db=url, offline=True)
    assert result.status == "ok" and result.plan is not None and result.plan.steps[0].source == "arxiv"


def test_a_declined_question_is_a_result_not_an_exception(routing_db: str) -> None:
    result = schemarouter.run("Book me a flight to Boston", db=routing_db, offline=True)
    assert result.status == "declined" and result.declined and "declined:" in repr(result)
