"""Superlatives as an order (``schemarouter.router.superlatives``): which field, which end first."""

from __future__ import annotations

import pytest

from schemarouter.router.superlatives import high_end_first, most_said, ordered_member, reverses

FIELDS = ["duration_min", "distance_km", "fare_eur", "started_at", "capacity", "repaired_on"]


@pytest.mark.parametrize(("question", "member"), [
    ("the longest trips", "duration_min"),
    ("the most expensive trip", "fare_eur"),
    ("the cheapest trips", "fare_eur"),
    ("the latest trips", "started_at"),  # a date by its name's ending
    ("the largest stations", "capacity"),
    ("the trips of Ada", None),  # no superlative
    ("the heaviest bikes", None),  # no weight to order by
])
def test_a_superlative_names_the_field_it_orders_by(question: str, member: str | None) -> None:
    assert ordered_member(FIELDS, question) == member


@pytest.mark.parametrize(("question", "high"), [
    ("the 3 longest trips", True), ("top 5 stations", True), ("the most recent repair", True),
    ("the cheapest trips", False), ("the oldest station", False), ("the least used station", False),
    ("stations in Haarlem", False),
])
def test_the_high_end_first_only_for_a_superlative_of_the_high_end(question: str, high: bool) -> None:
    assert high_end_first(question) is high


def test_a_flag_reverses_the_order_by_its_name() -> None:
    assert reverses(["descending"]) and reverses(["sort", "desc"]) and not reverses(["include", "hidden"])


def test_a_member_that_spells_its_direction_spells_the_superlatives() -> None:
    members = ["popularity.asc", "popularity.desc", "release_date.asc", "release_date.desc"]
    assert ordered_member(members, "the latest movies") == "release_date.desc"
    assert ordered_member(members, "the oldest movies") == "release_date.asc"


def test_of_several_members_named_the_one_named_by_the_most_words_orders() -> None:
    assert most_said(["measured_on", "band_gap"]) == ["band_gap"]
    assert most_said(["density", "temperature"]) == ["density", "temperature"], "a tie stays undecided"
