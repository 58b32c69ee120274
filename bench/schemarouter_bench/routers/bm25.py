"""Okapi BM25 over short documents, and the vector-only baseline built on it.

BM25 scores a document d for query words q: sum over q of
``idf(q) * tf(q, d) * (k1 + 1) / (tf(q, d) + k1 * (1 - b + b * |d| / avgdl))`` with
``idf(q) = ln(1 + (N - n(q) + 0.5) / (n(q) + 0.5))`` (the non-negative variant).

The baseline retrieves like a plain tool-retrieval RAG: the top endpoint (or the top ``endpoints``
endpoints, one step each, best first) by BM25 over its whole description (source, endpoint and
field text), then the top-k fields of each by BM25 over field text, plus identifiers. It
declines when nothing scores.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Sequence

from schemarouter.graph import SchemaGraph
from schemarouter.plan import Plan
from schemarouter_bench.routers.base import EntityParams, identifier_names, make_step, new_plan
from schemarouter_bench.routers.text import content_words, endpoint_text, field_text

TOP_FIELDS = 3


class BM25:
    """An index over tokenized documents; ``scores(query)`` returns one score per document."""

    def __init__(self, docs: Sequence[Sequence[str]], k1: float = 1.5, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.tfs = [Counter(d) for d in docs]
        self.lengths = [len(d) for d in docs]
        self.avgdl = (sum(self.lengths) / len(docs)) if docs else 0.0
        df: Counter[str] = Counter()
        for tf in self.tfs:
            df.update(tf.keys())
        n = len(docs)
        self.idf = {w: math.log(1 + (n - c + 0.5) / (c + 0.5)) for w, c in df.items()}
        self.postings: dict[str, list[int]] = {}
        for i, tf in enumerate(self.tfs):
            for w in tf:
                self.postings.setdefault(w, []).append(i)

    def scores(self, query: Sequence[str]) -> list[float]:
        """The BM25 score of every document for the query's words."""
        out = [0.0] * len(self.tfs)
        # the query's words in the order written, not a set's: a set's order follows the process's hash
        # seed, and sums of floats in another order break near-ties another way from run to run
        for w in dict.fromkeys(query):
            idf = self.idf.get(w)
            if idf is None:
                continue
            for i in self.postings[w]:
                tf = self.tfs[i][w]
                norm = 1 - self.b + self.b * self.lengths[i] / self.avgdl if self.avgdl else 1.0
                out[i] += idf * tf * (self.k1 + 1) / (tf + self.k1 * norm)
        return out

    def top(self, query: Sequence[str], k: int = 1) -> list[tuple[int, float]]:
        """The ``k`` best (document index, score) pairs with a positive score."""
        s = self.scores(query)
        # nlargest keeps this linear in the corpus; ties go to the lower index, as a full sort would
        return heapq.nsmallest(k, ((i, v) for i, v in enumerate(s) if v > 0), key=lambda t: (-t[1], t[0]))


class BM25Router:
    """Baseline: the endpoints whose text best matches the question's words under BM25."""

    name = "vector-only (BM25)"
    kind = "baseline"

    def __init__(
        self,
        graph: SchemaGraph,
        entities: EntityParams | None = None,
        top_fields: int = TOP_FIELDS,
        endpoints: int = 1,
        name: str | None = None,
    ) -> None:
        if name is not None:
            self.name = name
        self.endpoints = endpoints
        self.graph = graph
        self.entities = entities or EntityParams(graph)
        self.top_fields = top_fields
        self.keys = list(graph.endpoints)
        self.index = BM25([content_words(endpoint_text(graph.endpoints[k])) for k in self.keys])
        self._field_index: dict[tuple[str, str], tuple[list[str], BM25]] = {}

    def _fields(self, key: tuple[str, str]) -> tuple[list[str], BM25]:
        if key not in self._field_index:
            info = self.graph.endpoints[key]
            names = list(info.fields)
            self._field_index[key] = (names, BM25([content_words(field_text(info, n)) for n in names]))
        return self._field_index[key]

    def plan(self, question: str) -> Plan:
        """Plan the best-matching endpoints, each with its identifiers and best-matching fields."""
        plan = new_plan(question, self.graph, "bm25")
        q = content_words(question)
        top = self.index.top(q, self.endpoints)
        if not top:
            plan.declined = "no endpoint matches the question's words"
            return plan
        for index_of, score in top:
            key = self.keys[index_of]
            info = self.graph.endpoints[key]
            names, index = self._fields(key)
            picked = [names[i] for i, _ in index.top(q, self.top_fields)]
            plan.steps.append(
                make_step(info, identifier_names(info) + picked, self.entities.params(question, info), score=score)
            )
        return plan

    def prompt_tokens(self, question: str) -> int:
        """Zero: the baseline sends nothing to an LLM."""
        return 0
