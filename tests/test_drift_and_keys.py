"""Drift warnings (plugins vs registry, a saved plan vs the registry), a read-only ``--db`` that does
not exist, ``run --plan FILE`` without a question, and ``schemarouter keys``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schemarouter.plugins import LOAD_PLUGINS_ENV
from tests.sr_cli import EXAMPLES, db, run_main, template  # noqa: F401  (fixtures)

QUESTION = "What is the molecular weight of aspirin?"
KEY_VARIABLES = ("DART_API_KEY", "MP_API_KEY", "MPDS_KEY", "OPENALEX_API_KEY", "NCBI_API_KEY", "S2_API_KEY",
                 "STACKEXCHANGE_KEY", "HALCYON_TOKEN")


@pytest.fixture
def sr(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SCHEMAROUTER_HOME", str(tmp_path / "home"))
    for name in (*KEY_VARIABLES, "SCHEMAROUTER_CONFIG", "SCHEMAROUTER_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return lambda *args: run_main(capsys, monkeypatch, *args)


def _subset_registry(sr, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path / 'subset.db'}"
    monkeypatch.setenv(LOAD_PLUGINS_ENV, "pubchem,arxiv")
    assert sr("registry", "sync", "--db", url).code == 0
    monkeypatch.delenv(LOAD_PLUGINS_ENV)
    return url


def test_plan_warns_when_the_installed_plugins_differ_from_the_registry(
    sr, db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
) -> None:
    in_step = sr("plan", "--db", db, "--json", QUESTION)
    assert in_step.code == 0 and "warning" not in in_step.err, "a registry synced from these plugins is current"
    subset = _subset_registry(sr, tmp_path, monkeypatch)
    drifted = sr("plan", "--db", subset, "--json", QUESTION)
    assert drifted.code == 0, "a warning, not an error"
    json.loads(drifted.out)  # stdout stays clean JSON
    assert "warning: the installed plugins differ from the registry (not in the registry: aflow" in drifted.err
    assert drifted.err.rstrip().endswith("run: schemarouter registry sync")


def test_a_drift_verdict_is_remembered_per_registry_state_and_a_bad_one_is_made_again(
    sr, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
) -> None:
    subset = _subset_registry(sr, tmp_path, monkeypatch)
    first = sr("plan", "--db", subset, "--json", QUESTION)
    verdicts = list((tmp_path / "home" / "drift-cache").glob("*.json"))
    assert len(verdicts) == 1 and "not in the registry: aflow" in json.loads(verdicts[0].read_text())["drift"]
    verdicts[0].write_text(json.dumps({"drift": "the installed plugins differ (remembered)"}), encoding="utf-8")
    again = sr("plan", "--db", subset, "--json", QUESTION)
    assert "warning: the installed plugins differ (remembered)" in again.err, "the remembered verdict is read"
    verdicts[0].write_text("{torn", encoding="utf-8")
    repaired = sr("plan", "--db", subset, "--json", QUESTION)
    assert repaired.err == first.err, "a verdict file that does not read is compared and written again"
    assert "not in the registry: aflow" in json.loads(verdicts[0].read_text())["drift"]
    other = f"sqlite:///{tmp_path / 'other.db'}"
    monkeypatch.setenv(LOAD_PLUGINS_ENV, "pubchem")
    assert sr("registry", "sync", "--db", other).code == 0
    monkeypatch.delenv(LOAD_PLUGINS_ENV)
    assert "not in the registry: aflow" in sr("plan", "--db", other, "--json", QUESTION).err
    assert len(list((tmp_path / "home" / "drift-cache").glob("*.json"))) == 2, "another registry state, another verdict"


def test_run_plan_file_needs_no_question_and_warns_when_the_plan_is_stale(
    sr, db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
) -> None:
    planned = sr("plan", "--db", db, "--json", QUESTION)
    plan_path = tmp_path / "plan.json"
    plan_path.write_text(planned.out, encoding="utf-8")
    ran = sr("run", "--offline", "--db", db, "--plan", str(plan_path), "--json")
    assert ran.code == 0, ran.err
    assert "warning" not in ran.err and json.loads(ran.out)["query"] == QUESTION
    assert any(s["records"] for s in json.loads(ran.out)["steps"])

    stale = json.loads(planned.out)
    stale["registry_fingerprint"] = "sha256:" + "0" * 64
    plan_path.write_text(json.dumps(stale), encoding="utf-8")
    warned = sr("run", "--offline", "--db", db, "--plan", str(plan_path), "--json")
    assert warned.code == 0 and json.loads(warned.out)["steps"]
    assert f"warning: plan {plan_path} was made on registry sha256:000" in warned.err
    assert "re-plan with: schemarouter plan --json" in warned.err

    other = _subset_registry(sr, tmp_path, monkeypatch)
    stale["steps"][0]["source"] = "materials_project"
    plan_path.write_text(json.dumps(stale), encoding="utf-8")
    foreign = sr("run", "--offline", "--db", other, "--plan", str(plan_path))
    assert "names source(s) this registry does not have (materials_project): it comes from another registry" in foreign.err


def test_run_without_question_or_plan_is_a_usage_error(sr, db: str) -> None:  # type: ignore[no-untyped-def]
    ran = sr("run", "--db", db)
    assert ran.code == 2 and "give a QUESTION, --plan FILE" in ran.err


@pytest.mark.parametrize(("content", "expected"), [
    ("{not json", "plan file {path}: line 1, column 2: invalid JSON"),
    ('{"hello": 1}', "is not a schemarouter plan (expected the JSON of schemarouter plan --json"),
    ('{"query": "q", "registry_fingerprint": null, "steps": [{"tool": "x"}]}',
     "does not match this schemarouter's plan format, perhaps from another version (steps[0].source: Field required"),
])
def test_a_bad_plan_file_is_one_clear_line(sr, db: str, tmp_path: Path, content: str, expected: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "plan.json"
    path.write_text(content, encoding="utf-8")
    ran = sr("run", "--offline", "--db", db, "--plan", str(path))
    assert ran.code == 1 and expected.format(path=path) in ran.err and ran.err.count("\n") == 1, ran.err


@pytest.mark.parametrize("command", [
    ("registry", "list"), ("registry", "stats"), ("registry", "show", "pubchem"), ("registry", "export", "-"),
    ("source", "list"), ("source", "remove", "lab"), ("plan", QUESTION), ("run", "--offline", QUESTION),
    ("sources", "check"), ("keys",), ("db", "current"), ("registry", "graph"),
])
def test_read_only_commands_do_not_create_a_missing_db(sr, tmp_path: Path, command: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "typo" / "registry.db"
    ran = sr(*command, "--db", f"sqlite:///{target}")
    assert ran.code == 1 and f"no registry at sqlite:///{target}: the file does not exist" in ran.err
    assert not target.exists() and not target.parent.exists()


def test_keys_lists_each_variable_once_with_whether_it_is_set_and_never_its_value(
    sr, db: str, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
) -> None:
    assert sr("source", "add", str(EXAMPLES / "halcyon_synthesis.yaml"), "--db", db).code == 0
    monkeypatch.setenv("MP_API_KEY", "mp-secret-value-123456789012345")
    ran = sr("keys", "--db", db, "--json")
    assert ran.code == 0, ran.err
    assert "mp-secret-value" not in ran.out
    rows = {row["env"]: row for row in json.loads(ran.out)}
    assert {"MP_API_KEY", "DART_API_KEY", "NCBI_API_KEY", "HALCYON_TOKEN"} <= set(rows)
    assert rows["MP_API_KEY"]["set"] is True and rows["DART_API_KEY"]["set"] is False
    assert rows["MP_API_KEY"]["required"] is True and rows["NCBI_API_KEY"]["required"] is False
    assert rows["MP_API_KEY"]["sources"] == ["materials_project"]
    assert rows["MP_API_KEY"]["where_to_get"] == ["https://next-gen.materialsproject.org/api"], "the declared key_url"
    assert rows["HALCYON_TOKEN"]["where_to_get"], "else the homepage"
    assert rows["HALCYON_TOKEN"]["sources"] == ["halcyon_synthesis"], "local sources' keys are listed too"
    assert rows["MP_API_KEY"]["sent_as"] == ["header x-api-key"]
    text = sr("keys", "--db", db)
    assert "mp-secret-value" not in text.out and "MP_API_KEY" in text.out
    assert "unset required: DART_API_KEY" in text.out
