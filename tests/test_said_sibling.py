"""Of two endpoints whose paths differ in one word, the plan takes the one whose word the question
writes: "hourly" asks for /history/hourly, not /history/daily, whatever else their prose explains."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter.graph import SchemaGraph
from schemarouter.models import Source
from schemarouter.router import Router
from schemarouter.router.said_sibling import written_runs
from tests.open_world_support import BASE, with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


def _endpoint(eid: str, path: str, summary: str, fields: list[str]) -> dict[str, Any]:
    return {"id": eid, "base_url": BASE, "path": path, "summary": summary,
            "parameters": [{"name": "lat", "type": "number", "required": True, "description": "Latitude."},
                           {"name": "lon", "type": "number", "required": True, "description": "Longitude."}],
            "fields": [{"name": f, "path": f, "type": "number", "group": "content"} for f in fields]}


def _weather() -> Source:
    """Observations per day and per hour; the daily one declares irradiance in its prose too."""
    return Source.model_validate({
        "id": "skies", "title": "Skies", "domain": "general", "source_type": "web",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [
            _endpoint("history_daily", "/history/daily?lat={lat}&lon={lon}",
                      "Historical daily weather, with global horizontal irradiance and solar radiation",
                      ["temp", "ghi", "solar_rad"]),
            _endpoint("history_hourly", "/history/hourly?lat={lat}&lon={lon}", "Historical hourly weather",
                      ["temp", "ghi"]),
            _endpoint("history_airquality", "/history/airquality?lat={lat}&lon={lon}", "Historical air quality",
                      ["aqi"]),
        ],
    })


@pytest.fixture(scope="module")
def router(graph: SchemaGraph) -> Router:
    return Router(with_catalogue(graph, _weather()))


def _target(router: Router, question: str) -> str:
    plan = router.plan(question)
    assert plan.declined is None, plan.declined
    return plan.steps[-1].endpoint


def test_the_variant_the_question_writes_is_planned(router: Router) -> None:
    plan = router.plan("Historical hourly global horizontal irradiance and solar radiation at 35.77, -78.64")
    assert [s.endpoint for s in plan.steps] == ["history_hourly"]
    assert plan.steps[0].params == {"lat": 35.77, "lon": -78.64}


@pytest.mark.parametrize(("question", "target"), [
    # the variant's word is written: no other is taken for it
    ("Historical daily global horizontal irradiance and solar radiation at 35.77, -78.64", "history_daily"),
    # both variants' words written: the word tells nothing apart
    ("Historical hourly air quality at 35.77, -78.64", "history_airquality"),
])
def test_a_written_variant_is_not_replaced(router: Router, question: str, target: str) -> None:
    assert _target(router, question) == target


def test_a_word_counts_as_written_whole_or_as_words_run_together() -> None:
    runs = written_runs("What was today's hourly air quality in the Top Rated cities?")
    assert {"hourly", "airquality", "toprated", "today", "cities", "citie"} <= runs
    assert "day" not in runs and "hour" not in runs  # no word inside another, no shortening
