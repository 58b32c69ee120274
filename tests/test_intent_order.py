"""``reached_in``: the reached endpoints of each intent group, found in one pass over a question's scores.

The router buckets a group's reached endpoints by score in position order; finding them through the
index of where each endpoint sits must give exactly the positions a scan of each group gives.
"""

from __future__ import annotations

import random

from schemarouter_bench.synth import synthesize

from schemarouter.declarations import collect
from schemarouter.graph import build_graph
from schemarouter.graph.order import group_places, reached_in
from schemarouter.plugins import make_plugin_manager


def _scan(keys: list[tuple[str, str]], scored: set[tuple[str, str]]) -> list[int]:
    return [p for p, key in enumerate(keys) if key in scored]


def test_reached_positions_equal_a_scan_of_each_group() -> None:
    # the bench's synthetic inventory: copies of the real sources, so groups hold many endpoints
    graph = build_graph(synthesize(collect(make_plugin_manager()), 120), None)
    rng = random.Random(7)
    every = list(graph.endpoints)
    assert any(len(g.keys) > 1 for groups in graph.intent_order.values() for g in groups)
    for intent, groups in graph.intent_order.items():
        places = graph.intent_places[intent]  # what the router reads, worked out with the graph
        assert places == group_places(groups)
        members = {key for g in groups for key in g.keys}
        for size in (0, 1, len(members) // 2, len(members), len(every)):
            scored = set(rng.sample(every, min(size, len(every))))
            assert reached_in(groups, places, scored) == [_scan(g.keys, scored) for g in groups]
        # a dict of scores (what the router passes) of endpoints in none of the groups
        others = {k: 1.0 for k in every if k not in members}
        assert reached_in(groups, places, others) == [[] for _ in groups]
