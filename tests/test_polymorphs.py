"""A common name that denotes one structure of a composition ("diamond", "rutile", "α-quartz") reads
as its formula and the structure meant (vocabulary data); a plan for it fetches the fields that tell
the structures of the formula apart, and its coverage says which structure to check the records
against. A bare formula fetches no such fields."""

from __future__ import annotations

import pytest

from schemarouter.api import Router
from schemarouter.default_plugins.vocabulary import Polymorph, polymorphs
from schemarouter.understand.entities import recognize
from tests.routing_support import graph, router, routing_db  # noqa: F401


@pytest.mark.parametrize(("text", "formula", "number"), [
    ("bulk modulus of diamond", "C", 227), ("band gap of rutile", "TiO2", 136),
    ("density of α-quartz", "SiO2", 154), ("density of alpha-quartz", "SiO2", 154), ("graphite", "C", 194),
])
def test_a_polymorph_name_reads_as_its_formula_and_structure(text: str, formula: str, number: int) -> None:
    entity = next(e for e in recognize(text) if e.kind == "formula")
    structure = entity.extra["polymorph"]
    assert entity.value == formula and isinstance(structure, Polymorph) and structure.space_group_number == number


def test_a_composition_name_carries_no_structure() -> None:
    assert all("polymorph" not in e.extra for e in recognize("band gap of titania and of SiC"))
    assert {p.formula for p in polymorphs().values()} >= {"C", "TiO2", "SiO2"}


def test_the_plan_fetches_what_tells_the_structures_apart(router: Router) -> None:
    plan = router.plan("Bulk modulus of diamond in GPa from the Materials Project")
    step = plan.steps[0]
    assert step.params == {"formula": "C"}
    assert {"formula_pretty", "spacegroup_symbol", "spacegroup_number"} <= set(step.fields)
    assert "Fd-3m (227)" in step.why["spacegroup_symbol"]
    item = next(i for i in plan.coverage.items if i.kind == "structure")  # type: ignore[union-attr]
    assert item.name == "diamond" and item.covered and item.value == "Fd-3m (227)"
    assert "materials_project.summary.spacegroup_symbol" in item.by

    bare = router.plan("Bulk modulus of C in GPa from the Materials Project").steps[0]
    assert bare.params == {"formula": "C"} and "spacegroup_symbol" not in bare.fields
    assert not any(i.kind == "structure" for i in router.plan("band gap of TiO2").coverage.items)  # type: ignore[union-attr]
