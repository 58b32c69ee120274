"""The open-world suites end to end: known-answer routers over a small registry, and the CLI on a subset."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from schemarouter_bench.devset import (
    TMDB_SOURCE,
    DevQuestion,
    load_dev_questions,
    load_tmdb_queries,
)
from schemarouter_bench.frozen import freeze, inventory_declarations
from schemarouter_bench.openscore import normalize_call
from schemarouter_bench.opensuite import run_dev_suite, run_tmdb_suite
from schemarouter_bench.openworld import OpenWorld, build_open_world, open_world_documents
from schemarouter_bench.routers.bm25 import BM25Router

from schemarouter.plan import Plan, PlanStep

SMALL = ("crossbar", "weatherbit")


def _literal(value: Any) -> Any:
    return value["one_of"][0] if isinstance(value, dict) and "one_of" in value else value


class Oracle:
    """Plans each question's gold exactly (step ids and bindings included); declines the rest."""

    name = "oracle"
    kind = "test"

    def __init__(self, questions: list[DevQuestion]) -> None:
        self.by_query = {q.query: q for q in questions}

    def plan(self, question: str) -> Plan:
        q = self.by_query[question]
        plan = Plan(query=question, registry_fingerprint=None)
        if not q.answerable:
            plan.declined = "asks for an action or for data no source holds"
        for step in q.gold:
            params = {k: _literal(v) for k, v in step.params.items()}
            plan.steps.append(PlanStep(id=step.id, source=step.source, endpoint=step.endpoint, params=params,
                                          fields=list(step.fields)))
        return plan

    def prompt_tokens(self, question: str) -> int:
        return 0


class Decliner:
    name = "decline everything"
    kind = "test"

    def plan(self, question: str) -> Plan:
        return Plan(query=question, registry_fingerprint=None, declined="nothing matches")

    def prompt_tokens(self, question: str) -> int:
        return 0


@pytest.fixture(scope="module")
def world() -> OpenWorld:
    vocabulary = inventory_declarations()
    vocabulary.sources.clear()
    vocabulary.owners.clear()
    base = freeze(vocabulary, "vocabulary only")
    documents = [d for d in open_world_documents() if d.source_id in SMALL or d.source_id == TMDB_SOURCE]
    return build_open_world(base, documents)


@pytest.fixture(scope="module")
def questions() -> list[DevQuestion]:
    return [q for q in load_dev_questions() if all(s.source in SMALL for o in q.gold_sets for s in o)]


def test_the_gold_plan_scores_full_marks_and_declining_scores_none(world: OpenWorld, questions) -> None:  # type: ignore[no-untyped-def]
    doc = run_dev_suite(world, questions, [Oracle(questions), Decliner()])
    oracle, decliner = (r["summary"] for r in doc["routers"])
    english = sum(q.answerable and q.english for q in questions)
    assert oracle["answerable"] == decliner["answerable"] == english >= 40
    assert oracle["endpoint_set_exact"] == oracle["fields_found"] == oracle["required_params_filled"] == 1.0
    assert oracle["chained_exact"] == 1.0 and oracle["chained"] >= 2  # bindings to the gold producer count as filled
    assert oracle["answerable_declined"] == 0.0 and oracle["actions_declined"] == oracle["actions"] == 12
    assert oracle["out_of_scope_declined"] == oracle["out_of_scope"] >= 3
    assert decliner["endpoint_set_exact"] == 0.0 and decliner["answerable_declined"] == 1.0
    assert decliner["fields_found"] == 0.0 and decliner["required_params_filled"] == 0.0
    # Every gold operation is imported (an endpoint without an identifier is imported too).
    assert oracle["gold_not_imported"] == 0 and oracle["importable_exact"] == 1.0
    failures = {f["id"]: f for f in doc["routers"][1]["failures"]}
    assert len(failures) == english + sum(q.answerable and not q.english for q in questions)
    assert all(f["problems"][0].startswith("declined") for f in failures.values())
    assert doc["routers"][0]["failures"] == []
    assert set(doc["routers"][0]["per_api"]) == set(SMALL)


def test_tmdb_chains_the_gold_calls_exactly_where_the_importer_maps_them(world: OpenWorld) -> None:
    by_call = {normalize_call(c): key for key, c in world.calls.items() if key[0] == "tmdb"}
    queries = load_tmdb_queries()

    class ChainOracle:
        name = "chain oracle"
        kind = "test"

        def __init__(self) -> None:
            self.by_query = {q.query: q for q in queries}

        def plan(self, question: str) -> Plan:
            plan = Plan(query=question, registry_fingerprint=None)
            for call in self.by_query[question].solution:
                key = by_call.get(normalize_call(call))
                if key is not None:
                    plan.steps.append(PlanStep(source=key[0], endpoint=key[1], fields=[]))
            return plan

        def prompt_tokens(self, question: str) -> int:
            return 0

    doc = run_tmdb_suite(world, queries, [ChainOracle(), Decliner()])
    oracle, decliner = (r["summary"] for r in doc["routers"])
    missing = oracle["gold_not_imported"]
    assert missing == 0, "every GET of the TMDB document is an endpoint"
    assert oracle["chain_exact"] == pytest.approx((100 - missing) / 100)
    assert oracle["first_correct"] == oracle["endpoints_found"] == oracle["chain_exact"] == 1.0
    assert decliner["no_plan"] == 100 and decliner["endpoints_found"] == decliner["chain_exact"] == 0.0
    assert len(doc["routers"][0]["failures"]) == missing


def test_bm25_top_k_plans_k_distinct_endpoints_best_first(world: OpenWorld) -> None:
    graph = world.frozen.graph
    one = BM25Router(graph).plan("current temperature and humidity in Raleigh")
    two = BM25Router(graph, endpoints=2, name="BM25 top-2").plan("current temperature and humidity in Raleigh")
    assert len(one.steps) == 1 and len(two.steps) == 2
    assert (two.steps[0].source, two.steps[0].endpoint) == (one.steps[0].source, one.steps[0].endpoint)
    assert (two.steps[1].source, two.steps[1].endpoint) != (two.steps[0].source, two.steps[0].endpoint)
    assert (two.steps[0].score or 0) >= (two.steps[1].score or 0)


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str]:
    out = tmp_path_factory.mktemp("open-bench")
    report = out / "report.md"
    proc = subprocess.run(
        [sys.executable, "-m", "schemarouter", "bench", "--quick", "--suite", "imported", "--suite", "tmdb",
         "--json", "--report", str(report)],
        check=False, capture_output=True, text=True, timeout=300, env={"PATH": "/usr/bin:/bin", "HOME": str(out)},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout), report.read_text(encoding="utf-8")


def test_the_cli_runs_both_open_suites_on_a_subset(quick_run: tuple[dict[str, Any], str]) -> None:
    doc, _ = quick_run
    assert doc["routers"] == [] and doc["scaling"] == []  # --suite left the first-party run out
    world = doc["open_world"]
    assert world["registry"]["sources"] == 19 + len(open_world_documents())
    names = ["schemarouter (recall)", "schemarouter (recall, dense on)", "BM25 top-1 endpoint", "BM25 top-2 endpoints"]
    for suite in ("imported", "tmdb"):
        assert [r["name"] for r in world[suite]["routers"]] == names
    imported = world["imported"]
    assert 15 <= imported["questions"] < 40 and imported["kinds"]["action"] >= 1
    for r in imported["routers"]:
        s = r["summary"]
        assert 0.0 <= s["endpoint_set_exact"] <= 1.0 and 0.0 <= s["answerable_declined"] <= 1.0
        assert len(r["queries"]) == imported["questions"]
        assert all({"id", "query", "plan", "problems"} <= set(f) for f in r["failures"])
    assert world["tmdb"]["queries"] == 8
    bm25 = world["tmdb"]["routers"][2]["summary"]
    assert bm25["no_plan"] == 0  # BM25 always has a top endpoint for these questions


def test_the_report_shows_the_open_world_sections_and_their_targets(quick_run: tuple[dict[str, Any], str]) -> None:
    _, report = quick_run
    assert "## Sources nobody tuned the router for" in report
    assert "### Imported-sources dev set" in report and "### RestBench TMDB" in report
    assert "## Planning" not in report  # the first-party sections only when that suite ran
    for target in ("imported sources: endpoint set exact | >= 0.60", "RestBench TMDB: whole chain exact | >= 0.30",
                   "imported sources: action requests declined (of 12) | >= 10",
                   "(TMDB queries), dense on | <= 3 ms"):
        assert target in report
