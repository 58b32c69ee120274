"""The PubMed adapter (esearch -> esummary XML) against Biopython's recorded E-utilities outputs."""

from __future__ import annotations

import pytest

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

FIELDS = ["Title", "AuthorList", "PubDate", "FullJournalName", "PubTypeList", "PmcRefCount", "doi"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("pubmed")


@pytest.mark.vcr("search_id_11850928_11482001.yaml")
def test_ids_skip_esearch_and_xml_paths_project() -> None:
    step = run_step("pubmed", "search", {"id": "11850928,11482001"}, FIELDS, env={})
    assert step.ok, step.error
    first, second = step.records
    assert (first.record_id, second.record_id) == ("11850928", "11482001")
    assert first.values["Title"].value == "Zirconium granuloma following treatment of rhus dermatitis."
    assert first.values["AuthorList"].value == ["LoPresti PJ", "Hambrick GW Jr"]
    assert first.values["PubDate"].value == "1965 Aug"
    assert first.values["PubTypeList"].value == ["Journal Article"]
    assert first.values["doi"].value is None  # the 1965 record has no DOI item
    assert "tool=schemarouter" in (step.request or "")


@pytest.mark.vcr("search_term_zirconium_granuloma.yaml")
def test_term_runs_esearch_then_esummary() -> None:
    step = run_step("pubmed", "search", {"term": "zirconium granuloma"}, ["Title"])
    assert step.ok, step.error
    assert [r.record_id for r in step.records] == ["11850928", "11482001"]


@pytest.mark.vcr("search_term_empty.yaml")
def test_no_ids_is_no_records_without_esummary() -> None:
    step = run_step("pubmed", "search", {"term": "qqxxzznotaword"}, ["Title"])
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("search_id_truncated.yaml")
def test_truncated_xml_is_unparseable() -> None:
    step = run_step("pubmed", "search", {"id": "11850928"}, ["Title"])
    assert step.error is not None and step.error.kind == "unparseable_body"


@pytest.mark.vcr("search_term_biopython_esearch.yaml")
def test_esearch_without_recorded_esummary_fails_offline_cleanly() -> None:
    step = run_step("pubmed", "search", {"term": "biopython", "retmax": 20}, ["Title"])
    assert step.error is not None and step.error.kind == "no_recording"
