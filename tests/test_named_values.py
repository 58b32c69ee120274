"""Which parameter a name or a code goes to, by the parameter's own name: a filter on the records'
label takes the name written next to the records' noun ("the Riverside district" for ``name_contains``
of ``/districts``), a person's full name goes first and last to the parameters named for them, and a
parameter named for a number takes no word without a digit."""

from __future__ import annotations

import pytest

from schemarouter.models import Parameter
from schemarouter.router.guesses import guess_required
from schemarouter.router.numbers import question_tokens
from schemarouter.router.values import Filled, open_values
from tests.open_world_support import read_question


def test_a_parameter_named_for_a_number_takes_no_word_without_a_digit() -> None:
    case = Parameter(name="case_number", type="string")
    assert open_values([case], read_question("Find all patent lawsuit cases of Facebook in 2018"), "/lawsuits").values == {}
    got = open_values([case], read_question("Details of lawsuit case number CV-2018-1234"), "/lawsuits").values
    assert got == {"case_number": "CV-2018-1234"}


def test_a_text_parameter_named_for_a_coordinate_takes_no_word_without_a_digit() -> None:
    bounds = [Parameter(name=n, type="string", required=True) for n in ("botLng", "topLng", "botLat", "topLat")]
    question = read_question("We travel from Frankfurt to Hamburg on 16.02.2022 at 09:00")
    assert not set(open_values(bounds, question, "/area").values.values()) & {"Frankfurt", "Hamburg"}
    # nor does a last-resort guess give one the question's words
    guessed = guess_required(bounds, question, Filled(), lambda: "Frankfurt and Hamburg")
    assert not {v for v in guessed.values.values() if isinstance(v, str) and not any(c.isdigit() for c in v)}
    lat = Parameter(name="lat", type="string", required=True)
    assert open_values([lat], read_question("Shelters at lat 47.61"), "/shelters").values == {"lat": "47.61"}


@pytest.mark.parametrize(("name", "path", "question", "want"), [
    ("name_contains", "/districts", "Which stations are in the Riverside district?", "Riverside"),
    ("full_name_contains", "/members", "How many trips did member Ada Janssen take?", "Ada Janssen"),
    ("title", "/albums", "Which tracks are on the album Night Visions?", "Night Visions"),
    ("name_contains", "/districts", "Which stations are near the Central Plaza fountain?", None),  # no district named
    ("borough_contains", "/districts", "Which stations are in the Riverside district?", None),  # not its label
])
def test_a_filter_on_the_records_label_takes_the_name_written_next_to_their_noun(
        name: str, path: str, question: str, want: str | None) -> None:
    got = open_values([Parameter(name=name, type="string")], read_question(question), path).values
    assert got.get(name) == want


@pytest.mark.parametrize(("question", "want"), [
    ("What is the email of Chloe Bakker?", "Chloe Bakker"),  # a name alone: the records' name filter takes it
    ("Which stations are in the Riverside district?", None),  # a district's name, not a member's
])
def test_a_filter_on_the_records_name_takes_a_name_no_noun_says_is_of_another_kind(question: str,
                                                                                  want: str | None) -> None:
    name = Parameter(name="full_name_contains", type="string")
    email = Parameter(name="email_contains", type="string")
    got = open_values([email, name], read_question(question), "/members").values
    assert got.get("full_name_contains") == want and "email_contains" not in got, "'the email of X' names no email"


def test_a_name_written_as_a_place_is_no_record_name() -> None:
    name = Parameter(name="full_name_contains", type="string")
    assert open_values([name], read_question("Which members live in Haarlem?"), "/members").values == {}


@pytest.mark.parametrize(("question", "want"), [
    ("Which members live in Haarlem?", {"city_contains": "Haarlem"}),
    ("Which companies are based in Austin?", {"city_contains": "Austin"}),
    ("Which members signed up in Premier League week?", {}),  # "in" alone: a filter it may not mean
])
def test_an_optional_place_filter_takes_where_someone_lives_or_is_based(question: str, want: dict[str, str]) -> None:
    city = Parameter(name="city_contains", type="string")
    assert open_values([city], read_question(question), "/members").values == want


@pytest.mark.parametrize(("question", "want"), [
    ("Which invoices belong to customer Luis Goncalves?", {"first_name_contains": "Luis", "LastName": "Goncalves"}),
    ("Show the email of Frank Harris", {"first_name_contains": "Frank", "LastName": "Harris"}),
    ("customers who live in New York", {}),  # a place, no person
    ("customers of Apple", {}),  # one word: no first and last name to tell apart
])
def test_a_persons_full_name_goes_first_and_last_to_the_parameters_named_for_them(question: str,
                                                                                   want: dict[str, str]) -> None:
    params = [Parameter(name="first_name_contains", type="string"), Parameter(name="LastName", type="string")]
    assert open_values(params, read_question(question), "/customers").values == want


@pytest.mark.parametrize(("question", "value"), [
    ("What subcategories does Vimeo's animation category have?", "animation"),
    ("Videos of the documentary category", "documentary"),
    ("What is in the main category?", None),  # says which category, not its name
    ("The newest category of videos", None),
    ("Videos in a category", None),
    ("List all of the top-level categories", None),  # a kind of categories, not one named
])
def test_a_path_parameter_takes_the_word_written_before_its_noun(question: str, value: str | None) -> None:
    category = Parameter(name="category", type="string", required=True, description="The name of the category.")
    got = open_values([category], read_question(question), "/categories/{category}").values
    assert got.get("category") == value
    # a parameter outside the path named by the noun alone takes the same word (router.modifiers) ...
    query = Parameter(name="category", type="string")
    assert open_values([query], read_question(question), "/videos").values.get("category") == value
    # ... one named for an id never does
    ident = Parameter(name="category_id", type="string")
    assert "category_id" not in open_values([ident], read_question(question), "/videos").values


def test_who_made_a_work_goes_to_the_maker_parameter_before_a_free_text_one() -> None:
    # /reviews: a title (free text) listed before the author; "by Stephen King" names the author
    title = Parameter(name="title", type="string", description="The full title of the book.")
    author = Parameter(name="author", type="string", description="The author's first and last name.")
    declared = {"book", "review"}  # the words the endpoint's declarations say
    got = open_values([title, author], read_question("Get the book reviews by Stephen King"), "/reviews",
                      unknown=lambda term: term not in declared)
    assert got.values == {"author": "Stephen King"}, "no word of the author's name is left to search for"
    # a work's own name still goes to the title
    named = open_values([title, author], read_question("Get the reviews of the book 'It' by Stephen King"),
                        "/reviews", unknown=lambda term: term not in declared)
    assert named.values == {"title": "It", "author": "Stephen King"}


@pytest.mark.parametrize("name", ["directed_by", "writtenBy", "created_by", "made_by", "painted_by"])
def test_a_parameter_named_for_the_agent_of_a_verb_takes_who_the_question_says_did_it(name: str) -> None:
    # "something by Riley Stearns" for directed_by: APIs name the slot for who did it after the verb
    agent = Parameter(name=name, type="string", description="Use 'dontcare' to ignore this filter.")
    genre = Parameter(name="genre", type="string")
    got = open_values([genre, agent], read_question("Find me a film to see, something by Riley Stearns."), "/movies")
    assert got.values == {name: "Riley Stearns"}


@pytest.mark.parametrize("name", ["directed_by", "director"])
def test_a_name_is_not_the_maker_the_question_asks_for(name: str) -> None:
    # the question asks who directed it: the actor whose movie it is did not
    agent = Parameter(name=name, type="string")
    got = open_values([agent], read_question("Who is the director of Leonardo DiCaprio's latest movie?"), "/movies")
    assert name not in got.values
    assert open_values([agent], read_question("Leonardo DiCaprio's latest movie"), "/movies").values == {
        name: "Leonardo DiCaprio"}


@pytest.mark.parametrize("name", ["sorted_by", "order_by", "group_by", "filter_by"])
def test_a_parameter_that_arranges_records_by_something_takes_no_agent(name: str) -> None:
    arranged = Parameter(name=name, type="string")
    got = open_values([arranged], read_question("Find me a film to see, something by Riley Stearns."), "/movies")
    assert name not in got.values


def test_a_digest_is_an_identifier_the_question_writes_after_its_noun() -> None:
    # /firmware/{firmware_hash}/risk: the hash written after "hash", never the word before it
    digest = Parameter(name="firmware_hash", type="string", required=True)
    question = read_question("Known vulnerabilities for firmware hash 3f2a9c0d1e2b4f6a8c0d1e2f3a4b5c6d?")
    got = open_values([digest], question, "/firmware/{firmware_hash}/risk").values
    assert got == {"firmware_hash": "3f2a9c0d1e2b4f6a8c0d1e2f3a4b5c6d"}
    # ... and a digit a hexadecimal token opens with is no number of its own ("3" of "3f2a"), while a
    # number glued to its unit still is one
    assert question_tokens("firmware hash 3f2a, 6cm at 440Hz")[0] == (
        "firmware", "hash", "3f2a", "6", "cm", "at", "440", "Hz")
