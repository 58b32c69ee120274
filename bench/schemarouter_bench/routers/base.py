"""What a benchmark router is, and the pieces every baseline shares.

Baselines differ from schemarouter in *which* endpoints and fields they pick. To compare
exactly that, they all take parameter values the same way schemarouter does (its offline
understand step for entities, fitted to each endpoint's declared parameters), and their plans
carry no field metadata: they do not model units, provenance or licenses.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from schemarouter.graph import EndpointInfo, SchemaGraph
from schemarouter.plan import FieldMeta, Plan, PlanStep
from schemarouter.understand.base import Analysis


class BenchRouter(Protocol):
    """A router under test: a question in, a plan out."""

    name: str
    kind: str  # "schemarouter" | "baseline" | "ablation" | "llm"

    def plan(self, question: str) -> Plan:
        """The router's plan for ``question``."""

    def prompt_tokens(self, question: str) -> int:
        """Tokens this router sends to an LLM to route ``question`` (0 without an LLM)."""
        ...


@dataclass
class Skipped:
    """A router that cannot run here, and why (shown in the report instead of numbers)."""

    name: str
    reason: str
    kind: str = "baseline"


class EntityParams:
    """Parameter values per endpoint from schemarouter's offline understand step (shared by baselines)."""

    def __init__(self, graph: SchemaGraph) -> None:
        from schemarouter.understand.rules import RulesUnderstander

        self.graph = graph
        self._understander = RulesUnderstander()
        self._analyze = lru_cache(maxsize=4096)(self._analysis)

    def _analysis(self, question: str) -> Analysis:
        return self._understander.understand(question, self.graph)

    def warm(self, questions: list[str]) -> None:
        """Analyse ``questions`` ahead of timing: entity extraction is schemarouter's understand step
        (timed in schemarouter's own rows), not part of a baseline's routing latency."""
        for q in questions:
            self._analyze(q)

    def analysis(self, question: str) -> Analysis:
        """The understand step's analysis of ``question`` (cached)."""
        return self._analyze(question)

    def params(self, question: str, info: EndpointInfo) -> dict[str, Any]:
        """Parameter values for one endpoint from the question's entities; empty when they do not fit."""
        from schemarouter.router.params import fill_params

        try:
            values, _notes = fill_params(info, self.analysis(question), [], self.graph.identifier_concepts)
        except Exception:  # a baseline step keeps going without parameters rather than crash the run
            return {}
        return values


def identifier_names(info: EndpointInfo) -> list[str]:
    """The endpoint's identifier field names."""
    return [n for n, f in info.fields.items() if f.field.identifier]


def make_step(
    info: EndpointInfo,
    fields: list[str],
    params: dict[str, Any],
    *,
    meta: bool = False,
    score: float | None = None,
) -> PlanStep:
    """A step for ``info`` with ``fields`` kept in declaration order (identifiers first)."""
    wanted = set(fields)
    ordered = [n for n in identifier_names(info) if n in wanted]
    ordered += [n for n in info.fields if n in wanted and n not in ordered]
    return PlanStep(
        source=info.source.id,
        endpoint=info.endpoint.id,
        params=params,
        fields=ordered,
        meta=field_meta(info, ordered) if meta else {},
        score=score,
    )


def field_meta(info: EndpointInfo, fields: list[str]) -> dict[str, FieldMeta]:
    """Unit and provenance metadata for each named field of the endpoint."""
    return {name: info.fields[name].meta() for name in fields}


def new_plan(question: str, graph: SchemaGraph, mode: str) -> Plan:
    """An empty plan for ``question`` stamped with the graph's fingerprint."""
    return Plan(query=question, registry_fingerprint=graph.fingerprint, mode=mode)
