"""Bad input never crashes a run: each failure ends its own step with a typed error or a typed null.

The source here is a fictional JSON API served by ``httpx.MockTransport``, so every failure mode
(missing key, timeout, 429, 500, truncated JSON, a 50 MB body, odd field types) is exact.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from schemarouter.declarations import Declarations
from schemarouter.execution.executor import Executor
from schemarouter.execution.http import HttpConfig
from schemarouter.execution.httpjson import HttpJsonAdapter
from schemarouter.models import Source
from schemarouter.plan import Plan, PlanStep
from schemarouter.sources.spec import AdapterSpec

SOURCE = Source.model_validate({
    "id": "lab", "title": "Lab store", "domain": "materials", "source_type": "experimental",
    "license": {"id": "CC-BY-4.0", "name": "CC BY 4.0", "attribution": "Lab store team"},
    "auth": {"env": "LAB_TOKEN", "in": "header", "name": "x-api-key"},
    "endpoints": [{
        "id": "samples", "base_url": "https://lab.example.org", "path": "/api/samples",
        "projection": {"param": "fields", "style": "csv"},
        "parameters": [{"name": "formula", "type": "string"}],
        "fields": [
            {"name": "sample_id", "path": "id", "type": "string", "group": "identity", "identifier": True},
            {"name": "formula", "path": "formula", "type": "string", "group": "composition"},
            {"name": "band_gap", "path": "gap.value", "type": "number", "unit": "eV", "group": "electronic"},
            {"name": "count", "path": "n", "type": "integer", "group": "identity"},
        ],
    }],
})
OTHER = SOURCE.model_copy(update={"id": "lab_two", "auth": None})
SPEC = {"samples": AdapterSpec(records="data")}
GOOD = {"data": [{"id": "s1", "formula": "GaN", "gap": {"value": "3.4"}, "n": "1,024"}]}


def plan(*sources: str) -> Plan:
    return Plan(query="band gap of GaN", registry_fingerprint=None, steps=[
        PlanStep(source=s, endpoint="samples", params={"formula": "GaN"}, fields=["formula", "band_gap", "count"])
        for s in sources
    ])


def executor(handler: Callable[[httpx.Request], httpx.Response], env: dict[str, str] | None = None,
             **config: Any) -> Executor:
    decls = Declarations(sources={"lab": SOURCE, "lab_two": OTHER})
    cfg = HttpConfig(backoff_s=0.0, retries=2, **config)
    return Executor(
        decls, {"lab": HttpJsonAdapter(SPEC), "lab_two": HttpJsonAdapter(SPEC)},
        config=cfg, env={"LAB_TOKEN": "secret-token"} if env is None else env,
        client_factory=lambda c: httpx.AsyncClient(transport=httpx.MockTransport(handler)),
    )


def test_success_projects_casts_and_attributes() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=GOOD)

    run = executor(handler).run_sync(plan("lab"))
    [step] = run.steps
    assert step.ok, step.error
    values = step.records[0].values
    assert values["band_gap"].value == 3.4 and values["band_gap"].unit == "eV"
    assert values["count"].value == 1024  # thousands separator
    assert values["band_gap"].record_id == "s1" and values["band_gap"].license == "CC-BY-4.0"
    assert values["band_gap"].attribution == "Lab store team"
    assert seen[0].headers["x-api-key"] == "secret-token"
    assert seen[0].url.params["fields"] == "id,formula,gap,n"
    assert "secret-token" not in (step.request or "")


def test_missing_key_fails_before_any_request_and_names_the_variable() -> None:
    calls: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return httpx.Response(200, json=GOOD)

    run = executor(handler, env={}).run_sync(plan("lab", "lab_two"))
    failed, other = run.steps
    assert failed.error is not None and failed.error.kind == "missing_credentials"
    assert "LAB_TOKEN" in failed.error.message
    assert all(r.url.host == "lab.example.org" for r in calls) and len(calls) == 1  # only lab_two went out
    assert other.ok


def test_timeout_is_a_step_error() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    [step] = executor(handler).run_sync(plan("lab")).steps
    assert step.error is not None and step.error.kind == "timeout"


def test_429_then_success_honours_retry_after(monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr("schemarouter.execution.http._sleep", fake_sleep)
    replies = iter([httpx.Response(429, headers={"Retry-After": "7"}), httpx.Response(200, json=GOOD)])
    [step] = executor(lambda r: next(replies)).run_sync(plan("lab")).steps
    assert step.ok and waits == [7.0]


def test_429_forever_is_rate_limited() -> None:
    calls: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        return httpx.Response(429)

    [step] = executor(handler).run_sync(plan("lab")).steps
    assert step.error is not None and step.error.kind == "rate_limited"
    assert len(calls) == 3  # first try + 2 retries, then stop


def test_500_is_an_http_status_error_and_other_steps_return() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.headers.get("x-api-key"):
            return httpx.Response(500, text="boom")
        return httpx.Response(200, json=GOOD)

    bad, good = executor(handler).run_sync(plan("lab", "lab_two")).steps
    assert bad.error is not None and bad.error.kind == "http_status" and "500" in bad.error.message
    assert good.ok and good.records[0].values["formula"].value == "GaN"


def test_4xx_quotes_the_api_message() -> None:
    [step] = executor(lambda r: httpx.Response(400, json={"detail": "bad formula"})).run_sync(plan("lab")).steps
    assert step.error is not None and step.error.kind == "http_status" and "bad formula" in step.error.message


def test_truncated_json_is_unparseable() -> None:
    body = json.dumps(GOOD)[:25].encode()
    [step] = executor(lambda r: httpx.Response(200, content=body)).run_sync(plan("lab")).steps
    assert step.error is not None and step.error.kind == "unparseable_body"


def test_50_mb_response_hits_the_size_cap() -> None:
    async def chunks() -> AsyncIterator[bytes]:
        block = b" " * (1024 * 1024)
        for _ in range(50):
            yield block

    [step] = executor(lambda r: httpx.Response(200, content=chunks())).run_sync(plan("lab")).steps
    assert step.error is not None and step.error.kind == "response_too_large"


def test_unexpected_field_types_become_typed_nulls_with_notes() -> None:
    odd = {"data": [{"id": "s1", "formula": {"nested": True}, "gap": {"value": "n/a-ish"}, "n": [1.5]}]}
    [step] = executor(lambda r: httpx.Response(200, json=odd)).run_sync(plan("lab")).steps
    assert step.ok
    values = step.records[0].values
    assert values["band_gap"].value is None and "expected a number" in (values["band_gap"].note or "")
    assert values["formula"].value is None and "expected a string" in (values["formula"].note or "")
    assert values["count"].value is None and "integer" in (values["count"].note or "")


def test_empty_records_is_no_records() -> None:
    [step] = executor(lambda r: httpx.Response(200, json={"data": []})).run_sync(plan("lab")).steps
    assert step.error is not None and step.error.kind == "no_records"


def test_records_of_the_wrong_shape_are_unparseable() -> None:
    [step] = executor(lambda r: httpx.Response(200, json={"data": "oops"})).run_sync(plan("lab")).steps
    assert step.error is not None and step.error.kind == "unparseable_body"


def test_unknown_field_and_source_are_invalid_steps() -> None:
    p = plan("lab")
    p.steps[0].fields.append("nope")
    p.steps.append(PlanStep(source="ghost", endpoint="x", fields=[]))
    bad_field, ghost = executor(lambda r: httpx.Response(200, json=GOOD)).run_sync(p).steps
    assert bad_field.error is not None and "nope" in bad_field.error.message
    assert ghost.error is not None and ghost.error.kind == "invalid_step"


def test_adapter_bug_is_contained() -> None:
    class Broken:
        async def fetch(self, call: Any) -> Any:
            raise KeyError("surprise")

    ex = executor(lambda r: httpx.Response(200, json=GOOD))
    ex.adapters["lab"] = Broken()
    bad, good = ex.run_sync(plan("lab", "lab_two")).steps
    assert bad.error is not None and bad.error.kind == "adapter_error"
    assert good.ok


def test_per_source_concurrency_is_bounded() -> None:
    import asyncio

    active = {"now": 0, "peak": 0}

    async def handler(request: httpx.Request) -> httpx.Response:
        active["now"] += 1
        active["peak"] = max(active["peak"], active["now"])
        await asyncio.sleep(0.01)
        active["now"] -= 1
        return httpx.Response(200, json=GOOD)

    ex = executor(handler, per_source_concurrency=2)  # type: ignore[arg-type]
    run = ex.run_sync(plan(*["lab"] * 6))
    assert all(step.ok for step in run.steps)
    assert active["peak"] == 2


def test_user_agent_names_schemarouter_and_its_version() -> None:
    from schemarouter import __version__
    from schemarouter.execution.http import make_client

    client = make_client()
    assert client.headers["user-agent"].startswith(f"schemarouter/{__version__}")
