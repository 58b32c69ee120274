"""``sources check --live`` on a database source: one read-only ``SELECT ... LIMIT 1`` per endpoint, and
the schema drift since the import (a column gone, a type changed, a view dropped), on SQLite and Postgres."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.sql_support import Lab, lab, template  # noqa: F401  (fixtures)
from tests.sr_cli import run_main


def _check(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lab: Lab,
           *args: str) -> tuple[int, dict[str, Any]]:
    ran = run_main(capsys, monkeypatch, "sources", "check", "labdb", "--db", lab.registry, "--json", *args)
    data = json.loads(ran.out)
    return ran.code, {f"{r['source']}.{r['endpoint']}": r for r in data["sources"]}


def test_a_database_is_checked_table_by_table_and_drift_is_named(
    lab: Lab, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = lab.digest()
    code, rows = _check(capsys, monkeypatch, lab, "--live")
    assert code == 0 and {r["status"] for r in rows.values()} == {"ok"}, rows
    assert len(rows) == 8 and rows["labdb.measurements"]["records"] == 1
    assert rows["labdb.measurements"]["request"] == "SELECT 8 column(s) FROM measurements LIMIT 1"
    assert lab.digest() == before, "a check only reads"
    if lab.engine == "sqlite":
        lab.execute("ALTER TABLE measurements DROP COLUMN density; ALTER TABLE measurements DROP COLUMN resistivity;"
                    "ALTER TABLE measurements ADD COLUMN resistivity TEXT; ALTER TABLE measurements ADD COLUMN extra INT;"
                    "DROP VIEW sample_band_gaps;")
        was = "REAL"
    else:
        lab.execute("ALTER TABLE measurements DROP COLUMN density; ALTER TABLE measurements ALTER COLUMN resistivity "
                    "TYPE text; ALTER TABLE measurements ADD COLUMN extra integer; DROP VIEW sample_band_gaps;")
        was = "DOUBLE PRECISION"
    code, rows = _check(capsys, monkeypatch, lab, "--live")
    assert code == 1, "drift fails the check"
    changed = rows["labdb.measurements"]
    assert changed["status"] == "drift" and changed["fields"]["missing"] == ["density"]
    assert changed["fields"]["type_changes"] == [f"resistivity: {was} -> TEXT"]
    assert changed["fields"]["undeclared"] == ["extra"], "a new column is reported, not drift by itself"
    assert rows["labdb.measurements_of_sample"]["status"] == "drift"
    gone = rows["labdb.sample_band_gaps"]
    assert (gone["status"], gone["message"]) == ("drift", "view sample_band_gaps is gone")
    assert rows["labdb.samples"]["status"] == "ok"


def test_offline_a_database_is_not_read(lab: Lab, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    ran = run_main(capsys, monkeypatch, "sources", "check", "labdb", "--db", lab.registry)
    assert ran.code == 0
    assert "labdb" in ran.out and "skipped" in ran.out and "check it with --live" in ran.out
