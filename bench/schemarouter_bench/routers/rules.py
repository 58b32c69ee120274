"""Rule-based baseline: keyword overlap between the question and names/descriptions.

The endpoint whose source, endpoint and field names and descriptions share the most content
words with the question wins (one step per source named in the question, when several are).
Fields: identifiers plus the fields whose name or description shares a word with the question,
or every field when none does. Too little overlap declines.
"""

from __future__ import annotations

from schemarouter.graph import SchemaGraph
from schemarouter.plan import Plan
from schemarouter_bench.routers.base import EntityParams, identifier_names, make_step, new_plan
from schemarouter_bench.routers.text import content_words, endpoint_text, field_text

MIN_OVERLAP = 2


class RuleBasedRouter:
    """Baseline: keyword overlap between the question and each endpoint's text, plus named sources."""

    name = "rule-based"
    kind = "baseline"

    def __init__(self, graph: SchemaGraph, entities: EntityParams | None = None) -> None:
        self.graph = graph
        self.entities = entities or EntityParams(graph)
        self._docs = {
            key: set(content_words(endpoint_text(info, with_fields=True)))
            for key, info in graph.endpoints.items()
        }
        self._names = {
            sid: {" ".join(content_words(a)) for a in [s.title, *s.aliases, s.id.replace("_", " ")]}
            for sid, s in graph.sources.items()
        }

    def _named_sources(self, question: str) -> list[str]:
        text = " " + " ".join(content_words(question)) + " "
        return [sid for sid, names in self._names.items() if any(n and f" {n} " in text for n in names)]

    def plan(self, question: str) -> Plan:
        """Plan the endpoints whose words overlap the question most (one per named source)."""
        plan = new_plan(question, self.graph, "rule-based")
        q = set(content_words(question))
        scored = sorted(((len(q & doc), key) for key, doc in self._docs.items()), key=lambda t: (-t[0], t[1]))
        named = self._named_sources(question)
        picks: list[tuple[str, str]] = []
        if len(named) > 1:
            for sid in named:
                best = next((key for score, key in scored if key[0] == sid), None)
                if best is not None:
                    picks.append(best)
        elif scored and scored[0][0] >= MIN_OVERLAP:
            picks.append(scored[0][1])
        if not picks:
            plan.declined = "no source shares enough keywords with the question"
            return plan
        for key in picks:
            info = self.graph.endpoints[key]
            matched = [n for n in info.fields if q & set(content_words(field_text(info, n, aliases=False)))]
            fields = identifier_names(info) + matched if matched else list(info.fields)
            plan.steps.append(make_step(info, fields, self.entities.params(question, info)))
        return plan

    def prompt_tokens(self, question: str) -> int:
        """Zero: the baseline sends nothing to an LLM."""
        return 0
