"""The arXiv adapter (``arxiv`` package) against feeds recorded by arxiv.py's own test suite."""

from __future__ import annotations

import pytest

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

FIELDS = ["title", "author", "summary", "published", "primary_category", "doi", "journal_ref"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("arxiv")


@pytest.mark.vcr("query_id_list_1605.08386.yaml")
def test_id_lookup_projects_atom_paths() -> None:
    step = run_step("arxiv", "query", {"id_list": "1605.08386"}, FIELDS)
    assert step.ok, step.error
    [record] = step.records
    values = record.values
    assert record.record_id == "http://arxiv.org/abs/1605.08386v1"
    assert values["title"].value == "Heat-bath random walks with Markov bases"
    assert isinstance(values["author"].value, list) and len(values["author"].value) >= 2
    assert values["primary_category"].value == "math.CO"  # arxiv:primary_category.@term
    assert values["published"].value.startswith("2016-05-26")
    assert values["title"].license == "CC0-1.0" and values["title"].source_type == "literature"


@pytest.mark.vcr("query_search_testing_max10.yaml")
def test_search_returns_the_requested_page() -> None:
    step = run_step("arxiv", "query", {"search_query": "testing", "max_results": 10}, ["title"])
    assert step.ok, step.error
    assert len(step.records) == 10
    assert len({r.record_id for r in step.records}) == 10


@pytest.mark.vcr("query_search_empty.yaml")
def test_empty_feed_is_no_records() -> None:
    step = run_step("arxiv", "query", {"search_query": "qqxxzznotaword", "max_results": 10}, ["title"])
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("query_id_list_abc_400.yaml")
def test_bad_id_is_http_400() -> None:
    step = run_step("arxiv", "query", {"id_list": "abc"}, ["title"])
    assert step.error is not None and step.error.kind == "http_status" and "400" in step.error.message
