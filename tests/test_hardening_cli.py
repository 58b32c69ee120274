"""The hardening seen from the command line: timeouts and deadlines, redaction, cassette and name errors.

``schemarouter run --plan`` runs a local source (added with ``source add``) whose API is the fault
server on 127.0.0.1 and whose key goes in an ``appid`` query parameter.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from schemarouter.errors import SchemaRouterError
from schemarouter.execution.limits import ExecutionLimits, resolve_limits
from schemarouter.scaffold import FIRST_PARTY
from schemarouter.testing.faultserver import FaultOptions, FaultServer
from tests.sr_cli import REPO, copy_registry, run_main, synced_template

KEY = "cli-key-7d1e55b2c0"
PATHS = ("ok", "trickle", "unauthorized-echo", "echo")


@pytest.fixture(scope="module")
def server() -> Any:
    with FaultServer(FaultOptions(trickle_interval_s=0.05)) as fs:
        yield fs


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synced_template(tmp_path_factory.mktemp("template"))


@pytest.fixture
def db(template: Path, tmp_path: Path, server: FaultServer, capsys: pytest.CaptureFixture[str],
       monkeypatch: pytest.MonkeyPatch) -> str:
    url = copy_registry(template, tmp_path)
    source = {
        "id": "faulty_lab", "title": "Faulty lab", "domain": "materials", "source_type": "experimental",
        "description": "A local source served by the fault server.",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "auth": {"env": "FAULTY_LAB_KEY", "in": "query", "name": "appid"},
        "endpoints": [{
            "id": path.replace("-", "_"), "base_url": server.url, "path": f"/{path}",
            "intents": ["material_property"],
            "fields": [
                {"name": "sample_id", "path": "id", "type": "string", "group": "identity", "identifier": True},
                {"name": "formula", "path": "formula", "type": "string", "group": "composition"},
            ],
            "adapter": {"records": "data"},
        } for path in PATHS],
    }
    path = tmp_path / "faulty.yaml"
    path.write_text(yaml.safe_dump(source))
    added = run_main(capsys, monkeypatch, "source", "add", str(path), "--db", url)
    assert added.code == 0, added.err
    return url


def _plan(tmp_path: Path, *endpoints: str) -> str:
    plan = {"query": "q", "registry_fingerprint": None, "steps": [
        {"source": "faulty_lab", "endpoint": e, "params": {}, "fields": ["formula"]} for e in endpoints
    ]}
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan))
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str, plan: str, *extra: str,
         env: dict[str, str] | None = None) -> Any:
    monkeypatch.setenv("FAULTY_LAB_KEY", KEY)
    monkeypatch.setenv("SCHEMAROUTER_HOME", str(Path(db.removeprefix("sqlite:///")).parent / "home"))
    for name in ("SCHEMAROUTER_TIMEOUT", "SCHEMAROUTER_STEP_DEADLINE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in (env or {}).items():
        monkeypatch.setenv(name, value)
    # No cache (every run must reach the server) and no fallback (the faults are the point).
    return run_main(capsys, monkeypatch, "run", "q", "--db", db, "--plan", plan, "--no-cache", "--no-fallback", *extra)


# ---------------------------------------------------------------- timeouts
def test_timeout_and_deadline_come_from_options_or_the_environment(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = _plan(tmp_path, "trickle", "ok")
    by_option = _run(capsys, monkeypatch, db, plan, "--timeout", "0.3")
    assert by_option.code == 3, by_option.err  # partial: one step failed, one returned values
    assert "faulty_lab.trickle: ERROR timeout" in by_option.out and "within 0.3 s" in by_option.out
    assert "faulty_lab.ok: 1 record(s)" in by_option.out, "the other step still returns"
    by_env = _run(capsys, monkeypatch, db, plan, env={"SCHEMAROUTER_TIMEOUT": "0.25"})
    assert "within 0.25 s" in by_env.out
    deadline = _run(capsys, monkeypatch, db, plan, "--deadline", "0.4", env={"SCHEMAROUTER_TIMEOUT": "600"})
    assert "step took longer than 0.4 s" in deadline.out
    bad = _run(capsys, monkeypatch, db, plan, env={"SCHEMAROUTER_STEP_DEADLINE": "soon"})
    assert bad.code == 1 and bad.err.strip() == "Error: SCHEMAROUTER_STEP_DEADLINE must be a number of seconds, not 'soon'"
    negative = _run(capsys, monkeypatch, db, plan, "--timeout", "-1")
    assert negative.code == 1 and "--timeout must be a positive number of seconds" in negative.err


def test_resolution_order_is_option_environment_config_default() -> None:
    assert resolve_limits(env={}) == ExecutionLimits()
    table = {"timeout": 7, "step_deadline": "70"}
    assert resolve_limits(env={}, config=table) == ExecutionLimits(7.0, 70.0)
    env = {"SCHEMAROUTER_TIMEOUT": "5", "SCHEMAROUTER_STEP_DEADLINE": " "}
    assert resolve_limits(env=env, config=table) == ExecutionLimits(5.0, 70.0)
    assert resolve_limits(timeout=2, deadline="9", env=env, config=table) == ExecutionLimits(2.0, 9.0)
    with pytest.raises(SchemaRouterError, match=r"\[execution\] step_deadline must be a positive number"):
        resolve_limits(env={}, config={"step_deadline": float("inf")})
    with pytest.raises(SchemaRouterError, match="not True"):
        resolve_limits(env={}, config={"timeout": True})


# ---------------------------------------------------------------- redaction through the CLI
def test_run_output_and_json_never_show_the_key(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = _plan(tmp_path, "ok", "unauthorized_echo", "echo")
    shown = _run(capsys, monkeypatch, db, plan)
    assert shown.code == 3, shown.err
    assert "appid=REDACTED" in shown.out and "ERROR http_status" in shown.out
    as_json = _run(capsys, monkeypatch, db, plan, "--json")
    document = json.loads(as_json.out)
    assert document["steps"][0]["request"].endswith("appid=REDACTED")
    assert KEY not in shown.out + shown.err + as_json.out + as_json.err


# ---------------------------------------------------------------- offline replay errors
@pytest.mark.parametrize(
    ("cassette", "message"),
    [
        ("interactions: [\n  - {request: {method: GET", "is not valid YAML"),
        ("just: a mapping\n", "is not a VCR cassette (no 'interactions' list)"),
        (("interactions:\n- request: {method: GET, uri: 'https://x.org/a', body: null, headers: {}}\n"
          "  response: {body: {string: '{}'}, headers: {}, status: {message: OK}}\n"),
         "interaction 1: response.status.code is missing"),
    ],
)
def test_a_broken_cassette_is_one_line_naming_the_file(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    cassette: str, message: str,
) -> None:
    folder = tmp_path / "cassettes" / "faulty_lab"
    folder.mkdir(parents=True)
    (folder / "broken.yaml").write_text(cassette)
    result = _run(capsys, monkeypatch, db, _plan(tmp_path, "ok"), "--offline", "--cassettes", str(folder.parent))
    assert result.code == 1 and "Traceback" not in result.err
    [line] = result.err.strip().splitlines()
    assert "broken.yaml" in line and message in line


def test_a_request_no_cassette_holds_is_a_step_error(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    result = _run(capsys, monkeypatch, db, _plan(tmp_path, "ok"), "--offline",
                  "--cassettes", str(REPO / "plugins" / "schemarouter-crossref" / "schemarouter_crossref" / "recordings"))
    assert result.code == 4, result.err  # nothing returned
    assert "faulty_lab.ok: ERROR no_recording: faulty_lab: offline replay has no recording for GET" in result.out
    assert KEY not in result.out and "appid=REDACTED" in result.out


# ---------------------------------------------------------------- plugin new
def test_plugin_new_refuses_a_taken_id(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                       tmp_path: Path) -> None:
    taken = run_main(capsys, monkeypatch, "plugin", "new", "oqmd", "--dir", str(tmp_path))
    assert taken.code == 1 and "belongs to the first-party plugin schemarouter-oqmd" in taken.err
    # Installed plugins are found by what they register, not only by the first-party list.
    monkeypatch.setattr("schemarouter.scaffold.FIRST_PARTY", frozenset())
    installed = run_main(capsys, monkeypatch, "plugin", "new", "materials-project", "--dir", str(tmp_path))
    assert installed.code == 1 and "belongs to the installed plugin" in installed.err
    assert list(tmp_path.iterdir()) == [], "nothing was written"


def test_a_100_kb_plugin_name_is_not_echoed_whole(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    result = run_main(capsys, monkeypatch, "plugin", "new", "a" * 100_000, "--dir", str(tmp_path))
    assert result.code == 1 and len(result.err) < 300 and "at most 50 characters" in result.err


def test_the_first_party_list_is_the_plugins_folder() -> None:
    folders = {p.name.removeprefix("schemarouter-").replace("-", "_") for p in (REPO / "plugins").iterdir()
               if p.is_dir() and p.name.startswith("schemarouter-")}
    assert folders == FIRST_PARTY
