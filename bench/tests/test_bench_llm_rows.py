"""The LLM rows without a network: prompt-all against a fake OpenAI-compatible endpoint, and the
deterministic judge of reader answers."""

from __future__ import annotations

import json

import httpx
import pytest
from schemarouter_bench.dataset import GoldStep, Query
from schemarouter_bench.fixtures import fixture_value, gold_entity
from schemarouter_bench.frozen import load_frozen
from schemarouter_bench.reader_eval import judge, make_reader
from schemarouter_bench.routers.prompt_all import PromptAllRouter, build_messages, render_schema

from schemarouter.errors import SchemaRouterError
from schemarouter.llm import LLMConfig
from schemarouter.tokens import count_tokens

CONFIG = LLMConfig(base_url="http://llm.test/v1", model="fake")


@pytest.fixture(scope="module")
def graph():  # type: ignore[no-untyped-def]
    return load_frozen(origin="inventory").graph


def _endpoint(reply: str, seen: list[dict]) -> httpx.MockTransport:
    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content))
        return httpx.Response(
            200,
            json={
                "choices": [{"message": {"content": reply}}],
                "usage": {"prompt_tokens": 1234, "completion_tokens": 5},
            },
        )

    return httpx.MockTransport(handle)


def test_prompt_all_keeps_only_what_the_registry_declares(graph) -> None:  # type: ignore[no-untyped-def]
    answer = {
        "steps": [
            {
                "source": "oqmd",
                "endpoint": "formationenergy",
                "params": {"composition": "NiO", "bogus": 1},
                "fields": ["delta_e", "not_a_field"],
            },
            {"source": "no_such_db", "endpoint": "x", "params": {}, "fields": ["y"]},
        ]
    }
    seen: list[dict] = []
    router = PromptAllRouter(
        graph, CONFIG, transport=_endpoint("```json\n" + json.dumps(answer) + "\n```", seen)
    )
    plan = router.plan("What is the formation energy of NiO in OQMD?")
    assert [(s.source, s.endpoint, s.params, s.fields) for s in plan.steps] == [
        ("oqmd", "formationenergy", {"composition": "NiO"}, ["delta_e"])
    ]
    assert plan.prompt_tokens == 1234  # the server's count when it reports usage
    system = seen[0]["messages"][0]["content"]
    assert render_schema(graph.decls) in system and "materials_project" in system


def test_prompt_all_counts_its_prompt_without_an_endpoint(graph) -> None:  # type: ignore[no-untyped-def]
    router = PromptAllRouter(graph, None)
    q = "Band gap of GaN?"
    messages = build_messages(graph.decls, q)
    assert router.prompt_tokens(q) == sum(count_tokens(m["content"]) for m in messages)
    assert router.prompt_tokens(q) > count_tokens(render_schema(graph.decls)) > 1000
    with pytest.raises(SchemaRouterError, match="needs an LLM endpoint"):
        router.plan(q)


def test_prompt_all_declines_on_an_unparseable_reply(graph) -> None:  # type: ignore[no-untyped-def]
    plan = PromptAllRouter(graph, CONFIG, transport=_endpoint("I think OQMD.", [])).plan(
        "formation energy of NiO"
    )
    assert plan.declined and "unparseable" in plan.declined and not plan.steps


GOLD = GoldStep(
    source="materials_project", endpoint="summary", params={"formula": "GaN"}, fields=["band_gap"]
)
QUERY = Query(id="r1", query="Band gap of GaN in MP?", gold=[GOLD])


def test_judge_accepts_the_gold_number_within_a_tenth_of_a_percent(graph) -> None:  # type: ignore[no-untyped-def]
    value = fixture_value("materials_project", gold_entity(GOLD), "band_gap", "number")
    assert judge(f"The band gap is {value} eV (materials_project; CC-BY-4.0).", QUERY, graph)
    assert judge(f"About {value * 1.0005:.6g} eV.", QUERY, graph)
    assert not judge(f"About {value * 1.01:.6g} eV.", QUERY, graph)
    assert not judge("The context does not say.", QUERY, graph)


def test_reader_is_asked_with_the_context(graph) -> None:  # type: ignore[no-untyped-def]
    value = fixture_value("materials_project", gold_entity(GOLD), "band_gap", "number")
    seen: list[dict] = []
    read = make_reader(CONFIG, graph, transport=_endpoint(f"band gap = {value} eV", seen))
    from schemarouter.plan import Plan

    plan = Plan(query=QUERY.query, registry_fingerprint=None)
    assert read(plan, QUERY, f"materials_project mp-1: band_gap={value} eV")
    assert "band_gap=" in seen[0]["messages"][-1]["content"]
    assert not read(plan, QUERY, "")  # nothing retrieved, nothing to read
