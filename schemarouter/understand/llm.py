"""The LLM understand backend: one chat-completions call to an OpenAI-compatible server
(vLLM, Ollama, llama.cpp server, OpenAI) with the schema-independent prompt.

The answer is untrusted: it must be one JSON object; intents, concepts and sources not in the
registry are dropped, parameter values are kept only when they look like what they claim
(a formula must parse, a DOI must look like one). Failures raise :class:`LLMError` with a
one-line reason, or fall back to the rules backend when asked to.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import httpx

from schemarouter.errors import SchemaRouterError
from schemarouter.graph import SchemaGraph
from schemarouter.graph.phrases import tokenize
from schemarouter.graph.text import key_of
from schemarouter.plan import Understanding
from schemarouter.understand import chemistry, wording
from schemarouter.understand.base import Analysis
from schemarouter.understand.entities import Entity
from schemarouter.understand.evidence import intent_evidence
from schemarouter.understand.prompt import build_prompt
from schemarouter.understand.tokens import count_tokens

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


class LLMError(SchemaRouterError):
    """The LLM endpoint failed or answered something unusable."""


class LLMUnderstander:
    name = "llm"

    def __init__(
        self, base_url: str | None = None, model: str | None = None, api_key: str | None = None, *,
        timeout: float = 30.0, fallback: bool = False, client: httpx.Client | None = None,
    ) -> None:
        self.base_url = (base_url or os.environ.get("SCHEMAROUTER_LLM_BASE_URL") or "").rstrip("/")
        self.model = model or os.environ.get("SCHEMAROUTER_LLM_MODEL") or ""
        self._api_key = api_key if api_key is not None else os.environ.get("SCHEMAROUTER_LLM_API_KEY")
        self.timeout = timeout
        self.fallback = fallback
        self._client = client

    def understand(self, question: str, graph: SchemaGraph) -> Analysis:
        prompt = build_prompt(list(graph.decls.intents))
        try:
            answer = self._ask(prompt, question)
            analysis = interpret(question, answer, graph)
        except LLMError as err:
            if not self.fallback:
                raise
            from schemarouter.understand.rules import RulesUnderstander

            analysis = RulesUnderstander().understand(question, graph)
            analysis.backend = f"rules (LLM fallback: {err})"
        analysis.prompt_tokens = count_tokens(prompt) + count_tokens(question)
        return analysis

    def _ask(self, prompt: str, question: str) -> str:
        if not self.base_url or not self.model:
            raise LLMError("no LLM endpoint configured: set SCHEMAROUTER_LLM_BASE_URL and SCHEMAROUTER_LLM_MODEL")
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        body = {
            "model": self.model, "temperature": 0,
            "messages": [{"role": "system", "content": prompt}, {"role": "user", "content": question}],
        }
        client = self._client or httpx.Client(timeout=self.timeout)
        try:
            response = client.post(f"{self.base_url}/chat/completions", json=body, headers=headers)
        except httpx.TimeoutException:
            raise LLMError(f"the LLM at {self.base_url} did not answer within {self.timeout:g} s") from None
        except httpx.HTTPError as err:
            raise LLMError(f"cannot reach the LLM at {self.base_url}: {type(err).__name__}") from None
        finally:
            if self._client is None:
                client.close()
        if response.status_code != 200:
            raise LLMError(f"the LLM at {self.base_url} answered HTTP {response.status_code}")
        try:
            return str(response.json()["choices"][0]["message"]["content"])
        except (ValueError, KeyError, IndexError, TypeError):
            raise LLMError("the LLM's response is not an OpenAI chat completion") from None


def parse_answer(content: str) -> dict[str, Any]:
    """The JSON object in the model's reply (code fences and chatter around it tolerated)."""
    text = re.sub(r"^```(?:json)?|```$", "", content.strip(), flags=re.MULTILINE).strip()
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        raise LLMError("the LLM's answer contains no JSON object")
    try:
        data = json.loads(text[start : end + 1])
    except json.JSONDecodeError as err:
        raise LLMError(f"the LLM's answer is not valid JSON ({err.msg})") from None
    if not isinstance(data, dict):
        raise LLMError("the LLM's answer is not a JSON object")
    return data


def interpret(question: str, content: str, graph: SchemaGraph) -> Analysis:
    data = parse_answer(content)
    intent = data.get("intent") if data.get("intent") in graph.decls.intents else None
    concepts, matched = _concepts(data.get("domain_concepts"), graph)
    named = []
    for name in data.get("target_apis") or [] if isinstance(data.get("target_apis"), list) else []:
        source = graph.resolve_source(str(name))
        if source and source not in named:
            named.append(source)
    constraint = data.get("source_constraint") if data.get("source_constraint") in _CONSTRAINTS else None
    entities, params = _parameters(data.get("parameters"), question)
    compare = intent == "cross_source_comparison" or len(named) > 1
    if intent is None and data.get("intent") is not None and (concepts or entities):
        # an intent name the registry does not have: weigh the validated parts instead
        scores = intent_evidence(graph, {}, concepts, entities, named)
        intent = max(scores, key=lambda i: (scores[i], i)) if scores else None
    decline = None if (intent or named) else "the language model found no registered source for this request"
    analysis = Analysis(
        question=question,
        understanding=Understanding(intent=intent, concepts=concepts if not decline else [], params=params,
                                    named_tools=named, source_constraint=constraint),
        entities=entities, matched=matched, compare=compare, decline=decline, backend="llm",
        intent_scores={intent: 1.0} if intent else {},
    )
    if not decline:
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


def _parameters(raw: Any, question: str) -> tuple[list[Entity], dict[str, Any]]:
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
        entities.append(Entity(kind, params.get("formula") if kind == "formula" else text, 0, 0, text))
    return entities, params
