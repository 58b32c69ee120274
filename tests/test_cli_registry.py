"""The registry and db commands as a user runs them, including bad input: one line, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


def _one_line_error(result) -> str:  # type: ignore[no-untyped-def]
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


def test_sync_list_show_stats_on_the_default_sqlite_registry(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    first = run_cli("registry", "sync")
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("registry synced: 19 added")
    assert (tmp_path / "home" / "registry.db").exists(), "SCHEMAROUTER_HOME decides where the default registry is"
    second = run_cli("registry", "sync")
    assert second.stdout.startswith("registry unchanged (19 sources")
    stats = run_cli("registry", "stats")
    assert "19 sources / 22 endpoints / 122 parameters / 166 fields" in stats.stdout
    listed = json.loads(run_cli("registry", "list", "--json").stdout)
    assert len(listed) == 19 and {"id", "title", "source_type", "endpoints", "fields", "owner"} <= set(listed[0])
    shown = run_cli("registry", "show", "materials_project")
    assert "k_vrh" in shown.stdout and "bulk_modulus.vrh" in shown.stdout and "$MP_API_KEY" in shown.stdout
    shown_json = json.loads(run_cli("registry", "show", "oqmd", "--json").stdout)
    assert shown_json["endpoints"][0]["id"] == "formationenergy"


def test_export_then_import_into_an_empty_database_is_identical(run_cli, tmp_path: Path, any_url: str) -> None:  # type: ignore[no-untyped-def]
    assert run_cli("registry", "sync").returncode == 0
    export_file = tmp_path / "registry.json"
    result = run_cli("registry", "export", str(export_file))
    assert result.returncode == 0 and export_file.exists()
    imported = run_cli("registry", "import", str(export_file), "--db", any_url)
    assert imported.returncode == 0, imported.stderr
    again = run_cli("registry", "export", "-", "--db", any_url)
    assert again.stdout.encode() == export_file.read_bytes()


def test_db_upgrade_and_current(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = f"sqlite:///{tmp_path / 'fresh.db'}"
    up = run_cli("db", "upgrade", "--db", db)
    assert up.returncode == 0 and "upgraded" in up.stdout and "from empty" in up.stdout
    assert "already at head" in run_cli("db", "upgrade", "--db", db).stdout
    current = json.loads(run_cli("db", "current", "--db", db, "--json").stdout)
    assert current["up_to_date"] is True and current["current"] == current["head"]


def test_unreachable_database_url(run_cli) -> None:  # type: ignore[no-untyped-def]
    line = _one_line_error(run_cli("registry", "list", "--db", "postgresql+psycopg://postgres:s3cret@127.0.0.1:1/none"))
    assert "cannot connect to postgresql+psycopg://postgres:***@127.0.0.1:1/none" in line
    assert "s3cret" not in line


@pytest.mark.parametrize("url", ["mysql://root@localhost/db", "oracle://x", "not a url"])
def test_unsupported_url_scheme(run_cli, url: str) -> None:  # type: ignore[no-untyped-def]
    line = _one_line_error(run_cli("registry", "stats", "--db", url))
    assert "use sqlite:///PATH or postgresql+psycopg://" in line


def test_corrupt_sqlite_file_is_reported_and_left_alone(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    corrupt = tmp_path / "corrupt.db"
    content = b"this is not a database\x00" * 100
    corrupt.write_bytes(content)
    line = _one_line_error(run_cli("registry", "sync", "--db", f"sqlite:///{corrupt}"))
    assert "is not a SQLite database" in line
    assert corrupt.read_bytes() == content


def test_malformed_import_json_writes_nothing(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert run_cli("registry", "sync").returncode == 0
    before = run_cli("registry", "export", "-").stdout
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "schemarouter-registry", "version": 1, "sources": [')
    line = _one_line_error(run_cli("registry", "import", str(bad)))
    assert "is not valid JSON" in line
    assert run_cli("registry", "export", "-").stdout == before


def test_unknown_source_and_usage_errors(run_cli) -> None:  # type: ignore[no-untyped-def]
    assert run_cli("registry", "sync").returncode == 0
    line = _one_line_error(run_cli("registry", "show", "materials_projct"))
    assert "did you mean 'materials_project'" in line
    usage = run_cli("registry", "frobnicate")
    assert usage.returncode == 2 and "No such command" in usage.stderr


def test_help_explains_the_commands(run_cli) -> None:  # type: ignore[no-untyped-def]
    top = run_cli("--help").stdout
    for word in ("registry", "plugins", "db", "--db URL"):
        assert word in top
    sync_help = run_cli("registry", "sync", "--help").stdout
    assert "Idempotent" in sync_help and "SCHEMAROUTER_DATABASE_URL" in sync_help
