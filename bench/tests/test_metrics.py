"""Planning metrics on a hand-worked example (expected values derived in the comments)."""

from __future__ import annotations

import pytest
from schemarouter_bench.metrics import score_plans, values_match

from schemarouter.graph import SchemaGraph
from schemarouter.plan import FieldMeta, Plan, PlanStep
from tests.routing_support import graph, routing_db  # noqa: F401


def step(graph: SchemaGraph, source: str, endpoint: str, params: dict, fields: list[str]) -> PlanStep:
    info = graph.endpoints[(source, endpoint)]
    meta = {
        f: FieldMeta(unit=info.fields[f].field.unit, source_type=info.fields[f].source_type,
                     license=info.fields[f].license, attribution=info.fields[f].attribution)
        for f in fields
    }
    return PlanStep(source=source, endpoint=endpoint, params=params, fields=fields, meta=meta)


ROWS = [
    {"id": "a", "gold": [{"source": "materials_project", "endpoint": "summary", "params": {"formula": "Fe2O3"},
                          "fields": ["band_gap"]}],
     "alternatives": [[{"source": "oqmd", "endpoint": "formationenergy", "params": {"composition": "Fe2O3"},
                        "fields": ["band_gap"]}]]},
    {"id": "b", "gold": [{"source": "cod", "endpoint": "search", "params": {"formula": "C Ca O3"}, "fields": ["vol"]},
                         {"source": "materials_project", "endpoint": "summary", "params": {"formula": "CaCO3"},
                          "fields": ["volume"]}],
     "alternatives": []},
    {"id": "c", "gold": [], "alternatives": []},
]


def test_hand_worked_example(graph: SchemaGraph) -> None:
    fp = graph.fingerprint
    plans = [
        # a: matches the OQMD alternative; entry_id is an identifier (not scored); delta_e is over-fetch
        Plan(id="a", query="q", registry_fingerprint=fp,
             steps=[step(graph, "oqmd", "formationenergy", {"composition": "O3Fe2"}, ["entry_id", "band_gap", "delta_e"])]),
        # b: one of two gold sources; COD's formula parameter is missing
        Plan(id="b", query="q", registry_fingerprint=fp,
             steps=[step(graph, "materials_project", "summary", {"formula": "CaCO3"}, ["material_id", "volume", "density"])]),
        Plan(id="c", query="q", registry_fingerprint=fp, declined="no source"),
    ]
    r = score_plans(plans, ROWS, graph)
    # tool-exact: a (alternative) yes, b no, c (declined negative) yes -> 2/3
    assert r["tool_exact"] == pytest.approx(2 / 3)
    # tool P over positives: a 1/1, b 1/1 -> 1; tool R: a 1, b 1/2 -> 0.75
    assert r["tool_precision"] == pytest.approx(1.0) and r["tool_recall"] == pytest.approx(0.75)
    # fields (no identifiers): a got {band_gap, delta_e} want {band_gap}: P 1/2 R 1;
    # b got {volume, density} want {cod.vol, mp.volume}: P 1/2 R 1/2
    assert r["field_precision"] == pytest.approx(0.5) and r["field_recall"] == pytest.approx(0.75)
    assert r["field_f1"] == pytest.approx(((2 * 0.5 * 1 / 1.5) + 0.5) / 2)
    # params: a composition O3Fe2 == Fe2O3 (1/1); b cod.formula missing, mp.formula ok (1/2) -> 2/3
    assert r["param_accuracy"] == pytest.approx(2 / 3)
    assert r["param_validity"] == 1.0 and r["executable"] == 1.0 and r["metadata_completeness"] == 1.0
    # over-fetch: a 1/2, b 1/2
    assert r["over_fetch"] == pytest.approx(0.5)
    assert (r["negatives_declined"], r["negatives"]) == (1, 1)


def test_invalid_plans_and_missing_metadata_count(graph: SchemaGraph) -> None:
    bad = step(graph, "materials_project", "summary", {"formula": "CaCO3", "bogus": 1}, ["material_id", "volume"])
    bad.meta["volume"] = FieldMeta(unit=None, source_type="calculated", license="CC-BY-4.0")  # unit dropped
    plans = [Plan(id="b", query="q", registry_fingerprint=graph.fingerprint, steps=[bad]),
             Plan(id="c", query="q", registry_fingerprint=graph.fingerprint,
                  steps=[step(graph, "materials_project", "summary", {"formula": "Si"}, ["band_gap"])])]
    r = score_plans(plans, ROWS[1:], graph)
    assert r["param_validity"] == 0.5  # b has an undeclared parameter
    assert r["executable"] == 0.5  # b invalid; c is executable (declining is scored as negatives_declined)
    assert r["metadata_completeness"] == pytest.approx(2 / 3)  # volume's unit missing of 3 selected fields
    assert r["negatives_declined"] == 0


@pytest.mark.parametrize(
    ("gold", "got", "same"),
    [
        (None, "anything", True), (None, "", False), (None, None, False),
        ("Fe2O3", "O3Fe2", True), ("C Ca O3", "CaCO3", True), ("Cl Na", "NaCl", True), ("AsGa", "GaAs", True),
        ("Zn,O", "O,Zn", True), ("Al,N", "Al,O", False), ("W", "W", True),
        ("Haber_process", "haber  process", True), ("LG Chem", "lg chem", True), ("aspirin", "ibuprofen", False),
        (2244, "2244", True), (2, 2.0, True), ("2019-", "2019", False),
    ],
)
def test_value_normalization(gold, got, same: bool) -> None:
    assert values_match(gold, got) is same
