"""Values a declaration spells its own way: a flag spelled as words ("True", "False", "dontcare"),
switched on where the question asks for what it is named for or states the condition its description
tests, and left to the server otherwise; a percentage given to a rate, as its fraction."""

from __future__ import annotations

import pytest

from schemarouter.models import Parameter
from schemarouter.router.enum_kinds import true_member
from schemarouter.router.flags import described_condition
from schemarouter.router.validate import conformed
from schemarouter.router.values import open_values
from tests.open_world_support import read_question

LAUNDRY = Parameter(name="has_laundry_service", type="string", enum=["True", "False", "dontcare"])


def test_a_word_flag_is_on_where_the_question_asks_for_it() -> None:
    got = open_values([LAUNDRY], read_question("A house in Austin with laundry service for 2 adults"), "/houses")
    assert got.values == {"has_laundry_service": "True"}


def test_a_word_flag_is_left_alone_where_the_question_says_nothing_of_it() -> None:
    assert open_values([LAUNDRY], read_question("A house in Austin for 2 adults"), "/houses").values == {}


@pytest.mark.parametrize(("enum", "true"), [
    (["True", "False", "dontcare"], "True"), (["yes", "no"], "yes"), (["false", "true"], "true"),
    (["True", "Maybe"], None), (["small", "large"], None), (None, None),
])
def test_only_an_enum_of_flag_words_is_a_flag(enum: list[str] | None, true: str | None) -> None:
    assert true_member(enum) == true


def test_a_percentage_written_after_a_rate_is_its_fraction() -> None:
    rate = Parameter(name="interest_rate", type="number")
    got = open_values([rate], read_question("An annual interest rate of 5% for 3 years"), "/interest")
    assert got.values == {"interest_rate": 0.05}
    assert open_values([rate], read_question("An annual interest rate of 5 for 3 years"), "/interest").values == {
        "interest_rate": 5}, "without the % sign the number is taken as written"


@pytest.mark.parametrize(("name", "question", "on"), [
    ("good_for_kids", "Attractions in Paris that are good for my kids", True),
    ("good_for_kids", "Attractions in Paris, kids friendly", True),  # "good" says how it is set, not what
    ("allow_transfer", "The train from New York to Los Angeles; you can transfer", True),
    ("good_for_kids", "Attractions in Paris with free entry", False),
])
def test_a_flag_is_on_where_the_question_says_what_it_is_for(name: str, question: str, on: bool) -> None:
    flag = Parameter(name=name, type="string", enum=["True", "False", "dontcare"])
    got = open_values([flag], read_question(question), "/attractions").values
    assert (got == {name: "True"}) is on


KIDS = "Indicates whether the attraction is suitable for children. True for suitable, False for not suitable."
FREE = "Indicates whether entrance to the attraction is free. True for free entry, False for paid entry."


@pytest.mark.parametrize(("description", "condition"), [
    (KIDS, ("suitabl", "children")),
    (FREE, ("free",)),
    ("Indicates if the house should have laundry service available.", ("laundri", "servic")),
    ("Whether to include hidden files", ("hidden", "file")),
    ("If true, returns only open issues", ()),  # no verb before a predicate: nothing stated
    ("Whether the listing is shown to every visitor of the site, its search pages and its feeds", ()),  # too long
    (None, ()),
])
def test_a_flag_description_states_the_condition_it_tests(description: str | None, condition: tuple[str, ...]) -> None:
    assert described_condition(description) == condition


@pytest.mark.parametrize(("name", "description", "question", "on"), [
    ("good_for_kids", KIDS, "Attractions in Paris that are suitable for children", True),
    ("free_entry", FREE, "Attractions in New York that are free to enter", True),
    ("good_for_kids", KIDS, "A landmark in Portland that is not suitable for children", False),
    ("good_for_kids", KIDS, "A landmark in Portland that is not good for kids", False),  # by its name, negated
    ("free_entry", FREE, "Attractions in Paris that need a fee to enter", False),
])
def test_a_flag_is_on_where_the_question_states_what_its_description_tests(
        name: str, description: str, question: str, on: bool) -> None:
    flag = Parameter(name=name, type="string", enum=["True", "False", "dontcare"], description=description)
    got = open_values([flag], read_question(question), "/attractions").values
    assert (got == {name: "True"}) is on



def test_a_flag_typed_boolean_whose_enum_spells_it_in_words_takes_the_member() -> None:
    # declared type "boolean", members "True"/"False"/"dontcare": the server takes the members
    kids = Parameter(name="good_for_kids", type="boolean", enum=["True", "False", "dontcare"], description=KIDS)
    got = open_values([kids], read_question("Attractions in Chicago that are kids friendly"), "/attractions")
    assert got.values == {"good_for_kids": "True"}
    assert conformed(kids, "true") == "True" and conformed(kids, True) == "True"
    assert conformed(kids, "maybe") is None, "a value the enum does not list is still refused"


@pytest.mark.parametrize(("question", "on"), [
    ("A rental in Austin; I'm not concerned about having a garage or in-unit laundry", set()),
    ("A rental in Austin. I don't care about a garage, but I'd really like in-unit laundry", {"in_unit_laundry"}),
    ("A rental in Austin with a garage and in-unit laundry", {"has_garage", "in_unit_laundry"}),
])
def test_a_flag_the_question_waives_stays_off(question: str, on: set[str]) -> None:
    flags = [Parameter(name=name, type="string", enum=["True", "False", "dontcare"])
             for name in ("has_garage", "in_unit_laundry")]
    assert set(open_values(flags, read_question(question), "/homes").values) == on
