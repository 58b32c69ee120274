"""The Crossref adapter against cassettes built from habanero's recorded /works responses."""

from __future__ import annotations

import pytest

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("crossref")


@pytest.mark.vcr("works_doi_10.1371_journal.pone.0033693.yaml")
def test_single_doi_uses_the_work_route_and_projects_paths() -> None:
    fields = ["title", "author", "container-title", "issued", "publisher"]
    step = run_step("crossref", "works", {"doi": "10.1371/journal.pone.0033693"}, fields)
    assert step.ok, step.error
    [record] = step.records
    assert record.record_id == "10.1371/journal.pone.0033693"
    values = record.values
    assert values["container-title"].value == "PLoS ONE"  # container-title[0]
    assert values["issued"].value == "2012-03-21"  # date-parts -> ISO date
    assert isinstance(values["author"].value, list) and values["author"].value
    assert values["title"].license == "LicenseRef-Crossref-metadata"


@pytest.mark.vcr("works_query_ecology_rows2.yaml")
def test_query_sends_select_and_rows() -> None:
    fields = ["title", "container-title", "issued", "is-referenced-by-count"]
    step = run_step("crossref", "works", {"query": "ecology", "rows": 2}, fields)
    assert step.ok, step.error
    assert len(step.records) == 2
    assert all(isinstance(r.values["is-referenced-by-count"].value, int) for r in step.records)
    assert "select=DOI%2Ctitle%2Ccontainer-title" in (step.request or "")


@pytest.mark.vcr("works_query_ecology_select.yaml")
def test_recorded_select_response() -> None:
    step = run_step("crossref", "works", {"query": "ecology"}, ["title"])
    assert step.ok, step.error
    assert all(r.values["title"].value for r in step.records)


@pytest.mark.vcr("works_query_empty.yaml")
def test_no_items_is_no_records() -> None:
    step = run_step("crossref", "works", {"query": "qqxxzznotaword"}, ["title"])
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("works_bad_date_400.yaml")
def test_validation_failure_is_http_400_with_the_message() -> None:
    step = run_step("crossref", "works", {"query": "ecology", "from-pub-date": "last-year"}, ["title"])
    assert step.error is not None and step.error.kind == "http_status" and "not a valid date" in step.error.message


@pytest.mark.vcr("works_doi_not_found_404.yaml")
def test_unknown_doi_is_no_records() -> None:
    step = run_step("crossref", "works", {"doi": "10.9999/not.a.doi"}, ["title"])
    assert step.error is not None and step.error.kind == "no_records"


def test_contact_email_goes_to_the_polite_pool() -> None:
    import httpx

    from schemarouter.execution.adapter import StepCall
    from schemarouter.execution.testing import installed

    declarations, adapters = installed()
    source = declarations.sources["crossref"]
    endpoint = source.endpoint("works")
    call = StepCall(source, endpoint, {}, [endpoint.field("DOI")], httpx.AsyncClient(),
                    env={"SCHEMAROUTER_CONTACT_EMAIL": "lab@example.org"})
    request = adapters["crossref"].build_request(call, {"query": "ecology"})
    assert request.url.params["mailto"] == "lab@example.org"
