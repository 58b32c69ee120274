"""Prompt-all: the whole schema (every source, endpoint, parameter and field) in one LLM prompt.

The model answers with the plan as JSON. Its prompt grows with the inventory, which is what the
benchmark measures: the prompt's BPE token count is computed from the real prompt text for
every question, with or without an endpoint; the plans themselves need one. Answers are
untrusted: unknown sources, endpoints, fields and parameters are dropped.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from schemarouter.declarations import Declarations
from schemarouter.errors import SchemaRouterError
from schemarouter.graph import SchemaGraph
from schemarouter.llm import LLMConfig, LLMError, chat, parse_json_object
from schemarouter.plan import Plan
from schemarouter.tokens import count_tokens
from schemarouter_bench.routers.base import make_step, new_plan

INSTRUCTIONS = (
    "You plan data retrieval for a question. Below is every data source you can call, with its "
    "endpoints, their parameters and the response fields they return. Choose the sources and "
    "endpoints that answer the question, the parameter values to send and only the response fields "
    "the answer needs. Reply with JSON only: "
    '{"steps": [{"source": "<id>", "endpoint": "<id>", "params": {"<name>": <value>}, "fields": ["<name>"]}]}. '
    'Use several steps only to compare sources. If no source fits, reply {"steps": []}.'
)


def render_schema(decls: Declarations) -> str:
    """The schema segment: one block per source, one line per endpoint."""
    lines: list[str] = []
    for sid in sorted(decls.sources):
        s = decls.sources[sid]
        lines.append(f"## {s.id} ({s.title}; {s.source_type.value}): {s.description}")
        for e in s.endpoints:
            params = ", ".join(f"{p.name}:{p.type}{'*' if p.required else ''}" for p in e.parameters)
            fields = ", ".join(f"{f.name}[{f.unit}]" if f.unit else f.name for f in e.fields)
            lines.append(f"- {e.id}: {e.description} | params: {params} | fields: {fields}")
    return "\n".join(lines)


def build_messages(decls: Declarations, question: str, schema: str | None = None) -> list[dict[str, str]]:
    """The chat messages: every source's schema in the system prompt, the question as the user's."""
    schema = schema if schema is not None else render_schema(decls)
    return [
        {"role": "system", "content": f"{INSTRUCTIONS}\n\nSources:\n{schema}"},
        {"role": "user", "content": question},
    ]


def prompt_tokens(messages: list[dict[str, str]]) -> int:
    """The tokens the messages' contents count."""
    return sum(count_tokens(m["content"]) for m in messages)


class PromptAllRouter:
    """LLM baseline: the whole registry's schema in the prompt, the model picks the steps."""

    name = "prompt-all"
    kind = "llm"

    def __init__(
        self, graph: SchemaGraph, config: LLMConfig | None, transport: httpx.BaseTransport | None = None
    ) -> None:
        self.graph = graph
        self.config = config
        self.transport = transport
        self.schema = render_schema(graph.decls)
        self._schema_tokens = count_tokens(f"{INSTRUCTIONS}\n\nSources:\n{self.schema}")

    def prompt_tokens(self, question: str) -> int:
        """The schema's tokens plus the question's."""
        return self._schema_tokens + count_tokens(question)

    def plan(self, question: str) -> Plan:
        """Ask the model for steps and keep those that name declared endpoints, fields and parameters."""
        if self.config is None:
            raise SchemaRouterError(
                "prompt-all needs an LLM endpoint (--llm-url or SCHEMAROUTER_LLM_URL)"
            )
        plan = new_plan(question, self.graph, "prompt-all")
        reply = chat(
            self.config, build_messages(self.graph.decls, question, self.schema), transport=self.transport
        )
        plan.prompt_tokens = reply.prompt_tokens or self.prompt_tokens(question)
        doc: dict[str, Any] | None
        try:
            doc = parse_json_object(reply.text)
        except LLMError:  # an unusable answer declines, for this baseline; it is not a crash
            doc = None
        steps: list[Any] = (doc or {}).get("steps") or []
        for raw in steps if isinstance(steps, list) else []:
            if not isinstance(raw, dict):
                continue
            info = self.graph.endpoints.get((str(raw.get("source")), str(raw.get("endpoint"))))
            if info is None:
                continue
            fields = [f for f in raw.get("fields") or [] if isinstance(f, str) and f in info.fields]
            raw_params = raw.get("params")
            params = raw_params if isinstance(raw_params, dict) else {}
            declared = {p.name for p in info.endpoint.parameters}
            params = {k: v for k, v in params.items() if k in declared and v is not None}
            if fields:
                plan.steps.append(make_step(info, fields, params))
        if not plan.steps:
            plan.declined = (
                "the model chose no source"
                if doc is not None
                else "unparseable model reply: " + json.dumps(reply.text[:80])
            )
        return plan
