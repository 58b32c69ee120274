"""Which routers a run compares, built over one frozen registry; LLM rows only with an endpoint."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from schemarouter.llm import LLMConfig
from schemarouter_bench.frozen import Frozen
from schemarouter_bench.routers.base import BenchRouter, EntityParams, Skipped

EMBEDDING_ROW = "vector-only (MiniLM)"


def lineup(
    frozen: Frozen, llm: LLMConfig | None, *, embeddings: str | None = None, only: set[str] | None = None
) -> Iterator[BenchRouter | Skipped]:
    """Routers in report order; a :class:`Skipped` stands in for one that cannot run here.

    ``embeddings``: None to run the MiniLM row when installed, else the reason it is left out.
    """
    from schemarouter_bench.routers import embed
    from schemarouter_bench.routers.bm25 import BM25Router
    from schemarouter_bench.routers.fetch_all import FetchAllRouter
    from schemarouter_bench.routers.prompt_all import PromptAllRouter
    from schemarouter_bench.routers.rules import RuleBasedRouter
    from schemarouter_bench.routers.schemarouter_rows import (
        NoAliasLayer,
        NoFieldProjection,
        NoProvenance,
        NoSourceRouting,
        SchemaRouterRow,
        llm_prompt_tokens,
        llm_understander,
    )

    graph = frozen.graph
    entities = EntityParams(graph)
    yield SchemaRouterRow(graph, "recall")
    yield SchemaRouterRow(graph, "minimal")
    if llm is None:
        yield _SkippedWithPrompt(
            "schemarouter (LLM understander)",
            "needs an LLM endpoint (--llm-url); prompt tokens computed",
            "llm",
            lambda q: llm_prompt_tokens(graph, q) or 0,
        )
    else:
        understander = llm_understander(llm)
        if understander is None:
            yield Skipped("schemarouter (LLM understander)", "no LLM understander in this version", "llm")
        else:
            yield SchemaRouterRow(graph, "recall", "schemarouter (LLM understander)", understander)
    yield FetchAllRouter(graph, entities)
    yield RuleBasedRouter(graph, entities)
    yield BM25Router(graph, entities)
    # Loading the model takes seconds: not when --router leaves this row out.
    reason = embeddings or ("not selected" if only and EMBEDDING_ROW not in only else embed.unavailable_reason())
    if reason is None:
        yield embed.EmbeddingRouter(graph, entities)
    else:
        yield Skipped(EMBEDDING_ROW, reason)
    prompt_all = PromptAllRouter(graph, llm)
    if llm is None:
        yield _SkippedWithPrompt(
            "prompt-all",
            "needs an LLM endpoint (--llm-url); prompt tokens computed",
            "llm",
            prompt_all.prompt_tokens,
        )
    else:
        yield prompt_all
    yield NoFieldProjection(graph)
    yield NoProvenance(graph)
    yield NoSourceRouting(graph)
    yield NoAliasLayer(frozen)


class _SkippedWithPrompt(Skipped):
    def __init__(self, name: str, reason: str, kind: str, tokens: Callable[[str], int]) -> None:
        super().__init__(name, reason, kind)
        self._tokens = tokens

    def prompt_tokens(self, question: str) -> int:
        return int(self._tokens(question))
