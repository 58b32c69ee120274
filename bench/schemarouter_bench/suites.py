"""Every suite's tune questions with their gold target endpoints, over the registries they are asked of.

The re-ranker's fit (:mod:`schemarouter_bench.fit_rerank`) and the dense retrieval measurement
(:mod:`schemarouter_bench.dense_recall`) read the same questions: the tune split of the first-party
dev set, the imported-sources set, the held-out APIs (none: they are kept whole for testing), the
API beside TMDB, the tool-use suite, the ToolBench suite, the MetaTool suite and RestBench TMDB. A question's gold target is the last step
of any gold option (for TMDB, the endpoint of the gold chain's last call). Each caller keeps the
questions it needs (by kind and language).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from schemarouter.graph import SchemaGraph
from schemarouter_bench import data_path
from schemarouter_bench.crowded import build_crowded_world
from schemarouter_bench.devset import (
    DevQuestion,
    beside_root,
    heldout_root,
    load_dev_questions,
    load_tmdb_queries,
    load_tooluse_questions,
    metatool_root,
    science_root,
    split_of,
    toolbench_root,
)
from schemarouter_bench.frozen import Frozen, load_frozen
from schemarouter_bench.openscore import normalize_call
from schemarouter_bench.openworld import OpenWorld, build_open_world, build_tooluse_world


def dev_rows() -> list[dict[str, Any]]:
    """The first-party dev set's rows (``dev.jsonl``), as written."""
    return [json.loads(line) for line in data_path("dev.jsonl").read_text("utf-8").splitlines() if line.strip()]


@dataclass(frozen=True)
class TuneQuestion:
    """One tune question: its text, gold target endpoints (empty: the gold calls none the registry
    has), its kind (``answer``, ``action``, ``out_of_scope``) and language."""

    query: str
    targets: frozenset[tuple[str, str]]
    kind: str
    lang: str = "en"


@dataclass
class TuneSuite:
    """One suite's tune questions over the registry they are asked of."""

    name: str
    graph: SchemaGraph
    questions: list[TuneQuestion]


def tune_suites(base: Frozen | None = None, corpus: Path | None = None) -> list[TuneSuite]:
    """The tune split of every suite (a suite held out whole has no questions here); with an import
    ``corpus``, also the imported-sources set and TMDB over the crowded registry
    (:mod:`schemarouter_bench.crowded`)."""
    base = base or load_frozen()
    opened = build_open_world(base)
    tooluse = build_tooluse_world(base)
    toolbench = build_tooluse_world(base, toolbench_root())
    metatool = build_tooluse_world(base, metatool_root())
    out = [TuneSuite("dev", base.graph, [
        TuneQuestion(q["query"], frozenset((o[-1]["source"], o[-1]["endpoint"])
                                           for o in [q["gold"], *q.get("alternatives", [])] if o),
                     "answer" if q["gold"] else "out_of_scope")
        for q in dev_rows() if split_of(q["id"]) == "tune"])]
    out += [_dev_suite(name, graph, questions) for name, graph, questions in (
        ("imported", opened.frozen.graph, load_dev_questions()),
        ("heldout", opened.frozen.graph, load_dev_questions(heldout_root())),
        ("science", opened.frozen.graph, load_dev_questions(science_root())),
        ("beside", opened.frozen.graph, load_dev_questions(beside_root())),
        ("tooluse", tooluse.frozen.graph, load_tooluse_questions()),
        ("toolbench", toolbench.frozen.graph, load_tooluse_questions(toolbench_root())),
        ("metatool", metatool.frozen.graph, load_tooluse_questions(metatool_root())))]
    out.append(_tmdb_suite("tmdb", opened))
    if corpus is not None:
        crowded = build_crowded_world(base, corpus)
        out += [_dev_suite("imported, crowded", crowded.frozen.graph, load_dev_questions()),
                _tmdb_suite("tmdb, crowded", crowded)]
    return out


def _dev_suite(name: str, graph: SchemaGraph, questions: list[DevQuestion]) -> TuneSuite:
    return TuneSuite(name, graph, [
        TuneQuestion(q.query, frozenset((o[-1].source, o[-1].endpoint) for o in q.gold_sets if o), q.kind, q.lang)
        for q in questions if q.part == "tune"])


def _tmdb_suite(name: str, world: OpenWorld) -> TuneSuite:
    calls = {normalize_call(c): k for k, c in world.calls.items()}
    return TuneSuite(name, world.frozen.graph, [
        TuneQuestion(q.query, frozenset({(calls[last][0], calls[last][1])})
                     if (last := normalize_call(q.solution[-1])) in calls else frozenset(), "answer")
        for q in load_tmdb_queries() if q.part == "tune"])
