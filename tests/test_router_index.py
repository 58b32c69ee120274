"""Index-narrowed routing decides exactly what scoring every endpoint would.

The router scores only endpoints the question's words reach and merges the rest from the graph's
presorted per-intent groups. These tests compare that against the full scan (``Router.candidates``,
``match_endpoint``) on a synthetic inventory, where renamed copies give many ties and near-ties.
"""

from __future__ import annotations

import json

import pytest
from schemarouter_bench import data_path
from schemarouter_bench.synth import synthesize

from schemarouter.graph import SchemaGraph, build_graph
from schemarouter.router import Router
from schemarouter.router.matching import concept_hits, match_endpoint
from tests.routing_support import graph, routing_db  # noqa: F401


@pytest.fixture(scope="module")
def synth_router(graph: SchemaGraph) -> Router:
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
                m = match_endpoint(g, info, [concept], {concept: said})
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
        assert [(c.info.label, c.key, c.match) for c in pool()] == full, q
        for source in a.understanding.named_tools:
            expect = [(c.info.label, c.key, c.match) for c in synth_router.candidates(a) if c.source == source]
            assert [(c.info.label, c.key, c.match) for c in named(source)] == expect


def test_build_time_counts_give_the_shares_a_walk_over_the_fields_gives(synth_router: Router) -> None:
    from collections import defaultdict

    from schemarouter.understand.evidence import _concept_intents
    from schemarouter.understand.rules import _answered_by_chemistry

    g = synth_router.graph
    targets = [*list(g.concept_fields)[:400], *list(g.index.fields_by_name)[:400], "no_such_thing"]
    for target in targets:
        fields = list(g.concept_fields.get(target, ()))
        fields += [f for f in g.iter_fields() if f.name == target and f not in fields]
        walked: dict[str, float] = defaultdict(float)
        for f in fields:
            for intent in g.endpoints[(f.source, f.endpoint)].endpoint.intents:
                if f.field.group in g.intent_groups(intent):
                    walked[intent] += 1.0 / len(fields)
        assert list(_concept_intents(g, target).items()) == list(walked.items()), target
        chem = any(g.sources[f.source].domain == "chemistry" for f in (g.concept_fields.get(target) or
                                                                        [f for f in g.iter_fields() if f.name == target]))
        assert _answered_by_chemistry(g, target) == chem, target


@pytest.mark.parametrize(
    ("concept", "said"),
    [("Egap", "Egap"), ("band_gap", "band gap"), ("Egap", "band gap"), ("enthalpy", "enthalpy"),
     ("formation_energy", "formation enthalpy"), ("title", "title"), ("id", "PMID"), ("melting_point", "mp")],
)
def test_concept_hits_score_every_rule_like_the_scan(synth_router: Router, concept: str, said: str) -> None:
    """Exact name, concept, alias and part-of-name matches: the indexed path gives each endpoint the best
    score the field-by-field scan gives, and lists no endpoint the scan finds nothing in."""
    g = synth_router.graph
    hits = concept_hits(g, concept, said)
    scanned = {key: m.score for key, info in g.endpoints.items() if (m := match_endpoint(g, info, [concept], {concept: said})).fields}
    assert hits == scanned
