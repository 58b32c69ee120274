"""The Stack Exchange adapter against the recorded /search/advanced response (API v2.1, 2014)."""

from __future__ import annotations

import pytest

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

FIELDS = ["title", "link", "tags", "score"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("stack_exchange")


@pytest.mark.vcr("search_advanced_ruby_on_rails.yaml")
def test_items_are_projected_and_titles_unescaped() -> None:
    step = run_step("stack_exchange", "search_advanced", {"q": "ruby on rails", "site": "stackoverflow"}, FIELDS,
                    env={})
    assert step.ok, step.error  # the app key is optional
    assert len(step.records) == 30
    assert all(isinstance(r.values["score"].value, int) for r in step.records)
    assert all("&#" not in (r.values["title"].value or "") for r in step.records)
    assert all(isinstance(r.values["tags"].value, list) for r in step.records)


@pytest.mark.vcr("search_advanced_empty.yaml")
def test_no_items_is_no_records() -> None:
    step = run_step("stack_exchange", "search_advanced", {"q": "qqxxzznotaword", "site": "stackoverflow"}, FIELDS)
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("search_advanced_no_site_400.yaml")
def test_error_envelope_message_is_quoted() -> None:
    step = run_step("stack_exchange", "search_advanced", {"q": "python"}, FIELDS)
    assert step.error is not None and step.error.kind == "http_status" and "site is required" in step.error.message
