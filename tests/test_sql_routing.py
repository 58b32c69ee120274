"""Questions about a database imported as it is: a chain starts at the record the question names.

A bike-share database made here (districts, stations, members, trips; text columns with no index,
as most databases have them) is imported with ``import_sql`` and a three-line overlay, then put
beside the first-party sources. Its name columns become ``name_contains`` filters and its foreign
keys endpoints that read one parent's rows; a plan must filter the parent by the name the question
writes, never bind the first row of an unfiltered list.
"""

from __future__ import annotations

import pytest

from schemarouter.graph import SchemaGraph
from schemarouter.router import Router
from schemarouter.sqlsource import import_sql
from tests.open_world_support import with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)
from tests.sql_support import sqlite_script

SCHEMA = """
CREATE TABLE districts (district_id INTEGER PRIMARY KEY, name TEXT NOT NULL, borough TEXT);
CREATE TABLE stations (station_id INTEGER PRIMARY KEY, name TEXT NOT NULL,
                       district_id INTEGER REFERENCES districts(district_id), capacity INTEGER);
CREATE TABLE members (member_id INTEGER PRIMARY KEY, full_name TEXT, email TEXT, city TEXT, joined_on DATE);
CREATE TABLE trips (trip_id INTEGER PRIMARY KEY, member_id INTEGER REFERENCES members(member_id),
                    started_at TIMESTAMP,
                    start_station_id INTEGER REFERENCES stations(station_id), distance_km REAL,
                    duration_min REAL);
"""


@pytest.fixture(scope="module")
def router(graph: SchemaGraph, tmp_path_factory: pytest.TempPathFactory) -> Router:
    directory = tmp_path_factory.mktemp("bikes")
    url = sqlite_script(directory / "bikes.db", SCHEMA)
    overlay = directory / "overlay.yaml"
    overlay.write_text("title: City Bike Share\nsource_type: curated\nlicense: LicenseRef-internal\n", encoding="utf-8")
    return Router(with_catalogue(graph, import_sql(url, "bikes", overlay).local.source))


def _steps(router: Router, question: str) -> list[tuple[str, dict[str, object]]]:
    return [(s.endpoint, s.params) for s in router.plan(question).steps]


def test_a_chain_starts_at_the_parent_the_question_names(router: Router) -> None:
    steps = _steps(router, "Which stations are in the Riverside district?")
    assert steps[0] == ("districts", {"name_contains": "Riverside"})
    assert steps[-1][0] == "stations_of_district"
    assert _steps(router, "Show the trips of member Ada Janssen")[0] == ("members", {"full_name_contains": "Ada Janssen"})


def test_the_email_of_a_person_filters_people_by_name_not_by_email(router: Router) -> None:
    assert _steps(router, "What is the email of Chloe Bakker?") == [("members", {"full_name_contains": "Chloe Bakker"})]


def test_a_number_inside_a_name_is_no_identifier_and_no_list_hands_on_its_first_row(router: Router) -> None:
    # "Pier 4" is a station's name: no district_id 4 is guessed from it, and no unfiltered list of
    # districts feeds its first row to the stations of a district
    steps = _steps(router, "Which district is the Pier 4 station in?")
    assert steps == [("stations", {"name_contains": "Pier 4"})]


def test_a_quantity_in_a_unit_bounds_the_filter_in_that_unit_and_asks_for_the_field(router: Router) -> None:
    step = router.plan("Which trips were shorter than 15 minutes?").steps[-1]
    assert (step.endpoint, step.params) == ("trips", {"duration_min_max": 15.0})
    assert "duration_min" in step.fields, "the field in the unit the question writes a quantity in"
    assert "distance_km" not in step.fields
    longer = router.plan("Which trips were longer than 800 m?").steps[-1]
    assert longer.params == {"distance_km_min": 0.8} and "distance_km" in longer.fields


def test_a_name_before_a_verb_still_names_the_record_and_a_month_bounds_one_step(router: Router) -> None:
    # "Ada Janssen take": no noun after the name says another kind of record; "May 2024" bounds the
    # trips, not when the member joined
    steps = _steps(router, "Which trips did Ada Janssen take in May 2024?")
    assert steps[0] == ("members", {"full_name_contains": "Ada Janssen"})
    assert steps[-1][0] == "trips_of_member"
    assert {k: v for k, v in steps[-1][1].items() if k != "member_id"} == {
        "started_at_from": "2024-05-01", "started_at_to": "2024-05-31"}


def test_a_chain_goes_from_a_row_to_the_parent_its_key_points_to(router: Router) -> None:
    plan = router.plan("What is the email of the member of trip 5?")
    assert (plan.steps[0].endpoint, plan.steps[0].params) == ("trips", {"trip_id": 5})
    last = plan.steps[-1]
    assert last.endpoint == "member" and last.params["member_id"] == {"from": "s1", "field": "member_id", "pick": "first"}
    assert "email" in last.fields


@pytest.mark.parametrize(("question", "params"), [
    ("What are the 3 longest trips?", {"sort_by": "duration_min", "descending": True, "limit": 3}),
    ("Show the shortest trips", {"sort_by": "duration_min"}),  # the low end: no reversal
    ("Which trips started most recently?", {"sort_by": "started_at", "descending": True}),
])
def test_a_superlative_orders_and_cuts_the_rows(router: Router, question: str, params: dict[str, object]) -> None:
    step = router.plan(question).steps[-1]
    assert (step.endpoint, step.params) == ("trips", params)
    assert params["sort_by"] in step.fields, "the field the rows are ordered by is part of the answer"
