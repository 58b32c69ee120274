"""The Wikipedia adapter against the recorded Tokyo page summary."""

from __future__ import annotations

import pytest

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

FIELDS = ["title", "wikibase_item", "description", "extract"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("wikipedia")


@pytest.mark.vcr("page_summary_Tokyo.yaml")
def test_summary_is_one_record() -> None:
    step = run_step("wikipedia", "page_summary", {"title": "Tokyo"}, FIELDS)
    assert step.ok, step.error
    [record] = step.records
    assert record.record_id == "30057"
    assert record.values["wikibase_item"].value == "Q1490"
    assert record.values["extract"].value.startswith("Tokyo")
    assert record.values["extract"].license == "CC-BY-SA-4.0"


@pytest.mark.vcr("page_summary_not_found.yaml")
def test_missing_page_is_no_records() -> None:
    step = run_step("wikipedia", "page_summary", {"title": "Qqxxzz Not A Page"}, FIELDS)
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("page_summary_disambiguation.yaml")
def test_disambiguation_page_is_not_an_answer() -> None:
    step = run_step("wikipedia", "page_summary", {"title": "Mercury"}, FIELDS)
    assert step.error is not None and step.error.kind == "no_records" and "disambiguation" in step.error.message


@pytest.mark.vcr("page_summary_503.yaml")
def test_503_is_http_status_after_retries() -> None:
    step = run_step("wikipedia", "page_summary", {"title": "Osaka"}, FIELDS)
    assert step.error is not None and step.error.kind == "http_status" and "503" in step.error.message
