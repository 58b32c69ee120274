"""The service-load benchmark code measures what it says (not how fast: the figures live in the report)."""

from __future__ import annotations

from typing import Any

import pytest
from schemarouter_bench.dataset import load_queries
from schemarouter_bench.frozen import load_frozen
from schemarouter_bench.load import run_load
from schemarouter_bench.report import load_section
from schemarouter_bench.targets import check


@pytest.fixture(scope="module")
def measured() -> dict[str, Any]:
    questions = [q.query for q in load_queries(None)][:12]
    return run_load(load_frozen(), questions, levels=(1, 4), seconds=0.5)


def test_every_level_answers_plans_without_errors(measured: dict[str, Any]) -> None:
    assert measured["sources"] == 19 and measured["questions"] == 12
    assert [r["clients"] for r in measured["levels"]] == [1, 4]
    for row in measured["levels"]:
        assert row["requests"] > 0 and row["errors"] == 0
        assert row["plans_per_s"] == pytest.approx(row["requests"] / 0.5, rel=0.5)
        assert 0 < row["p50_ms"] <= row["p99_ms"]
        assert row["rss_mb"] > 10 and row["rss_peak_mb"] >= row["rss_mb"]
        assert row["server_cpu_ms_per_plan"] > 0
    assert measured["server_idle_rss_mb"] > 10


def test_mcp_tool_size_is_measured(measured: dict[str, Any]) -> None:
    mcp = measured["mcp"]
    assert mcp["tools"] == 4
    assert 0 < mcp["tokens"] < mcp["tokens_with_output_schema"]


def test_report_and_targets_carry_the_figures(measured: dict[str, Any]) -> None:
    doc = {
        "load": measured,
        "routers": [{"name": "prompt-all", "summary": {"prompt_tokens": 3056}}],
        "scaling": [],
    }
    text = "\n".join(load_section(doc))
    assert text.startswith("## Service load")
    assert f"{measured['mcp']['tokens']:,} tokens" in text and "3,056 tokens" in text
    for row in measured["levels"]:
        assert f"| {row['clients']} | {row['plans_per_s']:,.0f} |" in text
    targets = {t["target"]: t for t in check(doc)}
    assert "plans/s of one server process at 19 sources, 8 clients" in targets
    assert targets["POST /v1/plan p99 at 8 clients"]["measured"] is None, "no 8-client level was run"
