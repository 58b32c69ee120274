"""Two real processes syncing the same Postgres registry at once serialize cleanly."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from schemarouter.registry import Registry


@pytest.mark.postgres
def test_two_concurrent_syncs_on_postgres(pg_url: str) -> None:
    Registry.open(pg_url).close()  # create the schema first: the race under test is the sync
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCHEMAROUTER_")}
    command = [sys.executable, "-m", "schemarouter", "registry", "sync", "--db", pg_url, "--json"]
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for _ in range(2)]
    outputs = [p.communicate(timeout=300) for p in procs]
    for proc, (_out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err
    reports = [json.loads(out) for out, _ in outputs]
    added = sorted(len(r["added"]) for r in reports)
    assert added == [0, 19], "exactly one process writes; the other finds it already done"
    assert sorted(r["changed"] for r in reports) == [False, True]
    with Registry.open(pg_url) as reg:
        assert reg.stats()["counts"]["sources"] == 19 and reg.stats()["counts"]["fields"] == 166


def test_two_concurrent_syncs_on_sqlite(tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path / 'r.db'}"
    Registry.open(url).close()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCHEMAROUTER_")}
    command = [sys.executable, "-m", "schemarouter", "registry", "sync", "--db", url, "--json"]
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for _ in range(2)]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [e for _, e in outputs]
    assert sorted(len(json.loads(o)["added"]) for o, _ in outputs) == [0, 19]
