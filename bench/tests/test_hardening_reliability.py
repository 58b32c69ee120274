"""The reliability benchmark's fault set, at test sizes: every fault handled, memory bounded.

It runs in its own process (``python -m schemarouter_bench.reliability --small --json``) so that
the peak RSS it reports belongs to the fault run, not to the test session.
"""

from __future__ import annotations

import json
import subprocess
import sys

from schemarouter_bench.reliability import FAULTS


def test_the_fault_set_is_handled_within_bounded_memory() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "schemarouter_bench.reliability", "--small", "--json"],
        capture_output=True, text=True, timeout=240, check=False,
    )
    report = json.loads(proc.stdout)
    failed = [f"{o['fault']}: {o['problem']}" for o in report["outcomes"] if not o["handled"]]
    assert failed == [] and proc.returncode == 0, failed or proc.stderr[-2000:]
    assert report["tried"] == report["handled"] == len(FAULTS) >= 25
    assert report["concurrent_ok"], "a healthy step beside every fault lost its records"
    # A 64 MiB gzip bomb, a 50 MB body and the rest together: growth stays far below any of them.
    assert report["rss_growth_mb"] < 48, report["rss_growth_mb"]
