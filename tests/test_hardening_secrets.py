"""No key leaves the process: run output, ``--json``, echoed server errors, record values, cassettes.

The sources are the fault server's: one sends its key as the ``X-Lab-Token`` header, the other as
an ``appid`` query parameter — names no fixed list held. Requests go to a real socket on
127.0.0.1; cassettes are recorded by vcrpy with the project's own settings.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import vcr
import yaml
from schemarouter_bench.reliability import ENV, HEADER_KEY, QUERY_KEY, fault_sources

from schemarouter.cli.running import echo_result
from schemarouter.declarations import Declarations
from schemarouter.execution import offline
from schemarouter.execution.executor import Executor
from schemarouter.execution.http import HttpConfig
from schemarouter.execution.httpjson import HttpJsonAdapter, redact_url
from schemarouter.execution.results import RunResult
from schemarouter.execution.secrets import REDACTED, Secrets
from schemarouter.plan import Plan, PlanStep
from schemarouter.sources.spec import AdapterSpec
from schemarouter.testing.faultserver import FaultServer

KEYS = (HEADER_KEY, QUERY_KEY)


@pytest.fixture(scope="module")
def server() -> Any:
    with FaultServer() as fs:
        yield fs


def _run(server: FaultServer, *steps: tuple[str, str]) -> tuple[Plan, RunResult]:
    sources = fault_sources(server.url)
    executor = Executor(Declarations(sources=sources), {s: HttpJsonAdapter(AdapterSpec(records="data")) for s in sources},
                        config=HttpConfig(timeout_s=5, retries=0), env=ENV)
    plan = Plan(query="q", registry_fingerprint=None, steps=[
        PlanStep(source=source, endpoint=endpoint, params={}, fields=["formula"]) for source, endpoint in steps
    ])
    return plan, executor.run_sync(plan)


def _leaks(text: str) -> list[str]:
    return [key for key in KEYS if key in text]


# ---------------------------------------------------------------- redaction
def test_a_declared_query_key_is_hidden_in_run_output_json_and_echoed_errors(
    server: FaultServer, capsys: pytest.CaptureFixture[str]
) -> None:
    _plan, result = _run(server, ("fault_query", "ok"), ("fault_query", "unauthorized_echo"),
                        ("fault_header", "unauthorized_echo"), ("fault_query", "echo"))
    ok, error_query, error_header, echo = result.steps
    assert ok.ok and ok.request is not None and f"appid={REDACTED}" in ok.request
    # The servers quoted the keys back; the errors still name the problem, without the keys.
    assert error_query.error is not None and error_query.error.kind == "http_status"
    assert "invalid key" in error_query.error.message and REDACTED in error_query.error.message
    assert error_header.error is not None and REDACTED in error_header.error.message
    assert echo.ok and REDACTED in str(echo.records[0].values["formula"].value)
    echo_result(result)
    printed = capsys.readouterr().out
    assert "unauthorized_echo: ERROR http_status" in printed
    document = json.dumps(result.to_json())
    assert _leaks(printed) == [] and _leaks(document) == []


def test_redaction_by_value_and_by_name_in_every_form() -> None:
    sources = fault_sources("http://x.example").values()
    secrets = Secrets.from_sources(sources, {"FAULT_TOKEN": "s3cr3t/+value", "FAULT_APPID": "abc"})
    text = ("GET /x?appid=abc&q=GaN token s3cr3t/+value enc s3cr3t%2F%2Bvalue "
            'X-Lab-Token: zzz {"apikey": "yyy"} Authorization: Bearer tok123')
    shown = secrets.redact(text)
    for secret in ("s3cr3t", "abc&", "zzz", "yyy", "tok123"):
        assert secret not in shown, (secret, shown)
    assert "q=GaN" in shown and shown.count(REDACTED) == 6
    # Record values are data: "key: 3" stays, a URL parameter named like a key does not.
    assert secrets.redact("primary key: 3", prose=False) == "primary key: 3"
    assert secrets.redact("https://x/?appid=QQQ&a=1", prose=False) == f"https://x/?appid={REDACTED}&a=1"
    # A very short "key" is hidden by name only, never replaced through every text.
    assert secrets.redact("abc is a word") == "abc is a word"
    # A sentence that names a key is prose, not a header: the advice in it survives.
    advice = "materials_project needs an API key: set the environment variable MP_API_KEY"
    assert secrets.redact(advice) == advice
    assert secrets.redact("token: use a fresh one") == "token: use a fresh one"
    assert secrets.redact("X-Lab-Token: k3y9q sent") == f"X-Lab-Token: {REDACTED} sent"


def test_redact_url_knows_a_sources_own_auth_name() -> None:
    assert redact_url("https://x.example/a?appid=K&q=1", {"appid"}) == f"https://x.example/a?appid={REDACTED}&q=1"
    assert redact_url("https://x.example/a?token=K&q=1") == f"https://x.example/a?token={REDACTED}&q=1"
    raw = "https://aflow.org/API/aflux/?species(Ga),$paging(1)"
    assert redact_url(raw) == raw, "a URL with no key is left byte for byte"


# ---------------------------------------------------------------- recording
def _cassette(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_recording_keeps_declared_keys_out_of_the_cassette_and_replays(server: FaultServer, tmp_path: Path) -> None:
    sources = fault_sources(server.url)
    secrets = Secrets.from_sources(sources.values(), ENV)
    path = tmp_path / "recorded.yaml"
    steps = [("fault_query", "echo"), ("fault_header", "echo"), ("fault_query", "unauthorized_echo")]
    with vcr.use_cassette(str(path), **(offline.vcr_config(secrets) | {"record_mode": "once"})):
        _, recorded = _run(server, *steps)
    assert recorded.steps[0].ok and recorded.steps[1].ok
    text = path.read_text(encoding="utf-8")
    assert _leaks(text) == [], "a key was written to the cassette"
    for interaction in _cassette(path)["interactions"]:
        assert "appid" not in interaction["request"]["uri"]
        assert not {k.lower() for k in interaction["request"]["headers"]} & {"x-lab-token"}
    # Filters run on live requests before matching too: the keyless cassette still replays.
    seen = len(server.seen)
    with vcr.use_cassette(str(path), **offline.vcr_config(secrets)):
        _, replayed = _run(server, *steps)
    assert len(server.seen) == seen, "replay reached the server"
    assert [s.ok for s in replayed.steps] == [True, True, False]


def test_the_default_recording_filters_know_the_common_names(server: FaultServer, tmp_path: Path) -> None:
    path = tmp_path / "general.yaml"
    values = {"appid": "v-appid-1234", "apikey": "v-apikey-1234", "token": "v-token-1234", "api_key": "v-api-1234"}
    with vcr.use_cassette(str(path), **(offline.vcr_config() | {"record_mode": "once"})):
        httpx.get(f"{server.url}/ok", params={**values, "q": "GaN"},
                  headers={"X-Lab-Token": "v-header-1234", "Authorization": "Bearer v-bearer-1234"})
    text = path.read_text(encoding="utf-8")
    assert [v for v in [*values.values(), "v-header-1234", "v-bearer-1234"] if v in text] == []
    assert "q=GaN" in text
