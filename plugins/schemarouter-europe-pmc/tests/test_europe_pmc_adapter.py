"""The Europe PMC adapter against recorded core and empty search responses."""

from __future__ import annotations

import pytest

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

FIELDS = ["doi", "title", "authorString", "journalTitle", "pubYear", "citedByCount"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("europe_pmc")


@pytest.mark.vcr("search_cancer_core.yaml")
def test_core_results_cast_pub_year_and_read_nested_journal() -> None:
    step = run_step("europe_pmc", "search", {"query": "cancer"}, FIELDS)
    assert step.ok, step.error
    assert len(step.records) == 25
    first = step.records[0]
    assert first.record_id == "39709209"
    assert isinstance(first.values["pubYear"].value, int)
    assert any(r.values["journalTitle"].value for r in step.records)  # journalInfo.journal.title
    assert "resultType=core" in (step.request or "") and "format=json" in (step.request or "")


@pytest.mark.vcr("search_no_results.yaml")
def test_recorded_no_results_is_no_records() -> None:
    step = run_step("europe_pmc", "search", {"query": "asdkfjhasdkfjhasdfasdasdasdfgsagsd"}, FIELDS)
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("search_malaria_500.yaml")
def test_500_is_http_status() -> None:
    step = run_step("europe_pmc", "search", {"query": "malaria"}, FIELDS)
    assert step.error is not None and step.error.kind == "http_status"
