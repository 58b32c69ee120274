"""The shipped ToolBench suite: its documents import with the one minimal overlay and every gold names
an operation as the importer names it (and, with the MetaTool suite, each ships its license)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from schemarouter_bench.devset import load_tooluse_questions, metatool_root, split_of, toolbench_root
from schemarouter_bench.frozen import load_frozen
from schemarouter_bench.openworld import SpecIndex, build_tooluse_world

ROOT = toolbench_root()


@pytest.mark.parametrize(("root", "license_file", "license_name"), [
    (ROOT, "LICENSE-StableToolBench", "Apache License"),
    (metatool_root(), "LICENSE-MetaTool", "MIT License"),
])
def test_each_tool_suite_ships_its_license_provenance_and_a_minimal_overlay(
        root: Path, license_file: str, license_name: str) -> None:
    assert license_name in (root / license_file).read_text(encoding="utf-8")
    assert (root / "PROVENANCE.md").is_file()
    overlay = yaml.safe_load((root / "overlay.yaml").read_text(encoding="utf-8"))
    assert set(overlay) == {"source_type", "license"}
    assert overlay["license"]["name"].startswith(license_name.split(" License")[0])


def test_every_gold_step_names_an_operation_of_its_document_as_the_importer_names_it() -> None:
    world = build_tooluse_world(load_frozen(), ROOT)
    questions = load_tooluse_questions(ROOT)
    assert len(questions) >= 400 and all(q.answerable for q in questions)
    # the importer refuses a few documents (nothing it can map); their questions stay, as misses for every router
    assert 0 < len(world.refused) <= 5 and len(world.imported) >= 300
    parts = {split_of(q.id) for q in questions}
    assert parts == {"tune", "test"}
    imported = 0
    for q in questions:
        for option in q.gold_sets:
            (step,) = option  # every relevant API is an answer on its own
            doc = json.loads((ROOT / "docs" / f"{step.source}.json").read_text(encoding="utf-8"))
            assert step.call in SpecIndex(doc), q.id
            if (step.source, step.endpoint) in world.calls:  # imported today: the registry's id and call
                assert world.calls[(step.source, step.endpoint)] == step.call, q.id
                imported += 1
    # a gold the importer does not map today (a refused document, an operation it drops) stays a miss
    assert imported >= 0.95 * sum(len(q.gold_sets) for q in questions)


def test_the_router_is_right_at_least_as_often_as_bm25_top_1_on_either_split() -> None:
    # the floor the router is held to on a registry of real tools nobody tuned it for
    from schemarouter_bench.splits import BM25, SCHEMAROUTER, _dev_suite

    world = build_tooluse_world(load_frozen(), ROOT)
    by_part = _dev_suite(world, load_tooluse_questions(ROOT))
    for part, routers in by_part.items():
        ours, bm25 = routers[SCHEMAROUTER], routers[BM25]
        assert ours["endpoint_set_exact"] >= bm25["endpoint_set_exact"], part
        assert ours["answerable_declined"] <= 0.05, part
