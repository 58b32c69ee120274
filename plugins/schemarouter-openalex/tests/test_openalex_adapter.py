"""The OpenAlex adapter against cassettes built from paper-qa's recorded OpenAlex responses."""

from __future__ import annotations

import pytest

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

FIELDS = ["doi", "title", "publication_year", "authorships", "venue", "cited_by_count"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("openalex")


@pytest.mark.vcr("works_doi_10.1073_pnas.1414271111.yaml")
def test_doi_lookup_projects_nested_paths() -> None:
    step = run_step("openalex", "works", {"doi": "10.1073/pnas.1414271111"}, FIELDS)
    assert step.ok, step.error
    [record] = step.records
    values = record.values
    assert record.record_id == "https://openalex.org/W2109415576"
    assert values["venue"].value == "Proceedings of the National Academy of Sciences"  # primary_location.source...
    assert values["publication_year"].value == 2014
    assert isinstance(values["authorships"].value, list) and all(isinstance(a, str) for a in values["authorships"].value)
    assert values["cited_by_count"].license == "CC0-1.0"


@pytest.mark.vcr("works_title_search_paperqa.yaml")
def test_title_search_renders_a_filter() -> None:
    title = "PaperQA: Retrieval-Augmented Generative Agent for Scientific Research"
    step = run_step("openalex", "works", {"title.search": title}, FIELDS)
    assert step.ok, step.error
    assert step.records[0].values["title"].value == title
    assert "filter=title.search%3APaperQA" in (step.request or "")
    assert "api_key=REDACTED" in (step.request or "")


@pytest.mark.vcr("works_title_search_empty.yaml")
def test_no_results_is_no_records() -> None:
    step = run_step("openalex", "works", {"title.search": "qqxxzznotaword"}, FIELDS)
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("works_bad_sort_400.yaml")
def test_bad_sort_is_http_400() -> None:
    step = run_step("openalex", "works", {"search": "graphene", "sort": "nonsense:desc"}, FIELDS)
    assert step.error is not None and step.error.kind == "http_status" and "400" in step.error.message


def test_missing_key_names_the_variable() -> None:
    step = run_step("openalex", "works", {"search": "graphene"}, FIELDS, env={})
    assert step.error is not None and "OPENALEX_API_KEY" in step.error.message
