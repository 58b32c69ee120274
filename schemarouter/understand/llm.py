"""The LLM understand backend: one chat-completions call to an OpenAI-compatible server
(vLLM, Ollama, llama.cpp server, OpenAI) with the schema-independent prompt.

The answer is untrusted: it must be one JSON object; intents, concepts and sources not in the
registry are dropped, parameter values are kept only when they look like what they claim
(a formula must parse, a DOI must look like one). Failures raise :class:`LLMError` with a
one-line reason, or fall back to the rules backend when asked to.
"""

from __future__ import annotations

import re
from typing import Any

import httpx

from schemarouter.graph import SchemaGraph
from schemarouter.graph.phrases import tokenize
from schemarouter.graph.text import key_of
from schemarouter.llm import LLMConfig, LLMError, chat, parse_json_object, require_config
from schemarouter.plan import Understanding
from schemarouter.tokens import count_tokens
from schemarouter.understand import chemistry, wording
from schemarouter.understand.actions import decline_reason, requested_action
from schemarouter.understand.base import Analysis
from schemarouter.understand.entities import Entity
from schemarouter.understand.evidence import intent_evidence
from schemarouter.understand.pipeline import Backend
from schemarouter.understand.prompt import build_prompt

_CONSTRAINTS = ("calculated", "experimental", "literature")
_PARAM_KEYS = {
    "formula": "formula", "chemical_formula": "formula", "composition": "formula", "compound_name": "compound",
    "compound": "compound", "name": "compound", "molecule": "compound", "doi": "doi", "arxiv_id": "arxiv_id",
    "arxiv": "arxiv_id", "pmid": "pmid", "cid": "cid", "material_id": "material_id", "corp_name": "company",
    "company": "company", "year": "year", "query_text": "query_text", "query": "query_text", "topic": "query_text",
    "title": "title",
}
_CHECKS = {
    "doi": re.compile(r"^10\.\d{4,9}/\S+$"),
    "arxiv_id": re.compile(r"^(?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$"),
    "pmid": re.compile(r"^\d{1,9}$"),
    "cid": re.compile(r"^\d{1,10}$"),
    "year": re.compile(r"^(?:19|20)\d{2}(?:-(?:(?:19|20)\d{2})?)?$|^-(?:19|20)\d{2}$"),
}


class LLMUnderstander(Backend):
    """The understand step as one call to an OpenAI-compatible chat model; its answer is validated."""
    name = "llm"

    def __init__(
        self, base_url: str | None = None, model: str | None = None, api_key: str | None = None, *,
        timeout: float = 30.0, fallback: bool = False, client: httpx.Client | None = None,
    ) -> None:
        self.config = LLMConfig.from_env(base_url=base_url, model=model, api_key=api_key, timeout_s=timeout)
        self.fallback = fallback
        self._client = client

    @property
    def base_url(self) -> str | None:
        """The endpoint's base URL, if one is configured."""
        return self.config.base_url if self.config else None

    @property
    def model(self) -> str | None:
        """The model name, if one is configured."""
        return self.config.model if self.config else None

    def read(self, question: str, graph: SchemaGraph) -> Analysis:
        """Ask the model and validate its answer against the graph."""
        prompt = build_prompt(list(graph.decls.intents))
        try:
            messages = [{"role": "system", "content": prompt}, {"role": "user", "content": question}]
            answer = chat(require_config(self.config), messages, client=self._client).text
            analysis = interpret(question, answer, graph)
        except LLMError as err:
            if not self.fallback:
                raise
            from schemarouter.understand.rules import RulesUnderstander

            analysis = RulesUnderstander().read(question, graph)
            analysis.backend = f"rules (LLM fallback: {err})"
            analysis.notes.append(f"the LLM understander failed, so the rules read the question: {err}")
        analysis.prompt_tokens = count_tokens(prompt) + count_tokens(question)
        return analysis


def interpret(question: str, content: str, graph: SchemaGraph) -> Analysis:
    """An Analysis from the model's JSON answer: names the registry lacks are dropped."""
    data = parse_json_object(content)
    intent = data.get("intent") if data.get("intent") in graph.decls.intents else None
    concepts, matched = _concepts(data.get("domain_concepts"), graph)
    named = []
    for name in data.get("target_apis") or [] if isinstance(data.get("target_apis"), list) else []:
        source = graph.resolve_source(str(name))
        if source and source not in named:
            named.append(source)
    constraint = data.get("source_constraint") if data.get("source_constraint") in _CONSTRAINTS else None
    entities, params = _parameters(data.get("parameters"), question, graph.identifier_concepts)
    compare = intent == "cross_source_comparison" or len(named) > 1
    if intent is None and data.get("intent") is not None and (concepts or entities):
        # an intent name the registry does not have: weigh the validated parts instead
        scores = intent_evidence(graph, {}, concepts, entities, named)
        intent = max(scores, key=lambda i: (scores[i], i)) if scores else None
    # no intent and no named source is no reason to decline: retrieval over what sources declare may
    # still find one (the router decides); a request to act is declined whichever backend reads it
    decline = None
    analysis = Analysis(
        question=question,
        understanding=Understanding(intent=intent, concepts=concepts if not decline else [], params=params,
                                    named_tools=named, source_constraint=constraint),
        entities=entities, matched=matched, compare=compare, decline=decline, backend="llm",
        intent_scores={intent: 1.0} if intent else {},
    )
    analysis.action = requested_action(question, graph)
    if analysis.action is not None:
        analysis.decline = decline_reason(analysis.action)
        analysis.understanding.concepts = []
    else:
        analysis.topic = params.get("query_text") or wording.topic_text(question, [])
        params.setdefault("query_text", analysis.topic)
        subject = next((e for e in entities if e.kind in ("compound", "company", "formula")), None)
        analysis.subject = (subject.text if subject else None) or wording.subject_phrase(question)
    return analysis


def _concepts(raw: Any, graph: SchemaGraph) -> tuple[list[str], dict[str, str]]:
    out: list[str] = []
    matched: dict[str, str] = {}
    field_names = {f.name for f in graph.iter_fields()}
    for item in raw if isinstance(raw, list) else []:
        if not isinstance(item, str) or not item.strip():
            continue
        key = key_of(item)
        if key in graph.concept_fields or item in field_names:
            target = key if key in graph.concept_fields else item
            out.append(target)
            matched.setdefault(target, item.replace("_", " "))
            continue
        phrase = item.replace("_", " ")
        for m in graph.phrases.scan(tokenize(phrase), phrase):
            for t in m.terms:
                if t.kind in ("concept", "field") and (t.kind == "field" or graph.concept_fields.get(t.target)):
                    out.append(t.target)
                    matched.setdefault(t.target, m.text)
    return list(dict.fromkeys(out)), matched


def _parameters(raw: Any, question: str, identifiers: frozenset[str]) -> tuple[list[Entity], dict[str, Any]]:
    entities: list[Entity] = []
    params: dict[str, Any] = {}
    for key, value in (raw.items() if isinstance(raw, dict) else []):
        if key_of(str(key)) in ("elements", "element"):
            items = value if isinstance(value, list) else str(value).replace("-", ",").split(",")
            symbols = [str(x).strip() for x in items if str(x).strip() in chemistry.ELEMENTS]
            if symbols and len(symbols) == len(items):
                params["elements"] = symbols
                entities.append(Entity("elements", symbols, 0, 0, ",".join(symbols)))
            continue
        kind = _PARAM_KEYS.get(key_of(str(key)))
        if kind is None or value is None or isinstance(value, (dict, list)):
            continue
        text = str(value).strip()
        if not text or len(text) > 300:
            continue
        if kind in _CHECKS and not _CHECKS[kind].match(text):
            continue
        if kind == "formula":
            if chemistry.parse(text) is None:
                continue
            params["formula"] = text
        elif kind == "query_text":
            params["query_text"] = text
            continue
        else:
            concept = {"compound": "compound_name", "company": "corp_name"}.get(kind, kind)
            params[concept] = int(text) if kind == "cid" else text
        # an identifier kind of the registry is a concept with declared patterns: its value is of that concept
        extra = {"declared": True} if kind in identifiers else {}
        entities.append(Entity(kind, params.get("formula") if kind == "formula" else text, 0, 0, text, extra))
    return entities, params
