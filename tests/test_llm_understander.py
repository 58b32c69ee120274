"""LLM understander: OpenAI wire format (replayed cassettes), untrusted output, errors, fallback."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from schemarouter.graph import SchemaGraph
from schemarouter.llm import LLMError
from schemarouter.llm import parse_json_object as parse_answer
from schemarouter.router import Router, validate_plan
from schemarouter.tokens import count_tokens
from schemarouter.understand import make_understander
from schemarouter.understand.llm import LLMUnderstander
from schemarouter.understand.prompt import build_prompt
from tests.routing_support import graph, routing_db  # noqa: F401

BASE = "http://llm.test:8000/v1"


@pytest.fixture(scope="module")
def vcr_cassette_dir() -> str:
    return str(Path(__file__).parent / "cassettes" / "llm")


@pytest.fixture(scope="module")
def vcr_config() -> dict:
    return {"record_mode": "none", "filter_headers": ["authorization"]}


def llm(**kw) -> LLMUnderstander:
    return LLMUnderstander(BASE, "qwen2.5-7b-instruct", "sk-test", timeout=5, **kw)


def test_prompt_is_schema_independent(graph: SchemaGraph) -> None:
    prompt = build_prompt(list(graph.decls.intents))
    for intent in graph.decls.intents:
        assert intent in prompt
    for source in graph.sources.values():
        assert source.title not in prompt and source.description not in prompt  # no tool descriptions
    for f in graph.iter_fields():
        assert not f.field.description or f.field.description not in prompt
    assert "band_gap" in prompt and "JSON" in prompt
    assert 200 < count_tokens(prompt) < 600


@pytest.mark.vcr("band_gap_lifepo4.yaml")
def test_answer_is_validated_and_unknown_names_dropped(graph: SchemaGraph) -> None:
    a = llm().understand("What is the DFT band gap of LiFePO4 in the Materials Project?", graph)
    u = a.understanding
    assert u.intent == "material_property"
    assert u.concepts == ["band_gap"]  # unicorn_index is not in the registry
    assert u.named_tools == ["materials_project"]  # HyperDB dropped
    assert u.params["formula"] == "LiFePO4" and "doi" not in u.params  # malformed DOI dropped
    assert u.source_constraint == "calculated"
    assert a.prompt_tokens and a.prompt_tokens > 200
    plan = Router(graph, llm()).plan_from_analysis(a)
    assert plan.steps[0].source == "materials_project" and validate_plan(plan, graph) == []
    assert plan.prompt_tokens == a.prompt_tokens


@pytest.mark.vcr("fenced_answer.yaml")
def test_fenced_json_and_phrase_concepts(graph: SchemaGraph) -> None:
    a = llm().understand("caffeine melting point, measured", graph)
    assert a.understanding.intent == "compound_property"  # the made-up intent replaced by evidence
    assert "melting_point" in a.understanding.concepts
    assert a.understanding.source_constraint is None  # "measured-ish" is not a constraint
    assert a.understanding.params["compound_name"] == "caffeine"


@pytest.mark.vcr("no_json.yaml")
def test_malformed_answer_is_a_clear_error(graph: SchemaGraph) -> None:
    with pytest.raises(LLMError, match="no JSON object"):
        llm().understand("band gap of GaN", graph)


@pytest.mark.vcr("no_json.yaml")
def test_malformed_answer_falls_back_to_rules_when_asked(graph: SchemaGraph) -> None:
    a = llm(fallback=True).understand("band gap of GaN in MP", graph)
    assert a.backend.startswith("rules (LLM fallback")
    assert a.understanding.named_tools == ["materials_project"]
    assert a.prompt_tokens is not None


@pytest.mark.vcr("weather_decline.yaml")
def test_null_intent_declines(graph: SchemaGraph) -> None:
    plan = Router(graph, llm()).plan("weather in Daejeon tomorrow?")
    assert plan.declined and not plan.steps


def test_timeout_is_a_clear_error(graph: SchemaGraph) -> None:
    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    client = httpx.Client(transport=httpx.MockTransport(slow))
    with pytest.raises(LLMError, match="did not answer within"):
        llm(client=client).understand("band gap of GaN", graph)
    fallback = llm(client=client, fallback=True).understand("band gap of GaN", graph)
    assert fallback.understanding.params["formula"] == "GaN"


def test_http_error_and_missing_configuration(graph: SchemaGraph, monkeypatch: pytest.MonkeyPatch) -> None:
    client = httpx.Client(transport=httpx.MockTransport(lambda r: httpx.Response(503, json={})))
    with pytest.raises(LLMError, match="HTTP 503"):
        llm(client=client).understand("band gap of GaN", graph)
    monkeypatch.delenv("SCHEMAROUTER_LLM_URL", raising=False)
    monkeypatch.delenv("SCHEMAROUTER_LLM_MODEL", raising=False)
    with pytest.raises(LLMError, match="SCHEMAROUTER_LLM_URL"):
        make_understander("llm").understand("band gap of GaN", graph)


def test_settings_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCHEMAROUTER_LLM_URL", BASE + "/")
    monkeypatch.setenv("SCHEMAROUTER_LLM_MODEL", "m")
    u = make_understander("llm")
    assert (u.base_url, u.model) == (BASE, "m")  # type: ignore[attr-defined]


def test_request_is_openai_chat_format(graph: SchemaGraph) -> None:
    seen: dict = {}

    def answer(request: httpx.Request) -> httpx.Response:
        import json

        seen["path"] = request.url.path
        seen["auth"] = request.headers.get("authorization")
        seen["body"] = json.loads(request.content)
        content = '{"intent": null, "domain_concepts": [], "parameters": {}, "target_apis": [], "source_constraint": null}'
        return httpx.Response(200, json={"choices": [{"message": {"role": "assistant", "content": content}}]})

    llm(client=httpx.Client(transport=httpx.MockTransport(answer))).understand("hi", graph)
    assert seen["path"] == "/v1/chat/completions" and seen["auth"] == "Bearer sk-test"
    assert [m["role"] for m in seen["body"]["messages"]] == ["system", "user"]
    assert seen["body"]["temperature"] == 0


@pytest.mark.parametrize("content", ["[1, 2]", "{not json}", ""])
def test_parse_answer_rejects_non_objects(content: str) -> None:
    with pytest.raises(LLMError):
        parse_answer(content)
