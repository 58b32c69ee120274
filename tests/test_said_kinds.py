"""A question asking for a thing by its kind also says the word APIs declare such things by: a picture
("logo", "poster", "photo") is an image; who acted in a work its cast, who made it its crew; the one
who made a work a person."""

from __future__ import annotations

from typing import Any

from schemarouter.graph import SchemaGraph
from schemarouter.graph.lexical import best_scored
from schemarouter.models import Source
from schemarouter.router import Router
from schemarouter.router.open_route import read_numbers
from tests.open_world_support import read_question, with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


def _source(sid: str, title: str, *endpoints: dict[str, Any]) -> Source:
    return Source.model_validate({"id": sid, "title": title, "domain": "general", "source_type": "web",
                                  "license": {"id": "CC0-1.0", "name": "CC0"}, "endpoints": list(endpoints)})


def _endpoint(eid: str, path: str, summary: str, params: list[dict[str, Any]],
              *fields: dict[str, Any]) -> dict[str, Any]:
    return {"id": eid, "base_url": "http://127.0.0.1:9", "path": path, "summary": summary,
            "parameters": params, "fields": list(fields)}


def _field(name: str, path: str = "", type_: str = "string", identifier: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "path": path or name, "type": type_, "group": "content"}
    return {**out, "identifier": True} if identifier else out


def _id(name: str, what: str) -> dict[str, Any]:
    return {"name": name, "type": "integer", "required": True, "description": f"The id of the {what}."}


def _query() -> dict[str, Any]:
    return {"name": "query", "type": "string", "required": True, "description": "The text to search for."}


def _broadcasters() -> Source:
    network = [_id("network_id", "network")]
    return _source(
        "broadcast", "Broadcast Networks",
        _endpoint("network_details", "/network/{network_id}", "Get the details of a network.", network,
                  _field("name"), _field("headquarters")),
        _endpoint("network_images", "/network/{network_id}/images", "Get the images of a network.", network,
                  _field("file_path"), _field("width", type_="integer")),
    )


def test_a_picture_word_says_image() -> None:
    for text in ("What is the logo of the network?", "give me a poster of the second season",
                 "Show a photo of the lead actor", "Any pictures of Saturn?"):
        assert "imag" in read_question(text).all_terms, text
    # a cover, a still: not always pictures ("cloud cover", "is it still open?")
    for text in ("What is the cloud cover in Reykjavik?", "Is the museum still open?", "band gap of GaN?"):
        assert "imag" not in read_question(text).all_terms, text


def test_a_question_for_a_logo_goes_to_the_images_endpoint(graph: SchemaGraph) -> None:
    g = with_catalogue(graph, _broadcasters())
    router = Router(g)
    [step] = router.plan("What is the logo of network 49?").steps
    assert (step.endpoint, dict(step.params)) == ("network_images", {"network_id": 49})
    [step] = router.plan("Where are the headquarters of network 49?").steps
    assert step.endpoint == "network_details"


def _films() -> Source:
    movie = [_id("movie_id", "movie")]
    return _source(
        "films", "Film Database",
        _endpoint("search_movie", "/search/movie",
                  "Search for movies by their original, translated and alternative titles.", [_query()],
                  _field("id", "results[].id", "integer", identifier=True), _field("title", "results[].title")),
        _endpoint("movie_details", "/movie/{movie_id}", "Get the primary information about a movie.", movie,
                  _field("title"), _field("runtime", type_="integer")),
        _endpoint("movie_latest", "/movie/latest", "Get the most newly created movie.", [], _field("title")),
        _endpoint("search_person", "/search/person", "Search for people by their name and also known as names.",
                  [_query()],
                  _field("id", "results[].id", "integer", identifier=True), _field("name", "results[].name")),
        _endpoint("person_movie_credits", "/person/{person_id}/movie_credits", "Get the movie credits for a person.",
                  [_id("person_id", "person")],
                  _field("title", "crew[].title"), _field("release_date", "crew[].release_date")),
        _endpoint("movie_credits", "/movie/{movie_id}/credits", "Get the cast and crew for a movie.", movie,
                  _field("cast", "cast[].name"), _field("crew", "crew[].name"), _field("job", "crew[].job")),
    )


def test_who_acted_is_the_cast_and_who_made_is_the_crew() -> None:
    assert "cast" in read_question("Who starred in Titanic?").all_terms
    assert "cast" in read_question("Who is the lead actor of Titanic?").all_terms
    assert "crew" in read_question("Who directed Titanic?").all_terms
    assert {"cast", "crew"}.isdisjoint(read_question("How long is Titanic?").all_terms)


def test_who_acted_goes_to_the_credits_and_who_directed_ranks_them_first(graph: SchemaGraph) -> None:
    g = with_catalogue(graph, _films())
    router = Router(g)
    for question in ("Who starred in the movie Titanic?", "Who is the lead actor of the movie Titanic?"):
        steps = router.plan(question).steps
        assert [s.endpoint for s in steps] == ["search_movie", "movie_credits"], question
    steps = router.plan("What is the runtime of the movie Titanic?").steps
    assert [s.endpoint for s in steps] == ["search_movie", "movie_details"]
    # who made it: retrieval ranks the credits first (the re-ranker weighs that with the rest)
    analysis = router.understander.understand("Who directed the movie Titanic?", g)
    ranked = best_scored(g.lexical.score(analysis.all_terms), 3, read_numbers(g))
    assert g.lexical.keys[ranked[0][0]] == ("films", "movie_credits")


def test_the_maker_of_a_work_is_a_person_to_search_for(graph: SchemaGraph) -> None:
    assert "person" in read_question("What is the latest movie directed by Christopher Nolan?").all_terms
    assert "person" not in read_question("What is the latest movie?").all_terms
    router = Router(with_catalogue(graph, _films()))
    steps = router.plan("What is the latest movie directed by Christopher Nolan?").steps
    assert [(s.endpoint, dict(s.params).get("query")) for s in steps][:1] == [("search_person", "Christopher Nolan")]
    assert steps[-1].endpoint == "person_movie_credits"
    assert [s.endpoint for s in router.plan("What is the latest movie?").steps] == ["movie_latest"]


def _shows() -> Source:
    show = [_id("tv_id", "TV show")]
    return _source(
        "shows", "TV Database",
        _endpoint("tv_popular", "/tv/popular", "Get a list of the current popular TV shows.", [],
                  _field("id", "results[].id", "integer", identifier=True), _field("name", "results[].name"),
                  _field("popularity", "results[].popularity", "number")),
        _endpoint("tv_details", "/tv/{tv_id}", "Get the primary TV show details by id.", show,
                  _field("name"), _field("first_air_date")),
        _endpoint("tv_credits", "/tv/{tv_id}/credits", "Get the credits (cast and crew) that have been added to a TV show.",
                  show, _field("cast", "cast[].name"), _field("crew", "crew[].name")),
    )


def test_the_lead_actor_of_the_most_popular_show_is_in_its_credits(graph: SchemaGraph) -> None:
    router = Router(with_catalogue(graph, _shows()))
    steps = router.plan("Who is the lead actor in the most popular TV show?").steps
    assert [s.endpoint for s in steps] == ["tv_popular", "tv_credits"]
    assert [s.endpoint for s in router.plan("Which TV shows are popular right now?").steps] == ["tv_popular"]
