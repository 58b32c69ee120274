"""The coverage report: every plan says which concepts and constraints of the question it covers,
which it does not, and why."""

from __future__ import annotations

import json

from schemarouter_bench import data_path

from schemarouter.graph import SchemaGraph
from schemarouter.plan import Plan, PlanStep, Understanding
from schemarouter.router import Router
from schemarouter.router.coverage import coverage
from tests.routing_support import graph, router, routing_db  # noqa: F401


def _item(plan: Plan, kind: str, name: str):  # type: ignore[no-untyped-def]
    assert plan.coverage is not None
    return next(i for i in plan.coverage.items if i.kind == kind and i.name == name)


def test_a_plain_question_is_fully_covered(router: Router) -> None:
    plan = router.plan("What is the band gap of SiC?")
    assert plan.coverage is not None and plan.coverage.complete
    assert _item(plan, "concept", "band_gap").by == ["materials_project.summary.band_gap"]
    assert _item(plan, "param", "formula").by == ["materials_project.summary.formula"]


def test_an_unmet_provenance_constraint_says_why(router: Router) -> None:
    plan = router.plan("Experimental band gap of GaN from JARVIS")
    item = _item(plan, "source_constraint", "experimental")
    assert not item.covered and "calculated" in item.why
    assert _item(plan, "named_source", "jarvis_dft").covered
    assert "NOT covered: source_constraint experimental" in repr(plan)


def test_a_respelled_value_is_still_covered(router: Router) -> None:
    plan = router.plan("Compare the band gap of GaN across MP, JARVIS and AFLOW")
    formula = _item(plan, "param", "formula")
    assert set(formula.by) == {"materials_project.summary.formula", "jarvis_dft.structures.chemical_formula_reduced",
                               "aflow.aflux.species"}  # GaN, AsGa-style alphabetical, and an element list
    assert _item(plan, "concept", "band_gap").covered


def test_a_numeric_window_is_one_item_covered_by_a_bound_parameter(router: Router) -> None:
    plan = router.plan("Materials with band gap above 2 eV containing Si and O")
    windows = [i for i in plan.coverage.items if i.name.endswith(" range")]  # type: ignore[union-attr]
    assert len(windows) == 1 and windows[0].covered and windows[0].by == ["materials_project.summary.band_gap_min"]


def test_a_declined_plan_covers_nothing_and_says_it_declined(router: Router) -> None:
    plan = router.plan("What is the melting point of aspirin according to the Materials Project?")
    assert plan.declined and plan.coverage is not None and plan.coverage.items
    assert not plan.coverage.covered
    assert all(i.why.startswith("the plan declined") for i in plan.coverage.missing)


def test_a_named_source_that_cannot_answer_says_why(graph: SchemaGraph) -> None:
    u = Understanding(intent="material_property", concepts=["band_gap"], params={"formula": "GaN"},
                      named_tools=["materials_project", "pubchem"])
    plan = Plan(query="band gap of GaN from MP and PubChem", registry_fingerprint=None, understanding=u,
                steps=[PlanStep(source="materials_project", endpoint="summary", params={"formula": "GaN"},
                                fields=["material_id", "band_gap"])])
    report = coverage(plan, None, graph)
    pubchem = next(i for i in report.items if i.name == "pubchem")
    assert not pubchem.covered and pubchem.why == "it declares no field for band_gap"
    assert next(i for i in report.items if i.name == "materials_project").covered


def test_a_concept_no_source_declares(graph: SchemaGraph) -> None:
    u = Understanding(concepts=["band_gap", "melting_point"], params={"formula": "GaN"})
    plan = Plan(query="q", registry_fingerprint=None, understanding=u,
                steps=[PlanStep(source="materials_project", endpoint="summary", params={"formula": "GaN"},
                                fields=["material_id", "band_gap"])])
    melting = next(i for i in coverage(plan, None, graph).items if i.name == "melting_point")
    assert not melting.covered and "pubchem" in melting.why  # it says who declares it


def test_a_bound_parameter_is_covered_by_its_producer(graph: SchemaGraph) -> None:
    u = Understanding(intent="company_financials", concepts=[],
                      params={"corp_name": "Samsung SDI", "corp_code": "00126362"})
    steps = [
        PlanStep(source="dart", endpoint="company", params={"corp_name": "Samsung SDI"}, fields=["corp_code"]),
        PlanStep(source="dart", endpoint="financial_statement",
                 params={"corp_code": {"from": "s1", "field": "corp_code", "pick": "first"}}, fields=["corp_code"]),
    ]
    report = coverage(Plan(query="q", registry_fingerprint=None, understanding=u, steps=steps), None, graph)
    code = next(i for i in report.items if i.name == "corp_code")
    assert code.covered and "dart.company.corp_code -> dart.financial_statement.corp_code" in code.by


def test_plan_json_carries_the_report_and_round_trips(router: Router) -> None:
    plan = router.plan("Bulk modulus of diamond in GPa from the Materials Project")
    document = json.loads(plan.model_dump_json())
    assert {i["kind"] for i in document["coverage"]["items"]} >= {"concept", "param", "named_source"}
    assert Plan.model_validate(document) == plan


def test_every_dev_question_gets_a_report_for_each_concept(router: Router) -> None:
    for line in data_path("dev.jsonl").read_text(encoding="utf-8").splitlines():
        plan = router.plan(json.loads(line)["query"])
        assert plan.coverage is not None
        concepts = [i.name for i in plan.coverage.items if i.kind == "concept"]
        assert concepts == plan.understanding.concepts
        assert all(i.why for i in plan.coverage.items)
        if plan.declined:
            assert not plan.coverage.covered


def test_a_name_the_plan_sends_nowhere_is_reported_not_covered(graph: SchemaGraph) -> None:
    # a comparison planned as one search answers half the question: the report says which half
    from schemarouter.understand.base import Analysis
    from schemarouter.understand.entities import Entity

    question = "Which has more works, Akira Kurosawa or Spielberg, in GPa, for CEO of Hyundai Motor?"

    def name(value: str) -> Entity:
        start = question.index(value)
        return Entity("name", value, start, start + len(value), value)

    analysis = Analysis(question=question, understanding=Understanding(),
                        names=[name("Akira Kurosawa"), name("Spielberg"), name("GPa"), name("CEO of Hyundai Motor")])
    steps = [PlanStep(source="crossref", endpoint="works", params={"query": "Akira Kurosawa"}, fields=["title"]),
             PlanStep(source="dart", endpoint="company", params={"corp_name": "Hyundai Motor"}, fields=["corp_code"])]
    report = coverage(Plan(query=question, registry_fingerprint=None, steps=steps), analysis, graph)
    named = {i.value: i for i in report.items if i.kind == "param" and i.name == "name"}
    assert named["Akira Kurosawa"].covered and named["Akira Kurosawa"].by == ["crossref.works.query"]
    assert not named["Spielberg"].covered and named["Spielberg"].why == "no planned step takes it"
    assert named["CEO of Hyundai Motor"].covered, "the name the step sends is part of the one written"
    assert "GPa" not in named, "a unit a field declares is no name"
    assert not report.complete
