"""Graphs rebuilt in one process never share routing state (match caches, candidate indexes).

A long-running process rebuilds its graph after a registry change; the benchmark builds graphs of
several sizes one after another. A cache keyed by object identity (``id()``) can then hand a new
graph's endpoint the fields of a freed one, so each round here renames a field and checks that the
plan only names fields the current graph has.
"""

from __future__ import annotations

import gc
from dataclasses import replace

from schemarouter.declarations import Declarations
from schemarouter.graph import SchemaGraph, build_graph
from schemarouter.router import Router
from tests.routing_support import graph, routing_db  # noqa: F401

QUESTION = "AFLOW band gap of AlN"


def _renamed(decls: Declarations, new_name: str) -> Declarations:
    """``decls`` with aflow's ``Egap`` field called ``new_name`` (its alias "band gap" kept)."""
    src = decls.sources["aflow"]
    endpoints = []
    for ep in src.endpoints:
        fields = [f.model_copy(update={"name": new_name}) if f.name == "Egap" else f for f in ep.fields]
        endpoints.append(ep.model_copy(update={"fields": fields}))
    sources = {**decls.sources, "aflow": src.model_copy(update={"endpoints": endpoints})}
    return Declarations(
        sources=sources, intents=decls.intents, field_groups=decls.field_groups, concepts=decls.concepts,
        owners=decls.owners,
    )


def test_rebuilt_graphs_do_not_share_match_results(graph: SchemaGraph) -> None:
    for round_ in range(6):
        name = f"Egap_v{round_}"
        g = build_graph(_renamed(graph.decls, name), f"fp-{round_}")
        plan = Router(g).plan(QUESTION)
        (step,) = plan.steps
        own = g.endpoints[(step.source, step.endpoint)].fields
        assert set(step.fields) <= set(own), set(step.fields) - set(own)
        assert name in step.fields  # the renamed field answers "band gap" in this graph
        del g, plan, step, own
        gc.collect()


def test_two_live_graphs_answer_from_their_own_fields(graph: SchemaGraph) -> None:
    first, second = (build_graph(_renamed(graph.decls, n), n) for n in ("Egap_first", "Egap_second"))
    for g, name, other in ((first, "Egap_first", "Egap_second"), (second, "Egap_second", "Egap_first")):
        step = Router(g).plan(QUESTION).steps[0]
        assert name in step.fields and other not in step.fields


def test_a_rebuilt_graph_matches_its_endpoints_afresh(graph: SchemaGraph) -> None:
    from schemarouter.graph import EndpointInfo, FieldInfo
    from schemarouter.memos import Memos
    from schemarouter.router.matching import match_endpoint

    aflow = graph.endpoints[("aflow", "aflux")]
    for round_ in range(20):
        # the same endpoint key with a different field answering "band gap" each round, in a graph of
        # its own (a rebuild); CPython tends to put each new object where the previous, freed one was
        renamed = {n: f for n, f in aflow.fields.items() if n != "Egap"}
        gap = aflow.fields["Egap"]
        renamed[f"gap_{round_}"] = FieldInfo(gap.source, gap.endpoint, gap.field.model_copy(update={"name": f"gap_{round_}"}),
                                             gap.words, gap.source_type, gap.license, gap.attribution,
                                             gap.alias_words, gap.raw_words)
        info = EndpointInfo(aflow.source, aflow.endpoint, renamed, aflow.groups)
        rebuilt = replace(graph, memos=Memos())
        found = match_endpoint(rebuilt, info, ["band_gap"], {"band_gap": "band gap"})
        assert set(found.fields) <= set(renamed), set(found.fields) - set(renamed)
        del info, found, rebuilt
