"""``IntentGroup.reached``: the reached endpoints of a group, found from whichever side is smaller.

The router buckets a group's reached endpoints by score in position order; walking the question's
scored keys instead of the whole group must give exactly the positions a scan of the group gives.
"""

from __future__ import annotations

import random

from schemarouter_bench.synth import synthesize

from schemarouter.declarations import collect
from schemarouter.graph import build_graph
from schemarouter.plugins import make_plugin_manager


def _scan(keys: list[tuple[str, str]], scored: set[tuple[str, str]]) -> list[int]:
    return [p for p, key in enumerate(keys) if key in scored]


def test_reached_positions_equal_a_scan_of_the_group() -> None:
    # the bench's synthetic inventory: copies of the real sources, so groups hold many endpoints
    graph = build_graph(synthesize(collect(make_plugin_manager()), 120), None)
    rng = random.Random(7)
    every = list(graph.endpoints)
    groups = [g for groups in graph.intent_order.values() for g in groups]
    assert groups and any(len(g.keys) > 1 for g in groups)
    for group in groups:
        assert group.positions == {key: p for p, key in enumerate(group.keys)}
        for size in (0, 1, len(group.keys) // 2, len(group.keys), len(every)):
            scored = set(rng.sample(every, min(size, len(every)))) | set(rng.sample(group.keys, min(size, len(group.keys))))
            assert group.reached(scored) == _scan(group.keys, scored)
            # a dict of scores (what the router passes) and keys of other groups only
            others = {k: 1.0 for k in every if k not in group.positions}
            assert group.reached(others) == []
