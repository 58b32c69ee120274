"""Fetch-all: every endpoint of every source, every field (the paper's upper bound on recall and cost)."""

from __future__ import annotations

from schemarouter.graph import SchemaGraph
from schemarouter.plan import Plan
from schemarouter_bench.routers.base import EntityParams, make_step, new_plan


class FetchAllRouter:
    """Baseline: every endpoint with every field, the upper bound on recall and context size."""

    name = "fetch-all"
    kind = "baseline"

    def __init__(self, graph: SchemaGraph, entities: EntityParams | None = None) -> None:
        self.graph = graph
        self.entities = entities or EntityParams(graph)

    def plan(self, question: str) -> Plan:
        """Plan one step per endpoint, each fetching all its fields."""
        plan = new_plan(question, self.graph, "fetch-all")
        plan.steps = [
            make_step(info, list(info.fields), self.entities.params(question, info))
            for info in self.graph.endpoints.values()
        ]
        return plan

    def prompt_tokens(self, question: str) -> int:
        """Zero: the baseline sends nothing to an LLM."""
        return 0
