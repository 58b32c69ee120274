"""Every suite, split into tune and test, schemarouter against BM25's top-1 endpoint on the same registry.

Rules, thresholds and the re-ranker's weights are chosen on the tune split (``fit_rerank``); the test
split is the figure to quote. Suites: the first-party dev set, the imported-sources set, three
held-out scientific APIs, five scientific APIs added after the re-ranker was fitted (their first
figures were measured before any rule looked at them), a large API imported beside TMDB, RestBench TMDB, the tool-use suite
(BFCL and ToolAlpaca functions as thousands of endpoints), the ToolBench suite (RapidAPI tools of
StableToolBench's solvable queries) and the MetaTool suite (tool-selection questions over 199 tools
described in one sentence each, and a further 995 of MetaTool's queries over the same tools, all
tune). With an import corpus (``make corpus``)
the scale condition runs too: the imported-sources set and TMDB again, with the tool-use suite's
documents and every corpus document imported into the same registry as distractors (about 6,000
read endpoints).

    python -m schemarouter_bench.splits [--corpus DIR] [--report docs/benchmark.md]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from schemarouter.plan import Plan
from schemarouter.router import Router
from schemarouter_bench.crowded import build_crowded_world
from schemarouter_bench.devset import (
    SPLITS,
    beside_root,
    heldout_root,
    load_dev_questions,
    load_metatool_more,
    load_tmdb_queries,
    load_tooluse_questions,
    metatool_root,
    science_root,
    split_of,
    toolbench_root,
)
from schemarouter_bench.frozen import Frozen, load_frozen
from schemarouter_bench.metrics import score_plans
from schemarouter_bench.opensuite import run_dev_suite, run_tmdb_suite
from schemarouter_bench.openworld import (
    OpenWorld,
    build_open_world,
    build_tooluse_world,
)
from schemarouter_bench.report import SPLITS_MARKERS
from schemarouter_bench.routers.base import EntityParams
from schemarouter_bench.routers.bm25 import BM25Router
from schemarouter_bench.routers.schemarouter_rows import SchemaRouterRow
from schemarouter_bench.suites import dev_rows

START, END = SPLITS_MARKERS
SCHEMAROUTER = "schemarouter (recall)"
BM25 = "BM25 top-1 endpoint"
Say = Callable[[str], None]


def _routers(world: OpenWorld) -> list[Any]:
    graph = world.frozen.graph
    return [SchemaRouterRow(graph, "recall"), BM25Router(graph, EntityParams(graph), endpoints=1, name=BM25)]


def _dev_first_party(base: Frozen) -> dict[str, Any]:
    rows = dev_rows()
    router = Router(base.graph)
    bm25 = BM25Router(base.graph, EntityParams(base.graph), endpoints=1, name=BM25)
    out: dict[str, Any] = {}
    for part in SPLITS:
        sel = [r for r in rows if split_of(r["id"]) == part]
        out[part] = {}
        planned: dict[str, list[Plan]] = {
            SCHEMAROUTER: [router.plan(r["query"], plan_id=r["id"]) for r in sel],
            BM25: [bm25.plan(r["query"]) for r in sel],
        }
        for name, plans in planned.items():
            scores = score_plans(plans, sel, base.graph)
            scores.pop("queries")
            out[part][name] = {"n": len(sel), "tool_exact": scores["tool_exact"],
                               "field_recall": scores["field_recall"]}
    return out


def _dev_suite(world: OpenWorld, questions: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in SPLITS:
        sel = [q for q in questions if q.part == part]
        result = run_dev_suite(world, sel, _routers(world))
        out[part] = {r["name"]: r["summary"] for r in result["routers"]}
    return out


def _tmdb(world: OpenWorld) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in SPLITS:
        sel = [q for q in load_tmdb_queries() if q.part == part]
        result = run_tmdb_suite(world, sel, _routers(world))
        out[part] = {r["name"]: r["summary"] for r in result["routers"]}
    return out


def measure(corpus: Path | None = None, say: Say | None = None) -> dict[str, Any]:
    """Every suite by split (and, with ``corpus``, the scale condition)."""
    say = say or (lambda _m: None)
    base = load_frozen()
    t0 = time.perf_counter()
    doc: dict[str, Any] = {"suites": {}}
    say("first-party dev set")
    doc["suites"]["first-party"] = _dev_first_party(base)
    say("importing the open-world documents")
    opened = build_open_world(base)
    for name, root in (("imported", None), ("heldout", heldout_root()), ("science", science_root()),
                       ("beside", beside_root())):
        say(f"suite {name}")
        doc["suites"][name] = _dev_suite(opened, load_dev_questions(root))
    say("RestBench TMDB")
    doc["suites"]["tmdb"] = _tmdb(opened)
    say("importing the tool-use suite's documents")
    tooluse = build_tooluse_world(base)
    doc["suites"]["tooluse"] = _dev_suite(tooluse, load_tooluse_questions())
    say("importing the ToolBench suite's documents")
    toolbench = build_tooluse_world(base, toolbench_root())
    doc["suites"]["toolbench"] = _dev_suite(toolbench, load_tooluse_questions(toolbench_root()))
    say("importing the MetaTool suite's documents")
    metatool = build_tooluse_world(base, metatool_root())
    doc["suites"]["metatool"] = _dev_suite(metatool, load_tooluse_questions(metatool_root()))
    doc["suites"]["metatool, more"] = _dev_suite(metatool, load_metatool_more())
    doc["registries"] = {"open": _facts(opened), "tooluse": _facts(tooluse), "toolbench": _facts(toolbench),
                         "metatool": _facts(metatool)}
    if corpus is not None:
        say("importing the corpus beside the open-world documents")
        # the tool-use suite's documents and the corpus: thousands of endpoints nobody wrote a question for
        crowded = build_crowded_world(base, corpus)
        doc["registries"]["crowded"] = _facts(crowded)
        doc["suites"]["imported, crowded"] = _dev_suite(crowded, load_dev_questions())
        doc["suites"]["tmdb, crowded"] = _tmdb(crowded)
    doc["seconds"] = round(time.perf_counter() - t0, 1)
    return doc


def _facts(world: OpenWorld) -> dict[str, Any]:
    graph = world.frozen.graph
    reads = sum(1 for i in graph.endpoints.values() if i.endpoint.access == "read")
    return {"sources": len(graph.decls.sources), "endpoints": len(graph.endpoints), "read_endpoints": reads,
            "refused": len(world.refused)}


# -- the report section ---------------------------------------------------------------------------------
def _f(value: Any) -> str:
    return "-" if value is None else f"{value:.3f}"


def _cells(suite: str, s: dict[str, Any]) -> tuple[str, str]:
    """(the headline figures, what else) of one router's summary."""
    if suite == "first-party":
        return f"{_f(s['tool_exact'])} / {_f(s['field_recall'])}", ""
    if "endpoints_found" in s:
        return f"{_f(s['endpoints_found'])} / {_f(s['chain_exact'])}", ""
    declined = s.get("answerable_declined")
    extra = f"declined {100 * declined:.1f} %" if declined is not None else ""
    if s.get("fields_found") is not None:
        extra = f"gold fields found {s['fields_found']:.3f}; " + extra
    if s.get("actions"):
        extra += f"; actions declined {s['actions_declined']} of {s['actions']}"
        if s.get("actions_with_write"):
            extra += f", the write named for {s['actions_naming_write']} of {s['actions_with_write']}"
    return f"{_f(s['endpoint_set_exact'])} / {_f(s['required_params_filled'])}", extra


def section(doc: dict[str, Any]) -> str:
    """The markdown section, between its markers."""
    lines = [
        START,
        "## Tune and test splits",
        "",
        "Every suite is split once by question id (`split_of`: the SHA-256 of the id, odd = test) before any "
        "rule, threshold or weight is chosen; the re-ranker's weights and decline threshold are fitted on the "
        "tune split only (`python -m schemarouter_bench.fit_rerank`). Headline figures: first-party = tool "
        "exact / field recall; RestBench TMDB = gold endpoints found / whole chain exact; the others = endpoint "
        "set exact / required parameters filled with the gold value; beside them, where the gold names fields, "
        "the share of them the plans fetch, the answerable questions declined, the requests to act declined and, of those whose gold names the write that would do it, "
        "the declines that name it. Written by "
        f"`python -m schemarouter_bench.splits` in {doc['seconds']} s.",
        "",
        "| suite | split | n | schemarouter | BM25 top-1 | schemarouter also |",
        "|---|---|---|---|---|---|",
    ]
    for suite, parts in doc["suites"].items():
        for part in SPLITS:
            rows = parts[part]
            ours, bm = rows[SCHEMAROUTER], rows[BM25]
            n = ours.get("n") or ours.get("answerable") or ours.get("queries")
            if not n:
                continue  # a suite held out whole has no tune split
            head, extra = _cells(suite, ours)
            lines.append(f"| {suite} | {part} | {n} | {head} | {_cells(suite, bm)[0]} | {extra} |")
    regs = doc["registries"]
    lines += ["", "Registries: " + "; ".join(
        f"{name}: {r['sources']} sources, {r['read_endpoints']:,} read endpoints"
        + (f" ({r['refused']} documents refused by the importer)" if r["refused"] else "")
        for name, r in regs.items()) + ".", END]
    return "\n".join(lines)


def write_section(report: Path, text: str) -> None:
    """Put the section into ``report`` (replacing the one there, else before the imported-sources set)."""
    body = report.read_text("utf-8")
    if START in body:
        head, rest = body.split(START, 1)
        body = head + text + rest.split(END, 1)[1]
    else:
        anchor = "### Imported-sources dev set"
        body = body.replace(anchor, text + "\n\n" + anchor, 1) if anchor in body else body + "\n" + text + "\n"
    report.write_text(body, "utf-8")


def main(argv: list[str] | None = None) -> None:
    """Measure every suite by split; print the section, or write it into ``--report``."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    ap.add_argument("--corpus", type=Path, help="an import corpus (make corpus) for the scale condition")
    ap.add_argument("--report", type=Path, help="write the section into this markdown file")
    ap.add_argument("--json", type=Path, help="also write every figure to this JSON file")
    args = ap.parse_args(argv)
    doc = measure(args.corpus, say=lambda m: print(f"... {m}", flush=True))
    text = section(doc)
    if args.json:
        args.json.write_text(json.dumps(doc, indent=2, default=str), "utf-8")
    if args.report:
        write_section(args.report, text)
    print(text)


if __name__ == "__main__":
    main()
