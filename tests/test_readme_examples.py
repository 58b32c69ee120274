"""Every ``run``/``ask`` example of the README does what it says: one that runs offline prints the
value it asks about, or says which fields were not returned and exits non-zero; one that needs the
network says so ("live"). The Python example likewise."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

import schemarouter
from schemarouter.cli import cli
from tests.routing_support import routing_db  # noqa: F401

README = Path(__file__).resolve().parents[1] / "README.md"
COMMAND = re.compile(r"^\.venv/bin/schemarouter ((?:run|ask) .*?)\s*(?:#\s*(.*))?$")
PYTHON_RUN = re.compile(r"schemarouter\.run\(\"([^\"]+)\", offline=True\)")


def _examples() -> list[tuple[list[str], str]]:
    found = []
    for line in README.read_text(encoding="utf-8").splitlines():
        m = COMMAND.match(line.strip())
        if m:
            found.append((shlex.split(m.group(1)), m.group(2) or ""))
    return found


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCHEMAROUTER_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("SCHEMAROUTER_CASSETTES", raising=False)
    for name in ("MP_API_KEY", "OPENALEX_API_KEY", "DART_API_KEY", "MPDS_KEY", "SCHEMAROUTER_LLM_URL"):
        monkeypatch.delenv(name, raising=False)


def test_the_readme_has_offline_and_live_examples() -> None:
    examples = _examples()
    assert sum("--offline" in args for args, _ in examples) >= 3
    for args, comment in examples:
        assert "--offline" in args or "live" in comment, f"{args}: an example that needs the network says 'live'"


@pytest.mark.parametrize("args", [args for args, _ in _examples() if "--offline" in args], ids=lambda a: a[-1][:40])
def test_each_offline_example_answers_or_says_what_was_not_returned(args: list[str], routing_db: str) -> None:
    result = CliRunner().invoke(cli, [*args, "--db", routing_db])
    values = [line for line in result.output.splitlines() if " = " in line and "[" in line]
    if result.exit_code == 0:
        assert values, result.output
    else:
        assert result.exit_code in (3, 4) and "not returned for " in result.output, result.output


def test_the_python_example_runs_offline(routing_db: str) -> None:
    questions = PYTHON_RUN.findall(README.read_text(encoding="utf-8"))
    assert questions
    for question in questions:
        result = schemarouter.run(question, db=routing_db, offline=True)
        assert (result.status == "ok" and result.values) or result.not_returned, result
