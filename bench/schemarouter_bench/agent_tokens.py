"""Tokens of every result schemarouter's own MCP tools give an agent, against the context it needs.

An agent pays for each tool result in its prompt. This starts ``schemarouter mcp --no-live`` over
stdio on a registry synced from the installed plugins, talks to it with the MCP SDK's client (a
real session, as an agent's host would), and counts in cl100k tokens the text content of every
tool's result: ``plan``, ``run`` (the default lean result, and with ``include_plan``),
``list_sources`` and ``describe_source``, plus the tool list itself. For each ``run`` it divides
the result's tokens by those of the rendered context inside it (what a reader model needs); the
target is at most 3x by default.

The questions are answered offline from the recordings the plugins ship (one whose request has no
recording shows what a failed step costs). Part of the ``mcp`` suite: :mod:`schemarouter_bench.mcp_tokens`
puts this table in its report section.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

# Questions the shipped recordings answer (the demo's), and one they do not (a failed step).
QUESTIONS = [
    "What is the molecular weight of aspirin?",
    "What is the formation energy of SmPO4?",
    "Get the arXiv paper 1605.08386",
    "What is the band gap of GaN in the Materials Project?",
]
TARGET = 3.0  # run result tokens per context token, by default


def _text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


async def _session(url: str, home: Path) -> dict[str, Any]:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = {k: v for k, v in os.environ.items() if not k.startswith("SCHEMAROUTER_")}
    env["SCHEMAROUTER_HOME"] = str(home)
    params = StdioServerParameters(command=sys.executable, args=["-m", "schemarouter", "mcp", "--db", url,
                                                                 "--no-live"], env=env)
    seen: dict[str, Any] = {"runs": []}
    # the server's stderr goes to a file of this run's own: the client library's default is whatever
    # sys.stderr was when it was imported, which under a capturing caller has no file descriptor
    home.mkdir(parents=True, exist_ok=True)
    with (home / "mcp-server.log").open("w", encoding="utf-8") as errlog:
        async with Client(stdio_client(params, errlog=errlog), read_timeout_seconds=300) as client:
            tools = (await client.list_tools()).tools
            seen["tools"] = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
            for question in QUESTIONS:
                lean = await client.call_tool("run", {"question": question})
                full = await client.call_tool("run", {"question": question, "include_plan": True})
                plan = await client.call_tool("plan", {"question": question})
                seen["runs"].append({"question": question, "lean": _text(lean), "full": _text(full),
                                     "plan": _text(plan), "error": lean.is_error})
            seen["list_sources"] = _text(await client.call_tool("list_sources", {}))
            seen["describe_source"] = _text(await client.call_tool("describe_source", {"source_id": "materials_project"}))
    return seen


def measure() -> dict[str, Any]:
    """Sync a registry, hold one MCP session with the server, count every result's tokens."""
    from schemarouter.declarations import collect
    from schemarouter.plugins import make_plugin_manager
    from schemarouter.registry import Registry
    from schemarouter.service.mcp_server import tool_definition_tokens
    from schemarouter.tokens import count_tokens

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'registry.db'}"
        with Registry.open(url) as reg:
            reg.sync(collect(make_plugin_manager()))
        seen = asyncio.run(_session(url, Path(tmp) / "home"))
    runs = []
    for run in seen["runs"]:
        lean = json.loads(run["lean"]) if not run["error"] else {}
        context = count_tokens(lean.get("context", ""))
        tokens = count_tokens(run["lean"])
        runs.append({
            "question": run["question"], "status": lean.get("status", "error"), "context_tokens": context,
            "run_tokens": tokens, "ratio": round(tokens / context, 2) if context else None,
            "run_include_plan_tokens": count_tokens(run["full"]), "plan_tokens": count_tokens(run["plan"]),
        })
    context_sum = sum(r["context_tokens"] for r in runs)
    run_sum = sum(r["run_tokens"] for r in runs)
    return {
        "server": "schemarouter mcp --no-live (stdio, mcp SDK client)",
        "tools": len(seen["tools"]),
        "tool_list_tokens": tool_definition_tokens(seen["tools"]),
        "tool_list_tokens_with_output_schema": tool_definition_tokens(seen["tools"], with_output_schema=True),
        "runs": runs,
        "context_tokens": context_sum,
        "run_tokens": run_sum,
        "ratio": round(run_sum / context_sum, 2) if context_sum else None,
        "target": TARGET,
        "list_sources_tokens": count_tokens(seen["list_sources"]),
        "describe_source_tokens": count_tokens(seen["describe_source"]),
    }


def section(data: dict[str, Any] | None) -> list[str]:
    """The table and totals for the report (inside the MCP section), or nothing when not measured."""
    if not data:
        return []
    from schemarouter_bench.report import md_table

    rows = [[r["question"], r["status"], str(r["context_tokens"]), str(r["run_tokens"]),
             f"{r['ratio']:.2f}x" if r["ratio"] is not None else "-", str(r["run_include_plan_tokens"]),
             str(r["plan_tokens"])] for r in data["runs"]]
    verdict = "within" if data["ratio"] is not None and data["ratio"] <= data["target"] else "**over**"
    return [
        "### schemarouter's own MCP tools: tokens of every result",
        "",
        (f"Every tool result an agent receives from `{data['server']}`, counted in cl100k tokens (the text "
         f"content, compact JSON). `run` answers by default with the rendered context, the values by record, "
         f"the planned fields no record returned and the step errors; `include_plan` adds the plan and every "
         f"step in full. Measured by `bench/schemarouter_bench/agent_tokens.py`."),
        "",
        *md_table(["question", "status", "context tokens", "run (default)", "run / context",
                   "run with include_plan", "plan"], rows),
        "",
        (f"Over the {len(data['runs'])} questions: {data['run_tokens']:,} tokens of `run` results for "
         f"{data['context_tokens']:,} of context, {data['ratio']}x ({verdict} the {data['target']:g}x target). "
         f"Tool list: {data['tool_list_tokens']:,} tokens for {data['tools']} tools "
         f"({data['tool_list_tokens_with_output_schema']:,} with their output schemas); `list_sources` "
         f"{data['list_sources_tokens']:,}; `describe_source materials_project` {data['describe_source_tokens']:,}."),
        "",
    ]


def main() -> None:
    """Measure and print (JSON)."""
    print(json.dumps(measure(), indent=2))


if __name__ == "__main__":
    main()
