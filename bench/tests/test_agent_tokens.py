"""The agent-tokens suite: one real MCP session with ``schemarouter mcp``, every tool result counted."""

from __future__ import annotations

import io

import pytest
from schemarouter_bench.agent_tokens import QUESTIONS, TARGET, measure, section


def test_every_tool_result_is_counted_and_run_stays_lean(monkeypatch: pytest.MonkeyPatch) -> None:
    import mcp.client.stdio

    # the client library's default server log is sys.stderr as it was at import, which under a
    # capturing test runner may have no file descriptor: the session must name a log of its own
    monkeypatch.setattr(mcp.client.stdio.stdio_client.__wrapped__, "__defaults__", (io.StringIO(),))
    data = measure()
    assert data["tools"] == 4 and 0 < data["tool_list_tokens"] < data["tool_list_tokens_with_output_schema"]
    runs = {r["question"]: r for r in data["runs"]}
    assert set(runs) == set(QUESTIONS)
    assert [r["status"] for r in data["runs"]] == ["ok", "ok", "ok", "failed"]
    for r in data["runs"]:
        # the plan and full steps are one parameter away, and cost many times the lean answer
        assert 0 < r["context_tokens"] < r["run_tokens"] < r["run_include_plan_tokens"] / 4
    assert data["ratio"] <= TARGET, data
    assert data["list_sources_tokens"] > 0 and data["describe_source_tokens"] > 0
    shown = "\n".join(section(data))
    assert f"{data['ratio']}x (within the 3x target)" in shown
