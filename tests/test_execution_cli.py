"""End to end: ``schemarouter run/ask --offline`` answers from the recorded cassettes with no keys.

These run the real command in a subprocess (router -> executor -> adapters -> VCR replay), so they
cover the README's main-job commands on a fresh machine.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from schemarouter.errors import SchemaRouterError
from schemarouter.execution.context import render_context
from schemarouter.execution.reader import ask_reader, build_messages
from schemarouter.execution.results import Record, RunResult, StepResult, Value
from schemarouter.llm import LLMConfig
from schemarouter.tokens import count_tokens, estimate_tokens

NO_KEYS = {name: "" for name in ("MP_API_KEY", "OPENALEX_API_KEY", "DART_API_KEY", "MPDS_KEY")}


def _values(document: dict, source: str) -> dict[str, object]:
    step = next(s for s in document["steps"] if s["source"] == source and not s["error"])
    return {name: v["value"] for name, v in step["records"][0]["values"].items()}


def test_offline_materials_question(run_cli) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("run", "--offline", "--json", "What is the formation energy of SmPO4?", env=NO_KEYS)
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    values = _values(document, "materials_project")
    assert values["formation_energy_per_atom"] == pytest.approx(-3.4798, abs=1e-4)
    assert document["context"]["tokens"] > 0 and document["context"]["encoding"] == "cl100k_base"
    assert "CC-BY-4.0" in document["context"]["text"]


def test_offline_chemistry_question(run_cli) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("run", "--offline", "What is the molecular weight of aspirin?", env=NO_KEYS)
    assert result.returncode == 0, result.stderr
    assert "MolecularWeight = 180.16 g/mol" in result.stdout
    assert "LicenseRef-NCBI-data-policy" in result.stdout


def test_offline_literature_question(run_cli) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("run", "--offline", "Get the arXiv paper 1605.08386", env=NO_KEYS)
    assert result.returncode == 0, result.stderr
    assert "Heat-bath random walks with Markov bases" in result.stdout
    assert "CC0-1.0" in result.stdout


def test_ask_without_a_reader_prints_the_attributed_values(run_cli) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("ask", "--offline", "What is the molecular weight of aspirin?", env=NO_KEYS)
    assert result.returncode == 0, result.stderr
    assert "no reader configured" in result.stdout
    assert "pubchem 2244" in result.stdout


def test_saved_plan_runs_offline_and_unrecorded_steps_fail_alone(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    plan = {"query": "Tokyo", "registry_fingerprint": None, "steps": [
        {"source": "wikipedia", "endpoint": "page_summary", "params": {"title": "Tokyo"}, "fields": ["wikibase_item"]},
        {"source": "wikipedia", "endpoint": "page_summary", "params": {"title": "Kyoto"}, "fields": ["wikibase_item"]},
    ]}
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan))
    result = run_cli("run", "--offline", "--plan", str(path), "--json", "Tokyo", env=NO_KEYS)
    assert result.returncode == 3, result.stderr  # partial: one step answered, one failed
    assert json.loads(result.stdout)["status"] == "partial"
    tokyo, kyoto = json.loads(result.stdout)["steps"]
    assert tokyo["records"][0]["values"]["wikibase_item"]["value"] == "Q1490"
    assert kyoto["error"]["kind"] == "no_recording" and "no recording" in kyoto["error"]["message"]


def test_missing_cassette_folder_is_a_one_line_error(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("run", "--offline", "--cassettes", str(tmp_path / "none"), "band gap of Si")
    assert result.returncode == 1 and "no cassettes under" in result.stderr


def _run() -> RunResult:
    value = Value(field="band_gap", value=3.69, unit="eV", source="materials_project", source_title="Materials Project",
                  endpoint="summary", record_id="mp-19017", source_type="calculated", license="CC-BY-4.0")
    formula = value.model_copy(update={"field": "formula_pretty", "value": "LiFePO4", "unit": None})
    record = Record(source="materials_project", endpoint="summary", record_id="mp-19017",
                    values={"formula_pretty": formula, "band_gap": value})
    return RunResult(query="q", steps=[StepResult(index=0, source="materials_project", endpoint="summary",
                                                  records=[record])])


def test_context_line_matches_the_design_and_counts_real_tokens() -> None:
    context = render_context(_run())
    assert context.text == "materials_project mp-19017 LiFePO4: band_gap=3.69 eV [calculated; CC-BY-4.0; Materials Project]"
    assert context.tokens == count_tokens(context.text) and 10 < context.tokens < 60
    assert context.estimated_tokens == estimate_tokens(context.text) == (len(context.text) + 3) // 4


def test_reader_posts_chat_completions_with_the_context() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"choices": [{"message": {"content": "3.69 eV (materials_project mp-19017; CC-BY-4.0)"}}]})

    config = LLMConfig.from_env({"SCHEMAROUTER_LLM_URL": "http://llm.local/v1/", "SCHEMAROUTER_LLM_API_KEY": "k"})
    assert config is not None and config.base_url == "http://llm.local/v1"
    answer = ask_reader(config, "band gap?", "line", transport=httpx.MockTransport(handler))
    assert answer.startswith("3.69 eV")
    body = json.loads(seen[0].content)
    assert seen[0].url.path == "/v1/chat/completions" and seen[0].headers["authorization"] == "Bearer k"
    assert body["messages"] == build_messages("band gap?", "line")
    assert LLMConfig.from_env({}) is None


def test_reader_errors_are_one_line() -> None:
    config = LLMConfig(base_url="http://llm.local/v1", model="m")
    with pytest.raises(SchemaRouterError, match="HTTP 500"):
        ask_reader(config, "q", "c", transport=httpx.MockTransport(lambda r: httpx.Response(500, text="x")))


def test_ask_with_a_reader_endpoint_cites_provenance(run_cli) -> None:  # type: ignore[no-untyped-def]
    import http.server
    import threading

    seen: list[dict] = []

    class Reader(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # http.server's naming
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append(body)
            context = body["messages"][-1]["content"]
            answer = "180.16 g/mol (pubchem 2244; LicenseRef-NCBI-data-policy)" if "180.16" in context else "unknown"
            payload = json.dumps({"choices": [{"message": {"role": "assistant", "content": answer}}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:
            return None

    server = http.server.HTTPServer(("127.0.0.1", 0), Reader)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        env = {**NO_KEYS, "SCHEMAROUTER_LLM_URL": f"http://127.0.0.1:{server.server_port}/v1",
               "SCHEMAROUTER_LLM_MODEL": "test-reader"}
        result = run_cli("ask", "--offline", "What is the molecular weight of aspirin?", env=env)
    finally:
        server.shutdown()
    assert result.returncode == 0, result.stderr
    assert "180.16 g/mol (pubchem 2244; LicenseRef-NCBI-data-policy)" in result.stdout
    assert seen and seen[0]["model"] == "test-reader"
    assert "[calculated" in seen[0]["messages"][-1]["content"]  # the attributed context reached the reader
