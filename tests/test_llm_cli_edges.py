"""What the commands do when an LLM endpoint is configured and does not answer.

``plan --llm-url`` configures the llm understander (it implies it); with ``--llm-fallback`` the
rules plan instead, and the command says so on stderr and in the plan's ``notes``. ``ask`` with an
unreachable reader still prints the values it fetched, then the error. The endpoint is a closed
port on this machine: connection refused at once, no network needed.
"""

from __future__ import annotations

import json

from tests.routing_support import routing_db  # noqa: F401

NO_LLM = "http://127.0.0.1:9/v1"  # the discard port: nothing listens, the connection is refused
QUESTION = "What is the band gap of GaN in the Materials Project?"


def test_plan_takes_llm_url_and_fails_plainly_without_fallback(run_cli, routing_db: str) -> None:  # type: ignore[no-untyped-def]
    ran = run_cli("plan", "--db", routing_db, "--llm-url", NO_LLM, QUESTION)
    assert ran.returncode == 1, ran.stderr
    assert "127.0.0.1:9" in ran.stderr and "Traceback" not in ran.stderr
    assert ran.stderr.strip().count("\n") == 0, "one error line"


def test_llm_fallback_says_so_on_stderr_and_in_the_plan(run_cli, routing_db: str) -> None:  # type: ignore[no-untyped-def]
    ran = run_cli("plan", "--db", routing_db, "--llm-url", NO_LLM, "--llm-fallback", "--json", QUESTION)
    assert ran.returncode == 0, ran.stderr
    assert "warning: the LLM understander failed, so the rules read the question" in ran.stderr
    plan = json.loads(ran.stdout)
    assert plan["steps"][0]["source"] == "materials_project", "the rules planned it"
    assert len(plan["notes"]) == 1 and "127.0.0.1:9" in plan["notes"][0]
    shown = run_cli("plan", "--db", routing_db, "--llm-url", NO_LLM, "--llm-fallback", QUESTION)
    assert "warning: the LLM understander failed" in shown.stderr


def test_llm_url_belongs_to_the_llm_understander(run_cli, routing_db: str) -> None:  # type: ignore[no-untyped-def]
    ran = run_cli("plan", "--db", routing_db, "--understander", "rules", "--llm-url", NO_LLM, QUESTION)
    assert ran.returncode == 2 and "--llm-url" in ran.stderr


def test_ask_with_an_unreachable_reader_prints_the_values_then_the_error(run_cli) -> None:  # type: ignore[no-untyped-def]
    ran = run_cli("ask", "--offline", "--llm-url", NO_LLM, "What is the molecular weight of aspirin?")
    assert ran.returncode == 1
    assert "MolecularWeight = 180.16 g/mol" in ran.stdout, "the fetched values are not thrown away"
    assert "pubchem 2244" in ran.stdout
    assert "the reader failed" in ran.stderr and "127.0.0.1:9" in ran.stderr and "Traceback" not in ran.stderr
    document = json.loads(run_cli("ask", "--offline", "--json", "--llm-url", NO_LLM,
                                  "What is the molecular weight of aspirin?").stdout)
    assert document["answer"] is None and "127.0.0.1:9" in document["reader_error"]
    assert any(step["records"] for step in document["steps"])
