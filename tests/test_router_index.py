"""Index-narrowed routing decides exactly what scoring every endpoint would.

The router scores only endpoints the question's words reach and merges the rest from the graph's
presorted per-intent groups. These tests compare that against the full scan (``Router.candidates``,
``match_endpoint``) on a synthetic inventory, where renamed copies give many ties and near-ties.
"""

from __future__ import annotations

import json

import pytest

from schemarouter.bench import data_path
from schemarouter.bench.synth import synthesize
from schemarouter.graph import SchemaGraph, build_graph
from schemarouter.router import Router
from schemarouter.router.matching import concept_hits, match_endpoint
from tests.routing_support import graph, routing_db  # noqa: F401


@pytest.fixture(scope="module")
def synth_router(graph: SchemaGraph) -> Router:  # noqa: F811
    return Router(build_graph(synthesize(graph.decls, 120), "synthetic-120"))


@pytest.fixture(scope="module")
def questions() -> list[str]:
    rows = [json.loads(line) for line in data_path("dev.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r["query"] for r in rows][::2]


def test_concept_hits_equal_a_scan_of_every_endpoint(synth_router: Router, questions: list[str]) -> None:
    g = synth_router.graph
    checked = 0
    for q in questions[:25]:
        a = synth_router.understander.understand(q, g)
        for concept in a.understanding.concepts:
            said = a.matched.get(concept, concept)
            hits = concept_hits(g, concept, said)
            for key, info in g.endpoints.items():
                m = match_endpoint(info, [concept], {concept: said})
                if m.fields:
                    assert hits.get(key) == m.score, (concept, key)
                    checked += 1
                else:
                    assert key not in hits, (concept, key)
    assert checked > 100


def test_ranked_pool_is_the_full_ranking_restricted_to_the_intent(synth_router: Router, questions: list[str]) -> None:
    for q in questions:
        a = synth_router.understander.understand(q, synth_router.graph)
        if a.decline:
            continue
        intent = a.understanding.intent
        full = [(c.info.label, c.key, c.match) for c in synth_router.candidates(a) if intent in c.info.endpoint.intents]
        pool, named = synth_router._ranking(a)
        assert [(c.info.label, c.key, c.match) for c in pool] == full, q
        for source in a.understanding.named_tools:
            expect = [(c.info.label, c.key, c.match) for c in synth_router.candidates(a) if c.source == source]
            assert [(c.info.label, c.key, c.match) for c in named(source)] == expect
