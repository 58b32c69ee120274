"""The shipped MetaTool suite: every tool's document imports with the one minimal overlay, and every
gold names the operation as the importer names it (its license: test_bench_toolbench_data)."""

from __future__ import annotations

import json

from schemarouter_bench.devset import load_tooluse_questions, metatool_root, split_of
from schemarouter_bench.frozen import load_frozen
from schemarouter_bench.openworld import SpecIndex, build_tooluse_world

ROOT = metatool_root()


def test_every_tool_imports_and_every_gold_names_its_one_operation() -> None:
    world = build_tooluse_world(load_frozen(), ROOT)
    questions = load_tooluse_questions(ROOT)
    assert not world.refused and len(world.imported) == 199
    assert len(questions) == 597 and all(q.answerable for q in questions)
    assert {split_of(q.id) for q in questions} == {"tune", "test"}
    per_tool: dict[str, int] = {}
    for q in questions:
        (option,) = q.gold_sets
        (step,) = option
        doc = json.loads((ROOT / "docs" / f"{step.source}.json").read_text(encoding="utf-8"))
        assert step.call in SpecIndex(doc), q.id
        assert world.calls[(step.source, step.endpoint)] == step.call, q.id
        per_tool[step.source] = per_tool.get(step.source, 0) + 1
    assert set(per_tool.values()) == {3}  # three questions for every tool


def test_the_pool_for_tuning_is_other_queries_of_the_same_tools_all_in_the_tune_split() -> None:
    from schemarouter_bench.devset import load_metatool_more

    suite = {q.query.casefold() for q in load_tooluse_questions(ROOT)}
    more = load_metatool_more()
    assert len(more) == 995 and all(q.part == "tune" and q.answerable for q in more)
    assert not any(q.query.casefold() in suite for q in more), "a query of the suite itself"
    assert len({q.id for q in more}) == len(more)
    tools = {p.stem for p in (ROOT / "docs").glob("*.json")}
    per_tool: dict[str, int] = {}
    for q in more:
        (step,) = q.gold
        assert step.source in tools, q.id
        per_tool[step.source] = per_tool.get(step.source, 0) + 1
    assert set(per_tool.values()) == {5} and len(per_tool) == 199


def test_the_router_is_right_at_least_as_often_as_bm25_top_1_on_the_tune_split_and_the_pool() -> None:
    # the floor on a registry of one-sentence tools; the test split is not held to it here: it falls
    # one question short (docs/benchmark.md), and no rule may be chosen by reading it
    from schemarouter_bench.devset import load_metatool_more
    from schemarouter_bench.splits import BM25, SCHEMAROUTER, _dev_suite

    world = build_tooluse_world(load_frozen(), ROOT)
    tune = [q for q in load_tooluse_questions(ROOT) if q.part == "tune"]
    for questions in (tune, load_metatool_more()):
        routers = _dev_suite(world, questions)["tune"]
        ours, bm25 = routers[SCHEMAROUTER], routers[BM25]
        assert ours["endpoint_set_exact"] >= bm25["endpoint_set_exact"]
        assert ours["answerable_declined"] <= 0.05
