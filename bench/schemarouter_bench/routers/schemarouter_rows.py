"""schemarouter itself (recall and minimal modes, rules or LLM understander) and its ablations.

Each ablation removes one schema signal and keeps everything else:

- no field projection: schemarouter's tool choice, every field of each chosen endpoint;
- no provenance layer: the plan's per-field metadata (unit, source type, license) stripped;
- no source routing: the understood source constraint ignored;
- no alias layer: field and concept aliases removed from the registry copy the graph is built on.
"""

from __future__ import annotations

from schemarouter.graph import SchemaGraph, build_graph
from schemarouter.llm import LLMConfig
from schemarouter.plan import Plan
from schemarouter.router import Router
from schemarouter.understand.base import Understander
from schemarouter_bench.frozen import Frozen, without_aliases
from schemarouter_bench.routers.base import field_meta


class SchemaRouterRow:
    """schemarouter itself as a benchmark row, in one planning mode."""

    kind = "schemarouter"

    def __init__(
        self,
        graph: SchemaGraph,
        mode: str = "recall",
        name: str | None = None,
        understander: Understander | None = None,
        dense: bool | None = None,
    ) -> None:
        self.graph = graph
        self.mode = mode
        self.router = Router(graph, understander, dense=dense)
        self.name = name or f"schemarouter ({mode})"

    def plan(self, question: str) -> Plan:
        """schemarouter's plan for ``question``."""
        return self.router.plan(question, mode=self.mode)  # type: ignore[arg-type]

    def prompt_tokens(self, question: str) -> int:
        """Zero: the rules understander sends nothing to an LLM."""
        return 0  # the rules understander sends nothing to an LLM


class NoFieldProjection(SchemaRouterRow):
    """Ablation: schemarouter's endpoints, but every field of each."""

    kind = "ablation"

    def __init__(self, graph: SchemaGraph) -> None:
        super().__init__(graph, "recall", "ablation: no field projection")

    def plan(self, question: str) -> Plan:
        """schemarouter's plan with each step fetching all its endpoint's fields."""
        plan = super().plan(question)
        for step in plan.steps:
            info = self.graph.endpoints[(step.source, step.endpoint)]
            step.fields = list(info.fields)
            step.meta = field_meta(info, step.fields)
            step.why = {}
        return plan


class NoProvenance(SchemaRouterRow):
    """Ablation: schemarouter's plans without unit and provenance metadata."""

    kind = "ablation"

    def __init__(self, graph: SchemaGraph) -> None:
        super().__init__(graph, "recall", "ablation: no provenance layer")

    def plan(self, question: str) -> Plan:
        """schemarouter's plan with the field metadata removed."""
        plan = super().plan(question)
        for step in plan.steps:
            step.meta = {}
        return plan


class NoSourceRouting(SchemaRouterRow):
    """Ablation: schemarouter without the source a question names."""

    kind = "ablation"

    def __init__(self, graph: SchemaGraph) -> None:
        super().__init__(graph, "recall", "ablation: no source routing")

    def plan(self, question: str) -> Plan:
        """Plan from the question's analysis with its source constraint dropped."""
        analysis = self.router.understander.understand(question, self.graph)
        analysis.understanding.source_constraint = None
        return self.router.plan_from_analysis(analysis, self.mode)  # type: ignore[arg-type]


class NoAliasLayer(SchemaRouterRow):
    """Ablation: schemarouter over declarations without field aliases."""

    kind = "ablation"

    def __init__(self, frozen: Frozen) -> None:
        graph = build_graph(without_aliases(frozen.decls), frozen.fingerprint)
        super().__init__(graph, "recall", "ablation: no alias layer")


def llm_understander(config: LLMConfig) -> Understander | None:
    """The LLM understander (schema-independent prompt) at ``config``'s endpoint, if this version has one."""
    try:
        from schemarouter.understand.llm import LLMUnderstander
    except ImportError:
        return None
    return LLMUnderstander(base_url=config.base_url, model=config.model, api_key=config.api_key)


def llm_prompt_tokens(graph: SchemaGraph, question: str) -> int | None:
    """Tokens the LLM understander sends for ``question`` (computed from the real prompt; no call)."""
    try:
        from schemarouter.understand.prompt import build_prompt
    except ImportError:
        return None
    from schemarouter.tokens import count_tokens

    return count_tokens(build_prompt(list(graph.decls.intents))) + count_tokens(question)
