"""The scientific APIs added to the open world after the re-ranker was fitted: each imports with a
minimal overlay, and every gold step names an endpoint, parameters and fields as the importer does."""

from __future__ import annotations

import json
from collections import Counter

import pytest
import yaml
from schemarouter_bench.devset import dev_apis, load_dev_questions, science_root
from schemarouter_bench.openworld import import_document

APIS = dev_apis(science_root())
QUESTIONS = load_dev_questions(science_root())
MINIMAL_KEYS = {"title", "source_type", "license", "auth_env", "auth", "base_url"}


def test_the_set_spans_several_apis_and_every_kind_of_request() -> None:
    assert len(APIS) >= 3
    for api in APIS:
        mine = [q for q in QUESTIONS if q.api == api.source_id]
        kinds = Counter(q.kind for q in mine)
        assert kinds["answer"] >= 9 and kinds["action"] >= 1 and kinds["out_of_scope"] >= 1, api.source_id
        assert any(q.lang != "en" for q in mine), api.source_id
        assert len({q.query for q in mine}) == len(mine), "no question twice"
    parts = Counter(q.part for q in QUESTIONS if q.kind == "answer")
    assert parts["tune"] >= 10 and parts["test"] >= 10


@pytest.mark.parametrize("api", APIS, ids=lambda a: a.source_id)
def test_each_api_imports_with_only_a_minimal_overlay(api) -> None:  # type: ignore[no-untyped-def]
    overlay = yaml.safe_load(api.overlay.read_text(encoding="utf-8"))
    assert set(overlay) <= MINIMAL_KEYS and {"title", "source_type", "license"} <= set(overlay)
    assert import_document(api.source_id, api.spec, api.overlay).result.local.source.endpoints
    provenance = (api.folder / "PROVENANCE.md").read_text(encoding="utf-8")
    assert "CC0" in provenance and "APIs.guru" in provenance
    assert json.loads(api.spec.read_text(encoding="utf-8"))["info"]["title"]


@pytest.mark.parametrize("api", APIS, ids=lambda a: a.source_id)
def test_every_gold_step_names_an_endpoint_its_parameters_and_fields_as_imported(api) -> None:  # type: ignore[no-untyped-def]
    source = import_document(api.source_id, api.spec, api.overlay).result.local.source
    endpoints = {e.id: e for e in source.endpoints}
    steps = [(q.id, s) for q in QUESTIONS for option in q.gold_sets for s in option if s.source == api.source_id]
    assert steps
    for qid, step in steps:
        e = endpoints.get(step.endpoint)
        assert e is not None, f"{qid}: no endpoint {step.endpoint}"
        assert f"{e.method} {e.path}" == step.call, qid
        assert set(step.fields) <= {f.name for f in e.fields}, qid
        assert set(step.params) <= {p.name for p in e.parameters}, qid
        required = {p.name for p in e.parameters if p.required and p.default is None}
        assert required <= set(step.params), f"{qid}: a required parameter has no gold value"
