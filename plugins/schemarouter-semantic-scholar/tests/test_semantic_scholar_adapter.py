"""The Semantic Scholar adapter against a cassette built from a recorded S2 paper response."""

from __future__ import annotations

import pytest

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

FIELDS = ["doi", "title", "authors", "year", "venue", "citationCount"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("semantic_scholar")


@pytest.mark.vcr("paper_search_paperqa.yaml")
def test_search_projects_external_ids_and_authors() -> None:
    title = "PaperQA: Retrieval-Augmented Generative Agent for Scientific Research"
    step = run_step("semantic_scholar", "paper_search", {"query": title, "limit": 1}, FIELDS, env={})
    assert step.ok, step.error  # the key is optional
    values = step.records[0].values
    assert step.records[0].record_id == "7e55d8701785818776323b4147cb13354c820469"
    assert values["doi"].value == "10.48550/arXiv.2312.07559"  # externalIds.DOI
    assert values["year"].value == 2023 and values["citationCount"].value == 106
    assert "Jakub L'ala" in values["authors"].value
    assert "fields=paperId%2CexternalIds%2Ctitle" in (step.request or "")


@pytest.mark.vcr("paper_search_empty.yaml")
def test_no_papers_is_no_records() -> None:
    step = run_step("semantic_scholar", "paper_search", {"query": "qqxxzznotaword"}, FIELDS)
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("paper_search_429.yaml")
def test_429_forever_is_rate_limited() -> None:
    step = run_step("semantic_scholar", "paper_search", {"query": "graphene"}, FIELDS)
    assert step.error is not None and step.error.kind == "rate_limited"
