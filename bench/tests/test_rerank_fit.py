"""The re-ranker's fit and its guarantee: on every open-world suite's test split, the router's plan
is at least as often exact as BM25's top-1 endpoint over the same registry."""

from __future__ import annotations

import numpy as np
import pytest
from schemarouter_bench.devset import beside_root, heldout_root, load_dev_questions, load_tmdb_queries
from schemarouter_bench.fit_rerank import Row, accuracy, fit, fit_threshold, polish
from schemarouter_bench.frozen import load_frozen
from schemarouter_bench.opensuite import open_routers, run_dev_suite, run_tmdb_suite
from schemarouter_bench.openworld import OpenWorld, build_open_world

from schemarouter.router.rerank import FEATURES


def _row(gold_at: int, n: int = 4, answerable: bool = True, planned: bool = True) -> Row:
    """Candidates whose first feature is highest exactly at the gold one; the others are noise."""
    rng = np.random.default_rng(gold_at * 7 + n)
    # drawn column by column: a feature's noise does not move when a feature is added after it
    x = np.column_stack([rng.uniform(0.0, 0.5, size=n) for _ in FEATURES])
    x[:, 0] = 0.1
    x[gold_at, 0] = 1.0
    gold = np.zeros(n, dtype=bool)
    gold[gold_at] = answerable
    return Row("synthetic", answerable, x, gold, [True] * n, [False] * n, planned)


def test_the_fit_finds_the_feature_that_marks_the_gold() -> None:
    rows = [_row(i % 4) for i in range(40)]
    w = fit(rows)
    assert int(np.argmax(w)) == 0
    assert accuracy(rows, w) == {"synthetic": 1.0}


def test_the_threshold_keeps_declining_what_should_be_declined() -> None:
    w = np.zeros(len(FEATURES))
    w[0] = 3.0
    weak = [_row(0, planned=False, answerable=False) for _ in range(5)]
    for r in weak:
        r.features[:, 0] = 0.05  # nothing stands out: a question no source answers
    strong = [_row(1, planned=False) for _ in range(5)]
    cut = fit_threshold(weak + strong, w)
    assert 1 / (1 + np.exp(-3.0 * 0.05)) < cut <= 1 / (1 + np.exp(-3.0))


def test_polishing_raises_tune_accuracy_and_lowers_no_suite() -> None:
    # the gold is marked by the first feature; a weight on the second (noise) hides it in some rows
    rows = [_row(i % 4) for i in range(40)]
    others = [_row(i % 4) for i in range(20)]
    for r in others:
        r.suite = "other"
    start = np.zeros(len(FEATURES))
    start[0], start[1] = 0.1, 1.0
    before = accuracy(rows + others, start)
    after = polish(rows + others, start)
    polished = accuracy(rows + others, after)
    assert sum(polished.values()) > sum(before.values())
    assert all(polished[s] >= before[s] for s in before)
    assert np.array_equal(polish(rows, after, frozenset(FEATURES)), after), "frozen features stay"


@pytest.fixture(scope="module")
def world() -> OpenWorld:
    return build_open_world(load_frozen())


def _exact(result: dict, name: str, key: str) -> float:
    row = next(r for r in result["routers"] if r["name"] == name)
    return float(row["summary"][key])


@pytest.mark.parametrize("root", [None, "heldout", "beside"])
def test_never_below_bm25_top1_on_the_test_split(world: OpenWorld, root: str | None) -> None:
    folder = {"heldout": heldout_root(), "beside": beside_root()}.get(root or "")
    questions = [q for q in load_dev_questions(folder) if q.part == "test"]
    routers = [r for r in open_routers(world) if r.name in ("schemarouter (recall)", "BM25 top-1 endpoint")]
    result = run_dev_suite(world, questions, routers)
    assert _exact(result, "schemarouter (recall)", "endpoint_set_exact") >= _exact(
        result, "BM25 top-1 endpoint", "endpoint_set_exact")


def test_never_below_bm25_top1_on_restbench_test_split(world: OpenWorld) -> None:
    queries = [q for q in load_tmdb_queries() if q.part == "test"]
    routers = [r for r in open_routers(world) if r.name in ("schemarouter (recall)", "BM25 top-1 endpoint")]
    result = run_tmdb_suite(world, queries, routers)
    for key in ("endpoints_found", "chain_exact"):
        assert _exact(result, "schemarouter (recall)", key) >= _exact(result, "BM25 top-1 endpoint", key)
