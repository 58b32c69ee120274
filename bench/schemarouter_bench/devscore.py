"""Score the router on a gold query file (dev.jsonl by default) and print the planning metrics.

``python -m schemarouter_bench.devscore [--db URL] [--mode recall|minimal] [--file F] [-v]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from schemarouter.router import Router
from schemarouter_bench import data_path
from schemarouter_bench.metrics import score_plans


def main(argv: list[str] | None = None) -> None:
    """Plan every dev question, score the plans and print the metrics (and, verbose, each flawed plan)."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--db", default=None)
    ap.add_argument("--file", default=None)
    ap.add_argument("--mode", default="recall", choices=["recall", "minimal"])
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    path = Path(args.file) if args.file else data_path("dev.jsonl")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    router = Router.from_registry(args.db)
    plans, times = [], []
    for row in rows:
        t0 = time.perf_counter()
        plans.append(router.plan(row["query"], mode=args.mode, plan_id=row["id"]))
        times.append((time.perf_counter() - t0) * 1000)
    result = score_plans(plans, rows, router.graph)
    for q in result.pop("queries"):
        flawed = (not q.tool_exact or q.missing_fields or q.param_misses or not q.executable
                  or (q.negative and not q.declined))
        if args.verbose and flawed:
            plan = next(p for p in plans if p.id == q.id)
            print(q.id, "exact" if q.tool_exact else "WRONG", [s.source for s in plan.steps], plan.declined or "",
                  "missing", q.missing_fields, q.param_misses, "" if q.executable else "NOT EXECUTABLE")
    for key, value in result.items():
        print(f"{key:24s} {value:.3f}" if isinstance(value, float) else f"{key:24s} {value}")
    times.sort()
    print(f"{'latency_ms_median':24s} {statistics.median(times):.3f}")
    print(f"{'latency_ms_p95':24s} {times[int(0.95 * (len(times) - 1))]:.3f}")


if __name__ == "__main__":
    main()
