"""The SearxNG web-search adapter against synthetic cassettes in SearxNG's documented JSON shape."""

from __future__ import annotations

import pytest

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

FIELDS = ["url", "title", "content", "publishedDate"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("web_search")


@pytest.mark.vcr("search_perovskite.yaml")
def test_results_are_projected() -> None:
    step = run_step("web_search", "search", {"q": "perovskite solar cell"}, FIELDS)
    assert step.ok, step.error
    assert [r.record_id for r in step.records] == [
        "https://en.wikipedia.org/wiki/Perovskite_solar_cell", "https://example.org/perovskite-efficiency"]
    assert step.records[1].values["publishedDate"].value == "2026-02-17T00:00:00"
    assert step.records[0].values["title"].source_type == "web"


@pytest.mark.vcr("search_empty.yaml")
def test_no_results_is_no_records() -> None:
    step = run_step("web_search", "search", {"q": "qqxxzznotaword"}, FIELDS)
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("search_format_disabled_403.yaml")
def test_json_format_disabled_is_http_403() -> None:
    step = run_step("web_search", "search", {"q": "json disabled"}, FIELDS)
    assert step.error is not None and step.error.kind == "http_status" and "403" in step.error.message


def test_searxng_url_overrides_the_declared_base() -> None:
    step = run_step("web_search", "search", {"q": "x"}, FIELDS, env={"SEARXNG_URL": "http://127.0.0.1:9"})
    assert step.error is not None  # nothing listens there; the point is where it went
    assert "127.0.0.1:9" in step.error.message
