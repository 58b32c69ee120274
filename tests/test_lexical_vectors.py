"""BM25F scoring summed as numpy vectors where postings are long gives exactly what the entry-by-entry
sums give: the same floats, the same top endpoints, ties in the same order."""

from __future__ import annotations

import random

import pytest
from schemarouter_bench.synth import synthesize

from schemarouter.declarations import collect
from schemarouter.graph import SchemaGraph, build_graph
from schemarouter.graph import lexical as lexical_module
from schemarouter.graph.lexical import NumberSet, VectorScores, best_scored
from schemarouter.plugins import make_plugin_manager


@pytest.fixture(scope="module")
def big() -> SchemaGraph:
    return build_graph(synthesize(collect(make_plugin_manager()), 300), None)


def _questions(graph: SchemaGraph, n: int = 60) -> list[list[str]]:
    rng = random.Random(3)
    terms = sorted(graph.lexical.postings)
    common = sorted(terms, key=lambda t: -len(graph.lexical.postings[t][0]))[:30]
    return [rng.sample(common, 2) + rng.sample(terms, rng.randint(0, 6)) + ["zzunknown"] for _ in range(n)]


def test_vector_scores_equal_the_entry_by_entry_scores(big: SchemaGraph, monkeypatch: pytest.MonkeyPatch) -> None:
    lex = big.lexical
    reads = NumberSet(big.numbers[k] for k, i in big.endpoints.items() if i.endpoint.access == "read")
    some = set(random.Random(5).sample(range(len(lex.keys)), 200))
    for terms in _questions(big):
        monkeypatch.setattr(lexical_module, "VECTOR_MIN", 10**12)
        plain = lex.score(terms)
        monkeypatch.setattr(lexical_module, "VECTOR_MIN", 0)
        vector = lex.score(terms)
        assert isinstance(vector, VectorScores) and isinstance(plain, dict)
        assert dict(vector.items()) == plain  # exact floats, same endpoints
        assert len(vector) == len(plain) and all(vector.get(n) == v for n, v in plain.items())
        assert vector.get(-1, 0.0) == 0.0 and (10**9 in vector) is False
        for keep in (None, reads, some):
            for k in (1, 10, 500):
                assert best_scored(vector, k, keep) == best_scored(plain, k, keep)


def test_ties_at_the_cut_keep_the_lowest_numbers() -> None:
    import numpy as np

    scores = VectorScores(np.array([0.0, 2.0, 1.0, 2.0, 1.0, 1.0, 0.0, 3.0]))
    assert scores.best(3, None) == [(7, 3.0), (1, 2.0), (3, 2.0)]
    assert scores.best(4, None) == [(7, 3.0), (1, 2.0), (3, 2.0), (2, 1.0)]
    assert scores.best(3, NumberSet({2, 4, 5, 6})) == [(2, 1.0), (4, 1.0), (5, 1.0)]
    assert scores.best(0, None) == [] and scores.best(9, {0, 6}) == []
