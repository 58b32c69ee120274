"""Several ``registry sync`` processes on one *empty* database: all succeed, one writes.

Real processes run the real command. Each imports everything first, says it is ready, and waits
at a file barrier, so all of them reach schema creation together — the race happens every run
instead of now and then.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from schemarouter.registry import Registry

PROCESSES = 3
_WORKER = """
import sys, time
from pathlib import Path
from schemarouter.cli import main
import schemarouter.declarations, schemarouter.plugins, schemarouter.registry  # imported before the barrier
barrier = Path(sys.argv[1])
(barrier / f"ready-{sys.argv[2]}").touch()
while not (barrier / "go").exists():
    time.sleep(0.001)
sys.argv = ["schemarouter", "registry", "sync", "--db", sys.argv[3], "--json"]
main()
"""


def _race(url: str, tmp_path: Path) -> list[tuple[int, str, str]]:
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCHEMAROUTER_")}
    procs = [
        subprocess.Popen([sys.executable, "-c", _WORKER, str(barrier), str(i), url],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        for i in range(PROCESSES)
    ]
    deadline = time.monotonic() + 240
    while len(list(barrier.glob("ready-*"))) < PROCESSES:
        assert time.monotonic() < deadline, "workers never got ready"
        assert all(p.poll() is None for p in procs), [p.communicate() for p in procs if p.poll() is not None]
        time.sleep(0.02)
    (barrier / "go").touch()
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        results.append((proc.returncode, out, err))
    return results


def _check(url: str, results: list[tuple[int, str, str]]) -> None:
    for code, _out, err in results:
        assert code == 0, err.strip().splitlines()[-1:] if err.strip() else code
    reports = [json.loads(out) for _, out, _ in results]
    assert sorted(len(r["added"]) for r in reports) == [0] * (PROCESSES - 1) + [19], "exactly one writes"
    with Registry.open(url) as reg:
        counts = reg.stats()["counts"]
        fingerprints = {r["fingerprint"] for r in reports}
        assert counts["sources"] == 19 and fingerprints == {reg.fingerprint()}


def test_concurrent_syncs_on_an_empty_sqlite_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    _check(url, _race(url, tmp_path))


@pytest.mark.postgres
def test_concurrent_syncs_on_an_empty_postgres_database(pg_url: str, tmp_path: Path) -> None:
    _check(pg_url, _race(pg_url, tmp_path))
