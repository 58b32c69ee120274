"""Downstream and aggregation metrics of the benchmark, on small examples worked out by hand."""

from __future__ import annotations

import math

import pytest
from schemarouter_bench import aggregate as agg
from schemarouter_bench.dataset import GoldStep, Query
from schemarouter_bench.downstream import evaluate
from schemarouter_bench.fixtures import fixture_value, gold_entity, present
from schemarouter_bench.frozen import inventory_declarations
from schemarouter_bench.runner import summarize_rows

from schemarouter.declarations import Declarations, Owner
from schemarouter.graph import build_graph
from schemarouter.plan import FieldMeta, Plan, PlanStep
from schemarouter.tokens import count_tokens
from tests.factories import source


@pytest.fixture(scope="module")
def graph():  # type: ignore[no-untyped-def]
    vocab = inventory_declarations()
    lab = source()
    decls = Declarations(
        intents=vocab.intents,
        field_groups=vocab.field_groups,
        concepts=vocab.concepts,
        sources={lab.id: lab},
        owners={lab.id: Owner("plugin", "test", "1")},
    )
    return build_graph(decls, "sha256:test")


GOLD = GoldStep(source="lab_store", endpoint="samples", params={"formula": "GaN"}, fields=["gap"])
QUERY = Query(id="q1", category="single_tool", query="optical gap of GaN in the lab store?", gold=[GOLD])
NEGATIVE = Query(id="q2", category="negative", query="weather tomorrow?", gold=[])


def _plan(formula: str, fields: list[str], meta: bool = False) -> Plan:
    step = PlanStep(
        source="lab_store",
        endpoint="samples",
        params={"formula": formula},
        fields=fields,
        meta={"gap": FieldMeta(unit="eV", source_type="experimental", license="LicenseRef-internal")}
        if meta
        else {},
    )
    return Plan(query=QUERY.query, registry_fingerprint="sha256:test", steps=[step])


def test_fixture_values_are_deterministic_and_entity_specific() -> None:
    a = fixture_value("lab_store", "gold:GaN", "gap", "number")
    assert a == fixture_value("lab_store", "gold:GaN", "gap", "number")
    assert a != fixture_value("lab_store", "gold:ZnO", "gap", "number")
    assert isinstance(fixture_value("s", "e", "n", "integer"), int)
    assert isinstance(fixture_value("s", "e", "b", "boolean"), bool)


def test_answerable_needs_the_gold_field_of_the_gold_entity(graph) -> None:  # type: ignore[no-untyped-def]
    gold_value = fixture_value("lab_store", gold_entity(GOLD), "gap", "number")
    right = evaluate(_plan("GaN", ["sample_id", "gap"], meta=True), QUERY, graph)
    assert right.answerable
    assert f"gap={gold_value:.6g} eV" in right.context  # unit shown because the plan carries it
    # Formulas compare by composition: NGa is the same entity, so the same record.
    assert evaluate(_plan("NGa", ["sample_id", "gap"]), QUERY, graph).answerable
    # Another entity's record has another value; a plan without the gold field has none.
    assert not evaluate(_plan("ZnO", ["sample_id", "gap"]), QUERY, graph).answerable
    assert not evaluate(_plan("GaN", ["sample_id"]), QUERY, graph).answerable


def test_units_shown_only_when_the_plan_carries_them(graph) -> None:  # type: ignore[no-untyped-def]
    unit_query = QUERY.model_copy(update={"units": {"gap": "eV"}})
    assert evaluate(_plan("GaN", ["sample_id", "gap"], meta=True), unit_query, graph).units_shown is True
    assert evaluate(_plan("GaN", ["sample_id", "gap"]), unit_query, graph).units_shown is False  # no metadata
    assert evaluate(_plan("GaN", ["sample_id", "gap"], meta=True), QUERY, graph).units_shown is None


def test_a_value_counts_only_as_itself_not_inside_a_longer_token() -> None:
    assert present("mp x: gap=234.56 eV", "gap", 234.56)
    assert present("pubchem 123456 Caffeine: MolecularWeight=194.19", "cid", 123456)  # id in the head
    assert not present("mp x: gap=1234.56 eV", "gap", 234.56)
    assert not present("mp x: gap=234.567 eV", "gap", 234.56)
    assert not present("mp x: is_metal=False, ordering=True", "is_stable", True)  # booleans need their name
    assert present('x: tags=["a-1","b-2"]', "tags", ["a-1", "b-2"])
    assert not present("x: a-1", "tags", ["a-1", "b-2"])


def test_tokens_are_counted_on_the_rendered_context(graph) -> None:  # type: ignore[no-untyped-def]
    d = evaluate(_plan("GaN", ["sample_id", "gap"]), QUERY, graph)
    assert d.tokens == count_tokens(d.context) > 0
    assert d.estimated_tokens == math.ceil(len(d.context) / 4)
    assert d.chars == len(d.context)


def test_negative_is_answerable_only_when_declined(graph) -> None:  # type: ignore[no-untyped-def]
    declined = Plan(query=NEGATIVE.query, registry_fingerprint=None, declined="no source")
    assert evaluate(declined, NEGATIVE, graph).answerable
    assert evaluate(declined, NEGATIVE, graph).tokens == 0
    fetched = _plan("GaN", ["sample_id", "gap"])
    assert not evaluate(fetched, NEGATIVE, graph).answerable


def test_percentiles_interpolate_between_ranks() -> None:
    values = [4.0, 1.0, 3.0, 2.0]
    assert agg.percentile(values, 50) == pytest.approx(2.5)  # halfway between 2 and 3
    assert agg.percentile(values, 95) == pytest.approx(3.85)  # rank 2.85 -> 3 + 0.85 * (4 - 3)
    assert agg.percentile(values, 0) == 1.0 and agg.percentile(values, 100) == 4.0


def test_bootstrap_is_deterministic_and_brackets_the_estimate() -> None:
    flags = [True] * 7 + [False] * 3
    lo, hi = agg.bootstrap_ci(flags, agg.rate)
    assert (lo, hi) == agg.bootstrap_ci(flags, agg.rate)
    assert lo < agg.rate(flags) == 0.7 < hi
    assert lo >= 0.0 and hi <= 1.0
    assert agg.bootstrap_ci([True] * 5, agg.rate) == (1.0, 1.0)  # no spread, no interval


def _row(
    cat: str, answerable: bool, tokens: int, latency: float, recall: float, negative: bool = False
) -> dict:
    return {
        "category": cat,
        "negative": negative,
        "answerable": answerable,
        "context_tokens": tokens,
        "context_tokens_est": tokens + 1,
        "latency_ms": latency,
        "prompt_tokens": 0,
        "tool_exact": answerable,
        "field_recall": recall,
    }


def test_summary_means_rates_and_latency_percentiles() -> None:
    rows = [
        _row("a", True, 100, 1.0, 1.0),
        _row("a", False, 50, 3.0, 0.5),
        _row("neg", True, 0, 2.0, 1.0, True),
    ]
    s = summarize_rows(rows, [], with_ci=True)
    assert s["answerable"] == pytest.approx(2 / 3)
    assert s["context_tokens"] == pytest.approx(50.0)  # (100 + 50 + 0) / 3
    assert s["context_tokens_est"] == pytest.approx(51.0)
    assert s["latency_p50_ms"] == pytest.approx(2.0)
    assert s["latency_p95_ms"] == pytest.approx(2.9)  # rank 1.9 -> 2 + 0.9 * (3 - 2)
    lo, hi = s["ci"]["field_recall"]  # positives only: recall 1.0 and 0.5
    assert 0.5 <= lo <= 0.75 <= hi <= 1.0
