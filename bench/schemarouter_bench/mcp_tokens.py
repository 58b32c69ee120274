"""Tokens an agent receives from an MCP tool: the whole result against schemarouter's projected context.

An agent that calls an MCP tool itself gets the whole result in its context: the tool's text
content (which servers fill with the full JSON of the result). schemarouter plans the same
question to the same tool with the same parameters, calls it, and returns only the planned
fields as attributed context lines. For each question below, over the test kit's lab server (an
MCP server built with the official SDK, started locally over stdio and imported with
``docs/examples/lab_mcp_overlay.yaml`` into a registry with every first-party plugin), this module
counts both in cl100k tokens and checks that the answer values are present in both; a question
planned to another tool, or with other parameters, is counted as a miss, never measured.

The section also carries :mod:`schemarouter_bench.agent_tokens`: the tokens of every result
schemarouter's own MCP tools give an agent. ``python -m schemarouter_bench.mcp_tokens [--report
docs/benchmark.md]`` measures this section alone and puts it where the generated report keeps it
(between its markers).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from schemarouter_bench.report import MCP_MARKERS

START, END = MCP_MARKERS
REPO = Path(__file__).resolve().parents[2]
OVERLAY = REPO / "docs" / "examples" / "lab_mcp_overlay.yaml"
# (question, tool, arguments, answer values): the gold call and what the answer must contain
QUESTIONS: list[tuple[str, str, dict[str, Any], list[str]]] = [
    ("What is the band gap of LiFePO4 in the lab materials database?", "get_material", {"formula": "LiFePO4"}, ["3.69"]),
    ("band gap and density of GaN from the lab", "get_material", {"formula": "GaN"}, ["1.73", "5.97"]),
    ("What is the formation energy of TiO2 in the lab?", "get_material", {"formula": "TiO2"}, ["-3.51"]),
    ("What is the space group of SiC in the lab?", "get_material", {"formula": "SiC"}, ["P6_3mc"]),
    ("What is the density of Si in the lab materials database?", "get_material", {"formula": "Si"}, ["2.28"]),
    ("What is the crystal system of TiO2 in the lab?", "get_material", {"formula": "TiO2"}, ["tetragonal"]),
    ("Which lab materials contain Fe?", "search_materials", {"element": "Fe"}, ["LiFePO4"]),
    ("Which lab materials contain Si?", "search_materials", {"element": "Si"}, ["SiC", "Si"]),
]


def direct_text(result: dict[str, Any]) -> str:
    """What an agent reads from a tool result: its text content (else its structured content as JSON)."""
    texts = [c.get("text", "") for c in result.get("content") or [] if isinstance(c, dict) and c.get("type") == "text"]
    return "\n".join(texts) if texts else json.dumps(result.get("structuredContent"), ensure_ascii=False)


def measure() -> dict[str, Any]:
    """Import the lab server, plan and run each question, call each tool directly; counts per question."""
    from schemarouter.api import Router, open_graph
    from schemarouter.declarations import collect
    from schemarouter.execution.mcp_session import McpSession, server_env
    from schemarouter.mcpimport import import_mcp
    from schemarouter.plugins import make_plugin_manager
    from schemarouter.registry import Registry
    from schemarouter.registry.local import add_local_source
    from schemarouter.sources.mcp import McpServer
    from schemarouter.tokens import count_tokens

    server = McpServer(command=[sys.executable, "-m", "schemarouter.testing.mcp_lab"])
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'registry.db'}"
        with Registry.open(url) as reg:
            reg.sync(collect(make_plugin_manager()))
            add_local_source(reg, import_mcp(server, "lab", OVERLAY).local, "mcp: lab")
        router = Router(open_graph(url)[0])

        async def direct(calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
            session = McpSession(server, source="lab", env=server_env(server, os.environ, None, None), headers={},
                                 timeout_s=30, max_bytes=20 * 1024 * 1024)
            await session.open(30)
            try:
                return [await session.call_tool(tool, args, 30) for tool, args in calls]
            finally:
                await session.close()

        results = asyncio.run(direct([(tool, args) for _q, tool, args, _a in QUESTIONS]))
        rows = []
        for (question, tool, args, answers), result in zip(QUESTIONS, results, strict=True):
            plan = router.plan(question)
            planned = [(s.source, s.endpoint, s.params) for s in plan.steps]
            row: dict[str, Any] = {"question": question, "tool": tool, "arguments": args,
                                   "planned": [f"{s}.{e} {json.dumps(p)}" for s, e, p in planned]}
            text = direct_text(result)
            row["direct_tokens"] = count_tokens(text)
            row["answer_in_direct"] = all(a in text for a in answers)
            if planned != [("lab", tool, args)]:
                row["miss"] = "planned " + ("; ".join(row["planned"]) or "nothing")
                rows.append(row)
                continue
            run = router.run(plan, cache=False, fallback=False).to_json()
            context = run["context"]["text"]
            row["projected_tokens"] = run["context"]["tokens"]
            row["answer_in_projected"] = all(a in context for a in answers)
            rows.append(row)
    measured = [r for r in rows if "projected_tokens" in r]
    direct_sum = sum(r["direct_tokens"] for r in measured)
    projected_sum = sum(r["projected_tokens"] for r in measured)
    from schemarouter_bench import agent_tokens

    return {
        "agent": agent_tokens.measure(),
        "server": "schemarouter.testing.mcp_lab (stdio, mcp SDK)", "questions": rows,
        "measured": len(measured), "direct_tokens": direct_sum, "projected_tokens": projected_sum,
        "ratio": round(direct_sum / projected_sum, 1) if projected_sum else None,
        "answers_in_both": sum(1 for r in measured if r["answer_in_direct"] and r["answer_in_projected"]),
    }


def section(data: dict[str, Any] | None) -> list[str]:
    """The report section (between its markers), or nothing when it was not measured."""
    if not data:
        return []
    from schemarouter_bench.report import md_table

    rows = []
    for r in data["questions"]:
        projected = r.get("projected_tokens")
        rows.append([
            r["question"], f"`{r['tool']}`", str(r["direct_tokens"]),
            str(projected) if projected is not None else f"miss: {r['miss']}",
            f"{r['direct_tokens'] / projected:.1f}x" if projected else "-",
            "yes" if r["answer_in_direct"] else "**no**",
            ("yes" if r["answer_in_projected"] else "**no**") if projected is not None else "-",
        ])
    intro = (
        f"An agent that calls an MCP tool directly receives the whole result; schemarouter plans the question to "
        f"the tool, calls it with the planned parameters and returns only the planned fields, with units and "
        f"license. Server: {data['server']}, imported with `docs/examples/lab_mcp_overlay.yaml` beside the 19 "
        f"first-party sources. Direct = the tool's text content for the same call; projected = schemarouter's "
        f"context for the question (cl100k tokens, recall mode). Measured by "
        f"`bench/schemarouter_bench/mcp_tokens.py`; a question planned to another tool or with other parameters "
        f"would count as a miss."
    )
    total = (f"Over the {data['measured']} questions planned to the gold call: {data['direct_tokens']:,} tokens "
             f"direct against {data['projected_tokens']:,} projected ({data['ratio']}x fewer); the answer values "
             f"are present in both for {data['answers_in_both']} of {data['measured']}.")
    from schemarouter_bench.agent_tokens import section as agent_section

    return [START, "## MCP tools: direct result vs projected context", "", intro, "",
            *md_table(["question", "tool", "direct tokens", "projected tokens", "direct / projected",
                       "answer in direct", "answer in projected"], rows),
            "", total, "", *agent_section(data.get("agent")), END, ""]


def splice(report: Path, lines: list[str]) -> None:
    """Put the section into ``report`` where its markers are (else at the end)."""
    block = "\n".join(lines).rstrip("\n")
    text = report.read_text(encoding="utf-8") if report.exists() else ""
    if START in text and END in text:
        head, rest = text.split(START, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    report.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    """Measure and print (JSON); with ``--report FILE``, rewrite the section there."""
    args = sys.argv[1:] if argv is None else argv
    data = measure()
    print(json.dumps(data, indent=2))
    if "--report" in args:
        splice(Path(args[args.index("--report") + 1]), section(data))


if __name__ == "__main__":
    main()
