"""Parameters whose names say nothing ("t", "s", "r"), read by what their declarations say instead.

Many real APIs name query parameters with one letter and explain them in prose: a film database
whose one endpoint takes ``t`` ("Movie title to search for"), ``s`` (the same, as a search) and a
required ``r`` that picks the response format. Routed beside the 19 first-party sources. And the
last resort for a required text parameter nothing ties a value to: a run of the question's words,
never a preposition or a verb's particle.
"""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter.graph import SchemaGraph
from schemarouter.models import Parameter, Source
from schemarouter.router import Router
from schemarouter.router.enum_kinds import json_member
from schemarouter.router.guesses import guess_required
from schemarouter.router.name_words import name_words
from schemarouter.router.param_facts import is_search_parameter
from schemarouter.router.runs import longest_run
from schemarouter.router.validate import validate_plan
from schemarouter.router.values import open_values
from tests.open_world_support import BASE, read_question, with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


def films(format_enum: list[str] | None = None) -> Source:
    """A film database declared as its OpenAPI document declares it (no overlay beyond the required)."""
    return Source.model_validate({
        "id": "films",
        "title": "Open Film Database",
        "domain": "general",
        "source_type": "web",
        "license": {"id": "CC-BY-NC-4.0", "name": "CC BY-NC 4.0"},
        "endpoints": [{
            "id": "film_search", "base_url": BASE, "path": "/",
            "summary": "Film search",
            "description": "Find a movie, series or episode by title, id or free-text search.",
            "parameters": [
                {"name": "t", "type": "string", "description": "Movie title to search for. One of t, i or s is required."},
                {"name": "i", "type": "string", "description": "A valid film database id (e.g. tt1285016)."},
                {"name": "s", "type": "string", "description": "Movie title to search for. One of t, i or s is required."},
                {"name": "y", "type": "integer", "description": "Year of release."},
                {"name": "r", "type": "string", "required": True, "description": "The data type to return.",
                 "enum": format_enum or ["json", "xml"], "example": "json"},
            ],
            "fields": [{"name": name, "path": name, "type": "string", "group": "content"}
                       for name in ("Title", "Year", "Director", "Plot", "imdbID")],
        }],
    })


@pytest.fixture(scope="module")
def film_router(graph: SchemaGraph) -> Router:
    return Router(with_catalogue(graph, films()))


def params(plan: Any) -> dict[str, Any]:
    assert [f"{s.source}.{s.endpoint}" for s in plan.steps] == ["films.film_search"], plan.declined_reason
    return dict(plan.steps[0].params)


def test_a_title_to_search_for_takes_the_name_the_question_gives(film_router: Router) -> None:
    plan = film_router.plan("Who directed the movie Inception?")
    assert params(plan)["t"] == "Inception"
    assert validate_plan(plan, film_router.graph) == []


def test_a_second_way_to_search_stays_empty_once_one_took_the_name(film_router: Router) -> None:
    # "s" is another search by title: sending the leftover words ("film") beside "t" asks for something else
    got = params(film_router.plan("What is the plot of the film Alien?"))
    assert got["t"] == "Alien" and "s" not in got


def test_a_required_response_format_is_the_json_the_executor_reads(film_router: Router) -> None:
    got = params(film_router.plan("Who directed the movie Inception?"))
    assert got["r"] == "json"
    why = film_router.plan("Who directed the movie Inception?").steps[0].why["_params"]
    assert "response format" in why


def test_a_required_enum_that_is_not_all_formats_gets_no_format_member(graph: SchemaGraph) -> None:
    # "json" beside "movies" is no choice of format: the question must say which member it wants
    router = Router(with_catalogue(graph, films(["json", "movies"])))
    plan = router.plan("Who directed the movie Inception?")
    assert all(s.params.get("r") != "json" for s in plan.steps)


@pytest.mark.parametrize(("enum", "member"), [
    (["json", "xml"], "json"), (["XML", "JSON", "csv"], "JSON"), (["xml", "csv"], None),
    (["json", "all"], None), (None, None), ([], None),
])
def test_the_json_member_of_an_enum_of_formats(enum: list[str] | None, member: str | None) -> None:
    assert json_member(enum) == member


def test_a_description_that_names_text_to_search_for_makes_a_search_parameter() -> None:
    t = films().endpoints[0].parameters[0]
    year = films().endpoints[0].parameters[3]
    assert is_search_parameter(t)
    assert not is_search_parameter(year)
    kind = t.model_copy(update={"description": "The type of record to search for."})
    assert not is_search_parameter(kind), "a type of record is no text"


@pytest.mark.parametrize(("question", "explained", "run"), [
    # "genetically similar" is what the endpoint says; of the rest, "out" belongs to "find out"
    ("Find out how genetically similar a human and a chimp are", {"genet", "similar"}, "human"),
    ("Find concerts near me in Seattle that play jazz", {"concert", "play", "seattl"}, "jazz"),
    ("Show me vegan recipes under 30 minutes", {"recip", "minut"}, "vegan"),
    # a participle used as a preposition attaches what follows it
    ("Get the recipe for chocolate cake including the steps", {"recip", "step"}, "chocolate cake"),
    ("Find lawsuits involving Apple Inc", {"lawsuit"}, "Apple Inc"),
])
def test_a_preposition_or_particle_is_no_value_of_a_run(question: str, explained: set[str], run: str) -> None:
    # the last resort for a required text parameter: the longest run of words the endpoint leaves unsaid
    assert longest_run(read_question(question), lambda term: term not in explained) == run


@pytest.mark.parametrize(("name", "words"), [
    ("startdate", ["start", "date"]), ("endDateTime", ["end", "date", "time"]), ("birthdate", ["birth", "date"]),
    ("enddatetime", ["end", "datetime"]), ("update", ["update"]), ("mandate", ["mandate"]), ("validate", ["validate"]),
])
def test_a_date_named_in_one_word_is_read_as_its_bound_and_the_date(name: str, words: list[str]) -> None:
    assert name_words(name) == words


def test_a_date_parameter_takes_a_date_never_a_name() -> None:
    # /timeline/{location}/{startdate}: "Chicago" is a second place, not a start date
    location = Parameter(name="location", type="string", required=True)
    start = Parameter(name="startdate", type="string", required=True)
    question = read_question("What is the weather in Boston and in Chicago tomorrow?")
    got = open_values([location, start], question, "/timeline/{location}/{startdate}")
    assert got.values == {"location": "Boston"}
    assert "startdate" not in guess_required([location, start], question, got, lambda: "Chicago").values
    dated = read_question("What was the weather in Paris on 2024-03-01?")
    assert open_values([location, start], dated, "/timeline/{location}/{startdate}").values["startdate"] == "2024-03-01"


@pytest.mark.parametrize(("name", "words"), [
    ("genesymbol", ["gene", "symbol"]), ("hpotermname", ["hpoterm", "name"]), ("phonenumber", ["phone", "number"]),
    ("username", ["user", "name"]), ("name", ["name"]), ("rename", ["rename"]), ("gene_symbol", ["gene", "symbol"]),
])
def test_a_name_written_in_one_word_is_read_as_what_it_names_and_its_kind(name: str, words: list[str]) -> None:
    assert name_words(name) == words


def test_a_value_written_after_a_noun_fills_the_name_run_together_from_it(graph: SchemaGraph) -> None:
    analysis = Router(graph).understander.understand("Which HPO phenotypes are linked to the gene SCN1A?", graph)
    got = open_values([Parameter(name="genesymbol", type="array")], analysis, "/hpo").values
    assert got == {"genesymbol": ["SCN1A"]}
