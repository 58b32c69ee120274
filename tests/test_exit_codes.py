"""Exit codes of run, ask and plan (and their --jsonl batches), hints after step errors, and silent
progress bars when output is not a terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from schemarouter.cli import cli
from schemarouter.cli.exit_codes import for_batch, for_status
from schemarouter.execution.hints import hint
from schemarouter.execution.results import StepFailure
from tests.routing_support import routing_db  # noqa: F401

TOKYO = {"source": "wikipedia", "endpoint": "page_summary", "params": {"title": "Tokyo"}, "fields": ["wikibase_item"]}
KYOTO = {**TOKYO, "params": {"title": "Kyoto"}}  # no cassette holds it


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCHEMAROUTER_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("SCHEMAROUTER_CASSETTES", raising=False)


def sr(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def _plan_file(tmp_path: Path, *steps: dict) -> str:  # type: ignore[type-arg]
    path = tmp_path / "plan.json"
    path.write_text(json.dumps({"query": "Tokyo", "registry_fingerprint": None, "steps": list(steps)}))
    return str(path)


def test_every_step_answered_exits_0(routing_db: str) -> None:
    result = sr("run", "--offline", "--db", routing_db, "What is the molecular weight of aspirin?")
    assert result.exit_code == 0, result.output


def test_some_steps_failed_exits_3_with_a_cassettes_hint(routing_db: str, tmp_path: Path) -> None:
    result = sr("run", "--offline", "--db", routing_db, "--plan", _plan_file(tmp_path, TOKYO, KYOTO), "--json")
    assert result.exit_code == 3, result.output
    document = json.loads(result.output)
    assert document["status"] == "partial"
    assert "--cassettes" in document["steps"][1]["hint"] and document["steps"][0]["hint"] is None
    human = sr("run", "--offline", "--db", routing_db, "--plan", _plan_file(tmp_path, TOKYO, KYOTO))
    assert human.exit_code == 3 and "hint: no recording holds this request" in human.output
    assert "not returned for wikipedia.page_summary title=Kyoto: wikibase_item" in human.output
    assert document["steps"][1]["error"]["kind"] == "no_recording" and document["steps"][1]["missing"] == ["wikibase_item"]


def test_nothing_returned_exits_4(routing_db: str, tmp_path: Path) -> None:
    result = sr("run", "--offline", "--db", routing_db, "--plan", _plan_file(tmp_path, KYOTO), "--json")
    assert result.exit_code == 4 and json.loads(result.output)["status"] == "failed"


def test_a_plan_file_runs_without_a_question(routing_db: str, tmp_path: Path) -> None:
    assert sr("run", "--offline", "--db", routing_db, "--plan", _plan_file(tmp_path, TOKYO)).exit_code == 0


def test_declined_exits_4_for_run_ask_and_plan(routing_db: str) -> None:
    for command in ("run", "ask", "plan"):
        extra = ["--offline"] if command != "plan" else []
        result = sr(command, *extra, "--db", routing_db, "Book me a flight to Boston")
        assert result.exit_code == 4, (command, result.output)
        assert "declined" in result.output


def test_ask_exits_like_run(routing_db: str, tmp_path: Path) -> None:
    assert sr("ask", "--offline", "--db", routing_db, "What is the molecular weight of aspirin?").exit_code == 0
    partial = sr("ask", "--offline", "--db", routing_db, "--plan", _plan_file(tmp_path, TOKYO, KYOTO), "--json")
    assert partial.exit_code == 3 and json.loads(partial.output)["status"] == "partial"


def test_usage_errors_exit_2(routing_db: str, tmp_path: Path) -> None:
    assert sr("run", "--db", routing_db).exit_code == 2
    batch = tmp_path / "q.jsonl"
    batch.write_text('{"query": "x"}\n')
    assert sr("run", "--jsonl", str(batch), "a question", "--db", routing_db).exit_code == 2


def test_run_jsonl_writes_a_status_per_line_and_a_batch_code(routing_db: str, tmp_path: Path) -> None:
    batch = tmp_path / "q.jsonl"
    batch.write_text('{"id": "a", "query": "What is the molecular weight of aspirin?"}\n\n'
                     '{"id": "b", "query": "Book me a flight to Boston"}\n')
    out = tmp_path / "out.jsonl"
    result = sr("run", "--offline", "--db", routing_db, "--jsonl", str(batch), "-o", str(out))
    assert result.exit_code == 3, result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["id"], r["status"]) for r in lines] == [("a", "ok"), ("b", "declined")]
    assert lines[0]["steps"][0]["records"] and lines[0]["coverage"]["items"]
    declined_only = sr("run", "--offline", "--db", routing_db, "--jsonl", "-",
                       input='{"query": "Book me a flight to Boston"}\n')
    assert declined_only.exit_code == 4
    assert json.loads(declined_only.output.splitlines()[-1])["status"] == "declined"


def test_a_bad_batch_line_is_one_line_naming_it(routing_db: str, tmp_path: Path) -> None:
    batch = tmp_path / "q.jsonl"
    batch.write_text('{"query": "ok"}\n["not", "an", "object"]\n')
    result = sr("run", "--offline", "--db", routing_db, "--jsonl", str(batch))
    assert result.exit_code == 1 and f"{batch}:2: expected a JSON object" in str(result.exception)


def test_progress_is_silent_when_output_is_not_a_terminal(routing_db: str) -> None:
    result = CliRunner().invoke(cli, ["plan", "--db", routing_db, "--jsonl", "-"],
                                input='{"query": "band gap of GaN in MP"}\n{"query": "MP band gap of Si"}\n')
    assert result.exit_code == 0
    assert all(json.loads(line)["status"] == "ok" for line in result.output.splitlines())
    assert "━" not in result.output and "plans" not in result.output


def test_hints() -> None:
    assert "--offline" in (hint(StepFailure(kind="network", message="pubchem: request failed"), offline=False) or "")
    assert "--offline" in (hint(StepFailure(kind="timeout", message="slow"), offline=False) or "")
    recording = StepFailure(kind="network", message="wikipedia: offline replay has no recording for GET https://x")
    assert "--cassettes" in (hint(recording, offline=True) or "")
    assert "SCHEMAROUTER_CASSETTES" in (hint(recording, offline=True) or "")
    assert hint(StepFailure(kind="network", message="x"), offline=True) is None
    assert "--cassettes" in (hint(StepFailure(kind="no_recording", message="lab: no recorded MCP call"), offline=True) or "")
    assert hint(StepFailure(kind="no_records", message="x"), offline=False) is None


def test_code_tables() -> None:
    assert [for_status(s) for s in ("ok", "partial", "failed", "declined")] == [0, 3, 4, 4]
    assert for_batch(["ok", "ok"]) == 0 and for_batch(["ok", "failed"]) == 3 and for_batch(["partial"]) == 3
    assert for_batch(["failed", "declined"]) == 4


def test_help_documents_codes_and_environment() -> None:
    assert "Exit codes: 0" in sr("run", "--help").output and "Exit codes: 0" in sr("ask", "--help").output
    top = sr("--help").output
    assert "SCHEMAROUTER_DEBUG" in top and "SCHEMAROUTER_CASSETTES" in top and "_SCHEMAROUTER_COMPLETE" in top
