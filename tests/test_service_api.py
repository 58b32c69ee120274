"""The HTTP API of ``schemarouter serve``, through a real server process on a synced SQLite registry.

One server (offline replay only) serves the whole module; the bad-input tests then check that it
still serves and that the registry did not change.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from schemarouter.graph import build_graph
from schemarouter.registry import Registry
from schemarouter.router import Router
from tests.service_support import Server, serve
from tests.sr_cli import copy_registry, synced_template

ASPIRIN = "What is the molecular weight of aspirin?"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    template = synced_template(tmp_path_factory.mktemp("template"))
    return copy_registry(template, tmp_path_factory.mktemp("registry"))


@pytest.fixture(scope="module")
def server(db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serve(db, tmp_path_factory.mktemp("serve"), "--no-live", "--max-body", "200000") as running:
        yield running


def _snapshot(db: str) -> tuple[str | None, bytes]:
    with Registry.open(db) as registry:
        return registry.fingerprint(), registry.export_bytes()


def test_health_names_the_registry_state(server: Server, db: str) -> None:
    health = server.call("GET", "/healthz").json()
    assert health["registry_fingerprint"] == _snapshot(db)[0]
    assert health["sources"] == 19
    assert health["live_execution"] is False
    assert "poll" in health["registry_watch"]
    assert health["graph_source"] in ("built", "file")  # a fresh server: nothing in memory, no Redis


def test_plan_is_the_routers_plan(server: Server, db: str) -> None:
    question = "What is the band gap of GaN in the Materials Project?"
    response = server.call("POST", "/v1/plan", {"question": question, "mode": "minimal"})
    assert response.status_code == 200, response.text
    with Registry.open(db) as registry:
        expected = Router(build_graph(registry.load(), registry.fingerprint())).plan(question, mode="minimal")
    assert response.json() == expected.model_dump(mode="json")
    assert response.json()["steps"][0]["source"] == "materials_project"


def test_plan_then_run_offline_gives_attributed_values(server: Server) -> None:
    plan = server.call("POST", "/v1/plan", {"question": ASPIRIN}).json()
    response = server.call("POST", "/v1/run", {"plan": plan, "offline": True, "include_plan": True})
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["plan"] == plan and result["offline"] is True
    values = [v for step in result["steps"] for record in step["records"] for v in record["values"].values()]
    weight = next(v for v in values if v["field"] == "MolecularWeight")
    assert float(weight["value"]) == pytest.approx(180.16, abs=0.01)
    assert (weight["unit"], weight["source"], weight["source_type"]) == ("g/mol", "pubchem", "calculated")
    assert weight["license"] and weight["attribution"]
    assert "MolecularWeight=180.16 g/mol" in result["context"]
    assert result["context_tokens"] > 0 and result["registry_fingerprint"] == plan["registry_fingerprint"]
    assert result["status"] == "ok" and "HBondDonorCount" in result["steps"][0]["missing"]
    assert result["not_returned"][0]["fields"] == result["steps"][0]["missing"]


def test_run_a_question_directly_answers_lean(server: Server) -> None:
    # offline left out on a server without live execution: replayed, not refused
    result = server.call("POST", "/v1/run", {"question": ASPIRIN}).json()
    assert result["status"] == "ok" and result["offline"] is True
    assert "plan" not in result and "steps" not in result
    record = next(r for r in result["records"] if "MolecularWeight" in r["values"])
    assert record["source"] == "pubchem" and record["values"]["MolecularWeight"][1] == "g/mol"
    assert "MolecularWeight=180.16 g/mol" in result["context"]
    # a planned field no record carries is named, per step, as the full run document names it
    full = server.call("POST", "/v1/run", {"question": ASPIRIN, "include_plan": True}).json()
    assert "HBondDonorCount" in result["missing"]["pubchem.compound_properties"]
    assert result["missing"]["pubchem.compound_properties"] == full["steps"][0]["missing"]
    assert full["records"] == result["records"] and full["context"] == result["context"]


def test_batch_key_query_is_accepted_for_question(server: Server) -> None:
    planned = server.call("POST", "/v1/plan", {"query": ASPIRIN})
    assert planned.status_code == 200 and planned.json()["query"] == ASPIRIN
    ran = server.call("POST", "/v1/run", {"query": ASPIRIN, "offline": True})
    assert ran.status_code == 200 and ran.json()["records"]


def test_sources_list_and_describe(server: Server) -> None:
    listed = server.call("GET", "/v1/sources").json()
    ids = [s["id"] for s in listed["sources"]]
    assert len(ids) == 19 and ids == sorted(ids)
    mp = next(s for s in listed["sources"] if s["id"] == "materials_project")
    assert mp["auth_env"] == "MP_API_KEY" and mp["license"] and mp["source_type"]
    described = server.call("GET", "/v1/sources/materials_project").json()
    fields = {f["name"]: f for e in described["endpoints"] for f in e["fields"]}
    assert fields["band_gap"]["unit"] == "eV"
    assert described["registry_fingerprint"] == listed["registry_fingerprint"]


def test_openapi_document_uses_the_plan_models(server: Server) -> None:
    doc = server.call("GET", "/openapi.json").json()
    assert {"/v1/plan", "/v1/run", "/v1/sources", "/v1/sources/{source_id}", "/healthz"} <= set(doc["paths"])
    schemas = doc["components"]["schemas"]
    assert {"Plan", "PlanStep", "FieldMeta", "PlanRequest", "RunRequest", "ErrorOut"} <= set(schemas)
    ok = doc["paths"]["/v1/plan"]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": "#/components/schemas/Plan"}


def test_live_runs_refused_when_disabled(server: Server) -> None:
    response = server.call("POST", "/v1/run", {"question": ASPIRIN, "offline": False})
    assert response.status_code == 403
    assert response.json()["code"] == "live_disabled"


BAD = [
    ("malformed JSON", "/v1/plan", b'{"question": "band gap of GaN"', 400, "malformed JSON"),
    ("missing question", "/v1/plan", b'{"mode": "recall"}', 422, "question"),
    ("question of the wrong type", "/v1/plan", b'{"question": 42}', 422, "question"),
    ("unknown mode", "/v1/plan", b'{"question": "band gap of GaN", "mode": "everything"}', 422, "mode"),
    ("unknown key", "/v1/plan", b'{"question": "band gap of GaN", "sql": "drop table"}', 422, "sql"),
    ("empty run", "/v1/run", b'{"offline": true}', 400, "question"),
    ("offline as a string", "/v1/run", b'{"question": "band gap of GaN", "offline": "yes"}', 422, "offline"),
    ("offline as a number", "/v1/run", b'{"question": "band gap of GaN", "offline": 1}', 422, "offline"),
    ("question and query differ", "/v1/plan", b'{"question": "band gap of GaN", "query": "x"}', 422, "not both"),
    ("question and plan", "/v1/run", b'{"question": "x", "plan": {}, "offline": true}', 400, "not both"),
    (
        "plan that is not a plan",
        "/v1/run",
        b'{"plan": {"steps": 3}, "offline": true}',
        422,
        "not a valid plan",
    ),
]


@pytest.mark.parametrize(("what", "path", "raw", "status", "says"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_a_json_4xx(
    server: Server, what: str, path: str, raw: bytes, status: int, says: str
) -> None:
    response = server.call("POST", path, raw=raw)
    assert response.status_code == status, response.text
    body = response.json()
    assert says in body["error"] and body["code"]
    assert "Traceback" not in response.text


def test_oversized_bodies_are_refused(server: Server) -> None:
    big = b'{"question": "' + b"a" * 10_000_000 + b'"}'
    response = server.call("POST", "/v1/plan", raw=big)
    assert response.status_code == 413 and response.json()["code"] == "too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: the cap applies while streaming
        yield b'{"question": "'
        for _ in range(100):
            yield b"a" * 100_000
        yield b'"}'

    import httpx

    streamed = httpx.post(
        server.url + "/v1/plan", content=chunks(), headers={"content-type": "application/json"}
    )
    assert streamed.status_code == 413 and streamed.json()["code"] == "too_large"
    long_question = server.call("POST", "/v1/plan", {"question": "band gap " * 1_000})
    assert long_question.status_code == 413 and "characters" in long_question.json()["error"]


def test_unknown_source_and_route(server: Server) -> None:
    response = server.call("GET", "/v1/sources/materials_projekt")
    assert response.status_code == 404
    assert "materials_project" in response.json()["error"], "the error suggests the close id"
    missing = server.call("GET", "/v2/everything")
    assert missing.status_code == 404 and missing.json()["code"] == "http_404"


def test_plan_from_another_registry_state_is_stale(server: Server) -> None:
    plan = server.call("POST", "/v1/plan", {"question": ASPIRIN}).json()
    plan["registry_fingerprint"] = "sha256:" + "0" * 64
    response = server.call("POST", "/v1/run", {"plan": plan, "offline": True})
    assert response.status_code == 409
    assert response.json()["code"] == "stale_plan" and "stale plan" in response.json()["error"]


def test_plan_naming_a_field_the_source_lacks(server: Server) -> None:
    plan = server.call("POST", "/v1/plan", {"question": ASPIRIN}).json()
    step = plan["steps"][0]
    step["fields"].append("boiling_point_on_mars")
    step["meta"]["boiling_point_on_mars"] = dict(step["meta"][step["fields"][0]])
    response = server.call("POST", "/v1/run", {"plan": plan, "offline": True})
    assert response.status_code == 422
    assert "boiling_point_on_mars" in response.json()["error"] and response.json()["code"] == "invalid_plan"


def test_after_bad_input_the_server_serves_and_the_registry_is_unchanged(server: Server, db: str) -> None:
    before = _snapshot(db)
    for _, path, raw, _, _ in BAD:
        server.call("POST", path, raw=raw)
    server.call("POST", "/v1/plan", raw=b"x" * 300_000)
    after = _snapshot(db)
    assert after == before
    assert server.call("GET", "/healthz").status_code == 200
    assert server.call("POST", "/v1/plan", {"question": ASPIRIN}).json()["steps"]
    assert "Traceback" not in server.log_text()


def test_page_and_its_assets_are_served_from_the_package(server: Server) -> None:
    page = server.call("GET", "/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for asset in ("/static/app.js", "/static/picture.js", "/static/style.css"):
        assert asset in page.text
        assert server.call("GET", asset).status_code == 200
    assert "http://" not in page.text and "https://" not in page.text, (
        "the page loads nothing from the network"
    )


def test_plan_json_round_trips_through_the_plan_model(server: Server) -> None:
    from schemarouter.plan import Plan

    raw = server.call("POST", "/v1/plan", {"question": "Get the arXiv paper 1605.08386"}).json()
    assert Plan.model_validate(raw).model_dump(mode="json") == raw
    assert json.loads(json.dumps(raw)) == raw


def test_an_unexpected_error_is_a_json_500_without_its_details(
    db: str, caplog: pytest.LogCaptureFixture
) -> None:
    from starlette.testclient import TestClient

    from schemarouter.service import Service, ServiceConfig
    from schemarouter.service.api import create_app
    from schemarouter.service.state import RegistryState

    state = RegistryState(db)
    service = Service(state, ServiceConfig())

    def broken(question: object, mode: object = "recall") -> object:
        raise RuntimeError("boom in the router")

    service.plan = broken  # type: ignore[method-assign]
    try:
        with TestClient(create_app(service, watch=False), raise_server_exceptions=False) as client:
            response = client.post("/v1/plan", json={"question": ASPIRIN})
            assert client.get("/healthz").status_code == 200
    finally:
        state.close()
    assert response.status_code == 500
    assert response.json() == {"error": "internal error (logged on the server)", "code": "internal"}
    logged = [r.getMessage() for r in caplog.records if r.name == "schemarouter.service"]
    assert any("RuntimeError: boom in the router" in line for line in logged)
    assert not any("Traceback" in line for line in logged)


def test_the_plan_fast_path_answers_what_the_fastapi_route_answers(db: str) -> None:
    from starlette.testclient import TestClient

    from schemarouter.service import Service, ServiceConfig
    from schemarouter.service.api import create_app
    from schemarouter.service.state import RegistryState

    cases = [
        b'{"question": "What is the band gap of GaN in the Materials Project?"}',
        b'{"question": "Compare the band gap of GaN across MP, JARVIS and AFLOW", "mode": "minimal"}',
        b'{"question": "What is the capital of France?"}',
        *(raw for _, path, raw, _, _ in BAD if path == "/v1/plan"),
        b'{"question": "' + b"band gap " * 1_000 + b'"}',
        b'{"question": "   "}',
    ]
    state = RegistryState(db)
    service = Service(state, ServiceConfig())
    try:
        with (
            TestClient(create_app(service, watch=False, fast_plan=True)) as fast,
            TestClient(create_app(service, watch=False, fast_plan=False)) as routed,
        ):
            for raw in cases:
                headers = {"content-type": "application/json"}
                a = fast.post("/v1/plan", content=raw, headers=headers)
                b = routed.post("/v1/plan", content=raw, headers=headers)
                assert a.status_code == b.status_code, raw[:80]
                if a.status_code == 200:
                    assert a.json() == b.json()
                else:
                    assert a.json()["code"] == b.json()["code"], (raw[:80], a.json(), b.json())
            form = fast.post("/v1/plan", content=b"question=x", headers={"content-type": "text/plain"})
            assert form.status_code == 422, "a body not sent as JSON goes to the route, which refuses it"
    finally:
        state.close()


@pytest.mark.parametrize("command", ["serve", "mcp"])
def test_a_busy_port_is_one_clear_error_and_no_banner(
    db: str, tmp_path_factory: pytest.TempPathFactory, command: str
) -> None:
    import socket
    import subprocess
    import sys

    from tests.service_support import service_env

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        extra = ["--http"] if command == "mcp" else []
        ran = subprocess.run(
            [sys.executable, "-m", "schemarouter", command, *extra, "--db", db, "--no-live", "--port", str(port)],
            capture_output=True, text=True, timeout=120,
            env=service_env(tmp_path_factory.mktemp("busy")),
        )
    assert ran.returncode == 1
    errors = [line for line in ran.stderr.splitlines() if "rror" in line]
    assert errors == [f"Error: cannot serve on 127.0.0.1:{port}: Address already in use"], ran.stderr
    assert " on http://" not in ran.stderr + ran.stdout, "nothing says it serves"
