"""``schemarouter plan``: table, --json, --jsonl, --explain, errors."""

from __future__ import annotations

import json

from click.testing import CliRunner

from schemarouter.cli import cli
from tests.routing_support import routing_db  # noqa: F401


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_plan_json(routing_db: str) -> None:
    result = run("plan", "What is the band gap of LiFePO4 in the Materials Project?", "--json", "--db", routing_db)
    assert result.exit_code == 0, result.output
    plan = json.loads(result.output)
    assert plan["steps"][0]["source"] == "materials_project"
    assert plan["registry_fingerprint"].startswith("sha256:")
    assert plan["understanding"]["params"]["formula"] == "LiFePO4"
    assert plan["steps"][0]["meta"]["band_gap"]["unit"] == "eV"


def test_plan_table_and_explain(routing_db: str) -> None:
    result = run("plan", "boiling point of acetone", "--explain", "--db", routing_db)
    assert result.exit_code == 0, result.output
    assert "pubchem.experimental_properties" in result.output
    assert "boiling_point" in result.output and "intent evidence" in result.output


def test_plan_minimal_mode(routing_db: str) -> None:
    result = run("plan", "MP band gap of GaN", "--json", "--mode", "minimal", "--db", routing_db)
    assert json.loads(result.output)["steps"][0]["fields"] == ["material_id", "band_gap"]


def test_plan_jsonl_keeps_ids(routing_db: str, tmp_path) -> None:
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"id": "a", "query": "band gap of GaN in MP"}\n\n{"id": "b", "query": "weather tomorrow?"}\n')
    out = tmp_path / "plans.jsonl"
    result = run("plan", "--jsonl", str(queries), "--output", str(out), "--db", routing_db)
    assert result.exit_code == 3, result.output  # one line planned, one declined
    plans = [json.loads(line) for line in out.read_text().splitlines()]
    assert [p["id"] for p in plans] == ["a", "b"]
    assert plans[0]["steps"] and plans[1]["declined"]
    assert [p["status"] for p in plans] == ["ok", "declined"]


def test_plan_jsonl_stdin_and_bad_line(routing_db: str) -> None:
    result = run("plan", "--jsonl", "-", "--db", routing_db, input='{"id": 1, "query": "MP band gap of Si"}\n')
    assert json.loads(result.output)["id"] == "1"
    bad = run("plan", "--jsonl", "-", "--db", routing_db, input="not json\n")
    assert bad.exit_code != 0


def test_batch_lines_may_say_question_like_the_http_api(routing_db: str, tmp_path) -> None:
    lines = '{"id": "q", "question": "MP band gap of Si"}\n{"id": "both", "query": "x", "question": "x"}\n'
    result = run("plan", "--jsonl", "-", "--db", routing_db, input=lines)
    assert result.exit_code == 3, result.output  # "x" is declined
    plans = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert [p["query"] for p in plans] == ["MP band gap of Si", "x"]
    assert plans[0]["steps"][0]["source"] == "materials_project"
    differ = run("plan", "--jsonl", "-", "--db", routing_db, input='{"query": "a", "question": "b"}\n')
    assert differ.exit_code == 1 and '"query" (or "question")' in str(differ.exception)


def test_plan_needs_a_question(routing_db: str) -> None:
    assert run("plan", "--db", routing_db).exit_code == 2


def test_declined_plan_prints_reason(routing_db: str) -> None:
    result = run("plan", "Book me a flight to Boston", "--db", routing_db)
    assert result.exit_code == 4 and "declined" in result.output


def test_minimal_mode_keeps_to_the_questions_own_intent(routing_db: str) -> None:
    # no field is named: minimal takes only the field groups of the question's intent (plus the
    # identifier), recall those of every intent the endpoint serves
    def plan(mode: str) -> dict:
        result = run("plan", "crystal structure of NaCl", "--json", "--mode", mode, "--db", routing_db)
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    minimal, recall = plan("minimal"), plan("recall")
    [step] = minimal["steps"]
    assert minimal["understanding"]["intent"] == "crystal_structure"
    assert {"spacegroup_symbol", "crystal_system"} <= set(step["fields"])
    assert all(step["why"][f] == "identifier of the record" or "crystal_structure" in step["why"][f]
               for f in step["fields"])
    assert not {"band_gap", "k_vrh", "total_magnetization"} & set(step["fields"])
    assert len(step["fields"]) <= 8 < len(recall["steps"][0]["fields"])


def test_a_command_imports_only_its_own_module() -> None:
    import subprocess
    import sys

    probe = ("import sys; from schemarouter.cli import cli, own_command; own_command('plan'); "
             "print(sorted(m for m in ('schemarouter.cli.run_cmd', 'schemarouter.cli.ask_cmd', "
             "'schemarouter.cli.serve_cmd', 'httpx') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", "plan imports what run, ask or serve need"


def test_every_own_command_is_listed_and_resolves_to_its_name() -> None:
    from schemarouter.cli import OWN_COMMANDS, own_command

    listed = run("--help").output
    for name in OWN_COMMANDS:
        assert own_command(name).name == name
        assert f"  {name} " in listed


def test_explain_shows_the_rerankers_best_candidates_with_their_evidence(routing_db: str) -> None:
    result = run("plan", "boiling point of acetone", "--explain", "--db", routing_db)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    header = next(i for i, line in enumerate(lines) if "re-ranked" in line and "probability" in line)
    assert "retrieval" in lines[header] and "route's pick" in lines[header]
    # the planned endpoint heads the re-ranked table, with the routes' pick marked and a probability
    first = next(line for line in lines[header + 1:] if "." in line and "pubchem" in line)
    assert "pubchem.experimental_properties" in first
    cells = [c.strip() for c in first.split("│") if c.strip()]
    assert 0.5 < float(cells[1]) <= 1.0 and cells[3] == "1.00"
