"""The shipped open-world dev sets: every document imports with its minimal overlay and every gold holds."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import yaml
from schemarouter_bench.dataset import DatasetError
from schemarouter_bench.devset import (
    TMDB_SOURCE,
    dev_apis,
    imported_root,
    load_dev_questions,
    load_tmdb_queries,
    read_questions,
    restbench_root,
    tmdb_overlay,
    tmdb_spec,
)
from schemarouter_bench.openworld import SpecIndex, import_document

from schemarouter.openapi.loader import load_openapi
from schemarouter.openapi.mapper import Mapper
from schemarouter.openapi.overlay import load_overlay
from schemarouter.openapi.report import ImportReport

# What a user must write to import a document; base_url only where the document's server is not absolute.
MINIMAL_KEYS = {"title", "source_type", "license", "auth_env", "auth", "base_url"}
RESERVED = ("spotify", "datacite", "argovis", "mavedb")

APIS = dev_apis()
QUESTIONS = load_dev_questions()


def mapped_operations(spec: Path, overlay: Path) -> dict[str, tuple[str, list[str]]]:
    """Every GET the importer maps, imported today or not (no identifier): call -> (endpoint id, field names)."""
    doc, version = load_openapi(spec)
    report = ImportReport(spec=str(spec), source_id="x", openapi_version=version)
    drafts = Mapper(doc, str(spec), load_overlay(overlay), report).endpoints()
    return {d.place: (d.id, d.names) for d in drafts}


def test_the_dev_set_spans_at_least_four_apis_none_of_them_reserved() -> None:
    assert len(APIS) >= 4
    for api in APIS:
        text = api.spec.read_text(encoding="utf-8").casefold()
        title = json.loads(text)["info"]["title"]
        assert not any(r in api.source_id or r in title for r in RESERVED)
        assert (api.folder / "PROVENANCE.md").is_file() and api.overlay.is_file() and api.questions.is_file()


@pytest.mark.parametrize("api", APIS, ids=lambda a: a.source_id)
def test_each_api_imports_with_only_a_minimal_overlay(api) -> None:  # type: ignore[no-untyped-def]
    overlay = yaml.safe_load(api.overlay.read_text(encoding="utf-8"))
    assert set(overlay) <= MINIMAL_KEYS and {"title", "source_type", "license"} <= set(overlay)
    servers = [s.get("url", "") for s in json.loads(api.spec.read_text(encoding="utf-8")).get("servers", [])]
    assert ("base_url" in overlay) == (not any(u.startswith(("http://", "https://")) for u in servers))
    imported = import_document(api.source_id, api.spec, api.overlay)
    assert imported.result.local.source.endpoints
    provenance = (api.folder / "PROVENANCE.md").read_text(encoding="utf-8")
    assert "CC0" in provenance and "APIs.guru" in provenance


@pytest.mark.parametrize("api", APIS, ids=lambda a: a.source_id)
def test_each_api_has_twenty_english_questions_with_chains_and_source_names(api) -> None:  # type: ignore[no-untyped-def]
    mine = [q for q in QUESTIONS if q.api == api.source_id and q.answerable]
    english = [q for q in mine if q.english]
    assert len(english) >= 20
    assert len({q.query for q in mine}) == len(mine)  # no question twice
    assert any("names_source" in q.tags for q in english) and any("names_source" not in q.tags for q in english)


def test_the_spread_the_dev_set_promises() -> None:
    tags = Counter(t for q in QUESTIONS for t in q.tags)
    kinds = Counter(q.kind for q in QUESTIONS)
    assert kinds["action"] == 12 and kinds["out_of_scope"] >= 3
    assert tags["chain"] >= 10 and tags["two_sources_accept_id"] >= 2 and tags["doi"] >= 3
    assert tags["curie"] + tags["accession"] >= 10 and tags["geo"] >= 5 and tags["time"] >= 3
    assert len({q.lang for q in QUESTIONS if not q.english}) >= 3
    chained = [q for q in QUESTIONS if "chain" in q.tags]
    assert all(
        any(isinstance(v, dict) and "from" in v for option in q.gold_sets for s in option for v in s.params.values())
        for q in chained
    )
    actions = [q for q in QUESTIONS if q.kind == "action"]
    assert sum(q.write_endpoint is not None for q in actions) >= 6
    assert len({q.query.split()[0].casefold() for q in actions}) >= 9  # phrased differently from each other


@pytest.mark.parametrize("api", APIS, ids=lambda a: a.source_id)
def test_every_gold_step_names_an_operation_of_its_document_as_the_importer_names_it(api) -> None:  # type: ignore[no-untyped-def]
    spec = SpecIndex(json.loads(api.spec.read_text(encoding="utf-8")))
    mapped = mapped_operations(api.spec, api.overlay)
    imported = import_document(api.source_id, api.spec, api.overlay).result.local.source
    endpoints = {e.id: e for e in imported.endpoints}
    for q in QUESTIONS:
        for option in q.gold_sets:
            for step in option:
                if step.source != api.source_id:
                    continue
                assert step.call in spec, f"{q.id}: no {step.call}"
                if step.endpoint in endpoints:  # imported today: the registry's id, path and fields
                    e = endpoints[step.endpoint]
                    assert f"{e.method} {e.path}" == step.call, q.id
                    assert set(step.fields) <= {f.name for f in e.fields}, q.id
                elif step.call in mapped:  # mapped but dropped today (no identifier field): the mapper's names
                    endpoint_id, names = mapped[step.call]
                    assert endpoint_id == step.endpoint, q.id
                    assert set(step.fields) <= set(names), q.id
                else:  # not mapped today at all (a read-only POST): the id follows the operationId rule
                    assert step.call.startswith("POST "), q.id
                    assert spec.operation_id(step.call) == step.endpoint, q.id
        if q.write_source == api.source_id:
            assert q.write_endpoint in spec and not q.write_endpoint.startswith("GET "), q.id


def test_restbench_tmdb_loads_and_imports_with_its_minimal_overlay() -> None:
    queries = load_tmdb_queries()
    assert len(queries) == 100 and all(q.solution for q in queries)
    overlay = yaml.safe_load(tmdb_overlay().read_text(encoding="utf-8"))
    assert set(overlay) == {"title", "source_type", "license", "auth_env"}
    source = import_document(TMDB_SOURCE, tmdb_spec(), tmdb_overlay()).result.local.source
    calls = {f"{e.method} {e.path}" for e in source.endpoints}
    assert "GET /search/person" in calls and "GET /person/{person_id}/movie_credits" in calls
    assert "MIT" in (restbench_root() / "LICENSE").read_text(encoding="utf-8")


def test_a_broken_question_line_names_its_file_and_line(tmp_path: Path) -> None:
    good = (APIS[0].questions.read_text(encoding="utf-8").splitlines()[0])
    bad = json.loads(good)
    bad["gold"][0]["call"] = "fetch /x"
    path = tmp_path / "questions.jsonl"
    path.write_text(good + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"questions\.jsonl:2: .*METHOD /path"):
        read_questions(path)
    path.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"questions\.jsonl:1: not valid JSON"):
        read_questions(path)


def test_every_path_goes_through_the_two_roots() -> None:
    assert all(api.folder.parent == imported_root() for api in APIS)
    assert tmdb_spec().parent == restbench_root() == tmdb_overlay().parent
