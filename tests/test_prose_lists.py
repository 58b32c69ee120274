"""A list parameter takes the list a question writes in prose: numbers joined by commas, names joined
by "and", "or" or commas; a list in brackets is read whole and never read again in pieces."""

from __future__ import annotations

import pytest

from schemarouter.models import Parameter
from schemarouter.router.listed import names_listed, numbers_listed
from schemarouter.router.values import open_values
from tests.open_world_support import read_question


@pytest.mark.parametrize(("question", "numbers"), [
    ("A histogram of the scores 85, 90, 88, 92, 86, 89, 91 with 5 bins", [85, 90, 88, 92, 86, 89, 91]),
    ("Trait values 0.8, 0.7 and 0.5 for the creature", [0.8, 0.7, 0.5]),
    ("A car that travels 12,000 miles at 25, 30 mpg", []),  # "12,000" is one number; two are no run
    ("Cash flows [-50000, 10000, 15000] at 8%", []),  # in brackets: the bracketed reader's
])
def test_numbers_joined_by_commas_are_a_list(question: str, numbers: list[float]) -> None:
    assert numbers_listed(question, set()) == numbers


def test_a_taken_number_ends_no_list_but_keeps_it_from_being_read_again() -> None:
    assert numbers_listed("scores 85, 90, 88", {"90"}) == []


@pytest.mark.parametrize(("question", "names"), [
    ("Retrieve stock prices of Microsoft and Google for the last 2 weeks", ["Microsoft", "Google"]),
    ("Flights to Paris, Rome or Vienna next week", ["Paris", "Rome", "Vienna"]),
    ("Stock prices of Microsoft for the last 2 weeks", []),
    ("Flights to Paris next week, then a hotel in Rome", []),  # two names, not joined
])
def test_names_joined_into_one_list(question: str, names: list[str]) -> None:
    assert names_listed(read_question(question), set())[0] == names


def test_a_list_parameter_takes_the_listed_names_and_spends_them() -> None:
    companies = Parameter(name="companies", type="array", required=True)
    company = Parameter(name="company", type="string", required=True)
    got = open_values([companies], read_question("Stock prices of Microsoft and Google"), "/stocks")
    assert got.values == {"companies": ["Microsoft", "Google"]}
    assert "Microsoft and Google" in got.used, "the name read across 'and' is spent with its parts"
    # a list not named for several things takes no names: a "price" list takes price ranges
    price = Parameter(name="price", type="array", description="Price range, in ['low', 'mid', 'high'].")
    assert open_values([price], read_question("A place that serves Pizza and Pasta"), "/restaurants").values == {}
    # a parameter that takes one name is not given a list
    assert open_values([company], read_question("Stock prices of Microsoft and Google"), "/stocks").values != {
        "company": ["Microsoft", "Google"]}


def test_a_list_parameter_takes_the_numbers_listed_once() -> None:
    data = Parameter(name="data", type="array", required=True)
    bins = Parameter(name="bins", type="integer", required=True)
    got = open_values([data, bins], read_question("A histogram of 85, 90, 88, 92 with bins 5"), "/histogram")
    assert got.values == {"data": [85, 90, 88, 92], "bins": 5}
