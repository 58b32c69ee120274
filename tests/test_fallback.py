"""Fallback to an equivalent source: found through the schema graph's concepts, with compatible units
and the same source type, replayed from the real cassettes (the Materials Project has no key here)."""

from __future__ import annotations

import pytest

from schemarouter.api import Router
from schemarouter.execution import errors as E
from schemarouter.execution.executor import _convert_units
from schemarouter.execution.fallback import fallback_worthy
from schemarouter.execution.offline import replay
from schemarouter.execution.results import Record, StepResult, Value
from schemarouter.execution.units import compatible, convert
from schemarouter.graph import SchemaGraph
from schemarouter.plan import Plan, PlanStep, Understanding
from schemarouter.router.substitutes import alternatives
from tests.routing_support import graph, routing_db  # noqa: F401

NO_KEYS: dict[str, str] = {}


@pytest.fixture(scope="module")
def api_router(graph: SchemaGraph) -> Router:
    return Router(graph)


def _sic(api_router: Router) -> Plan:
    plan = api_router.plan("What is the band gap of SiC?")
    assert plan.steps[0].source == "materials_project"  # the router's first choice, which needs MP_API_KEY
    return plan


def test_materials_project_without_a_key_is_answered_by_jarvis(api_router: Router) -> None:
    with replay(sources=api_router.graph.sources.values()):
        result = api_router.run(_sic(api_router), env=NO_KEYS, cache=False)
    step = result.steps[0]
    assert result.status == "ok"
    assert (step.source, step.endpoint) == ("jarvis_dft", "structures")
    assert step.fallback is not None
    assert (step.fallback.source, step.fallback.error.kind) == ("materials_project", "missing_credentials")
    assert "MP_API_KEY" in step.fallback.error.message
    assert "band_gap" in step.fallback.reason and "calculated" in step.fallback.reason
    assert step.fallback.fields["band_gap"] == ["optb88vdw_bandgap", "mbj_bandgap"]
    first = step.records[0]
    assert first.values["optb88vdw_bandgap"].value == pytest.approx(2.303)
    assert first.values["optb88vdw_bandgap"].unit == "eV"
    assert first.values["optb88vdw_bandgap"].source == "jarvis_dft"  # provenance is the answering source's
    assert "JVASP-182" in repr(result) and "fallback for materials_project.summary" in repr(result)


def test_no_fallback_keeps_the_failure(api_router: Router) -> None:
    with replay(sources=api_router.graph.sources.values()):
        result = api_router.run(_sic(api_router), env=NO_KEYS, cache=False, fallback=False)
    assert result.status == "failed"
    assert result.steps[0].error is not None and result.steps[0].error.kind == "missing_credentials"
    assert result.steps[0].fallback is None


def test_a_source_type_constraint_is_respected(api_router: Router, graph: SchemaGraph) -> None:
    plan = _sic(api_router)
    assert {a.step.source for a in alternatives(plan, 0, graph)} >= {"jarvis_dft"}
    measured = plan.model_copy(update={"understanding": plan.understanding.model_copy(
        update={"source_constraint": "experimental"})})
    for alt in alternatives(measured, 0, graph):
        assert {m.source_type for m in alt.step.meta.values()} == {"experimental"}
    assert all(a.step.source != "jarvis_dft" for a in alternatives(measured, 0, graph))


def test_formula_is_respelled_for_the_substitute(api_router: Router, graph: SchemaGraph) -> None:
    alts = {a.step.source: a for a in alternatives(_sic(api_router), 0, graph)}
    assert alts["jarvis_dft"].step.params == {"chemical_formula_reduced": "CSi"}  # OPTIMADE: alphabetical


def test_sources_already_in_the_plan_are_not_candidates(api_router: Router, graph: SchemaGraph) -> None:
    plan = api_router.plan("Compare the band gap of GaN across MP, JARVIS and AFLOW")
    in_plan = {s.source for s in plan.steps}
    assert len(in_plan) == 3
    assert not in_plan & {a.step.source for a in alternatives(plan, 0, graph)}


def test_an_identifier_is_not_sent_as_free_text_elsewhere(api_router: Router, graph: SchemaGraph) -> None:
    plan = api_router.plan("Who are the authors of arXiv paper 1810.04805?")
    assert plan.steps[0].source == "arxiv"
    assert alternatives(plan, 0, graph) == []  # no other source takes an arXiv id as such


def test_a_saved_plan_without_understanding_still_finds_equivalents(graph: SchemaGraph) -> None:
    plan = Plan(query="", registry_fingerprint=None, understanding=Understanding(),
                steps=[PlanStep(source="materials_project", endpoint="summary", params={"formula": "SiC"},
                                fields=["material_id", "band_gap"])])
    found = alternatives(plan, 0, graph)
    assert found and found[0].fields == {"band_gap": found[0].fields["band_gap"]}
    assert any(a.step.source == "jarvis_dft" and a.step.params == {"chemical_formula_reduced": "CSi"} for a in found)


def test_units_are_converted_to_the_planned_unit_and_say_so(api_router: Router, graph: SchemaGraph) -> None:
    plan = api_router.plan("Bulk modulus of diamond in GPa from the Materials Project")
    nomad = next(a for a in alternatives(plan, 0, graph) if a.step.source == "nomad")
    assert nomad.units["bulk_modulus"] == ("Pa", "GPa")
    assert "converted" in nomad.reason
    value = Value(field="bulk_modulus", value=4.4e11, unit="Pa", source="nomad", endpoint="entries_query",
                  source_type="calculated", license="CC-BY-4.0")
    result = StepResult(index=0, source="nomad", endpoint="entries_query",
                        records=[Record(source="nomad", endpoint="entries_query", values={"bulk_modulus": value})])
    _convert_units(result, nomad)
    shown = result.records[0].values["bulk_modulus"]
    assert shown.value == pytest.approx(440.0) and shown.unit == "GPa"
    assert shown.note == "converted from 4.4e+11 Pa"


def test_which_failures_fall_back() -> None:
    assert fallback_worthy(E.MissingCredentials("materials_project", "MP_API_KEY"))
    assert fallback_worthy(E.HttpStatusError("HTTP 503", 503))
    assert fallback_worthy(E.HttpStatusError("HTTP 401", 401))
    assert fallback_worthy(E.NetworkError("refused")) and fallback_worthy(TimeoutError())
    assert not fallback_worthy(E.HttpStatusError("HTTP 400: bad filter", 400))
    assert not fallback_worthy(E.NoRecords("nothing"))
    assert not fallback_worthy(E.InvalidStep("unknown field"))
    assert not fallback_worthy(ValueError("adapter bug"))


@pytest.mark.parametrize(("planned", "offered", "ok"), [
    ("eV", "eV", True), ("GPa", "kbar", True), ("GPa", "Pa", True), ("K", "degC", True),
    ("Angstrom^3", "nm^3", True), ("eV", "eV/atom", False), ("eV/atom", "meV/atom", True),
    ("g/mol", "GPa", False), ("KRW", "KRW", True), ("KRW", "USD", False), ("eV", None, False), (None, None, True),
])
def test_unit_compatibility(planned: str | None, offered: str | None, ok: bool) -> None:
    assert compatible(planned, offered) is ok


def test_conversions() -> None:
    assert convert(10, "kbar", "GPa") == pytest.approx(1.0)
    assert convert(25, "degC", "K") == pytest.approx(298.15)
    assert convert(1500, "meV/atom", "eV/atom") == pytest.approx(1.5)
