"""A question asking for a thing by its kind also says the word APIs declare such things by: a picture
("logo", "poster", "photo") is an image; who acted in a work its cast, who made it its crew; the one
who made a work a person."""

from __future__ import annotations

from schemarouter.graph import SchemaGraph
from schemarouter.graph.lexical import best_scored
from schemarouter.models import Source
from schemarouter.router import Router
from schemarouter.router.open_route import read_numbers
from tests.open_world_support import read_question, with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


def _broadcasters() -> Source:
    network = {"name": "network_id", "type": "integer", "required": True,
               "description": "The id of the network."}
    return Source.model_validate({
        "id": "broadcast", "title": "Broadcast Networks", "domain": "general", "source_type": "web",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [
            {"id": "network_details", "base_url": "http://127.0.0.1:9", "path": "/network/{network_id}",
             "summary": "Get the details of a network.", "parameters": [network],
             "fields": [{"name": "name", "path": "name", "type": "string", "group": "content"},
                        {"name": "headquarters", "path": "headquarters", "type": "string", "group": "content"}]},
            {"id": "network_images", "base_url": "http://127.0.0.1:9", "path": "/network/{network_id}/images",
             "summary": "Get the images of a network.", "parameters": [network],
             "fields": [{"name": "file_path", "path": "file_path", "type": "string", "group": "content"},
                        {"name": "width", "path": "width", "type": "integer", "group": "content"}]},
        ],
    })


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
    movie = {"name": "movie_id", "type": "integer", "required": True, "description": "The id of the movie."}
    return Source.model_validate({
        "id": "films", "title": "Film Database", "domain": "general", "source_type": "web",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [
            {"id": "search_movie", "base_url": "http://127.0.0.1:9", "path": "/search/movie",
             "summary": "Search for movies by their original, translated and alternative titles.",
             "parameters": [{"name": "query", "type": "string", "required": True,
                             "description": "The text to search for."}],
             "fields": [{"name": "id", "path": "results[].id", "type": "integer", "group": "content",
                         "identifier": True},
                        {"name": "title", "path": "results[].title", "type": "string", "group": "content"}]},
            {"id": "movie_details", "base_url": "http://127.0.0.1:9", "path": "/movie/{movie_id}",
             "summary": "Get the primary information about a movie.", "parameters": [movie],
             "fields": [{"name": "title", "path": "title", "type": "string", "group": "content"},
                        {"name": "runtime", "path": "runtime", "type": "integer", "group": "content"}]},
            {"id": "movie_latest", "base_url": "http://127.0.0.1:9", "path": "/movie/latest",
             "summary": "Get the most newly created movie.", "parameters": [],
             "fields": [{"name": "title", "path": "title", "type": "string", "group": "content"}]},
            {"id": "search_person", "base_url": "http://127.0.0.1:9", "path": "/search/person",
             "summary": "Search for people by their name and also known as names.",
             "parameters": [{"name": "query", "type": "string", "required": True,
                             "description": "The text to search for."}],
             "fields": [{"name": "id", "path": "results[].id", "type": "integer", "group": "content",
                         "identifier": True},
                        {"name": "name", "path": "results[].name", "type": "string", "group": "content"}]},
            {"id": "person_movie_credits", "base_url": "http://127.0.0.1:9",
             "path": "/person/{person_id}/movie_credits",
             "summary": "Get the movie credits for a person.",
             "parameters": [{"name": "person_id", "type": "integer", "required": True,
                             "description": "The id of the person."}],
             "fields": [{"name": "title", "path": "crew[].title", "type": "string", "group": "content"},
                        {"name": "release_date", "path": "crew[].release_date", "type": "string",
                         "group": "content"}]},
            {"id": "movie_credits", "base_url": "http://127.0.0.1:9", "path": "/movie/{movie_id}/credits",
             "summary": "Get the cast and crew for a movie.", "parameters": [movie],
             "fields": [{"name": "cast", "path": "cast[].name", "type": "string", "group": "content"},
                        {"name": "crew", "path": "crew[].name", "type": "string", "group": "content"},
                        {"name": "job", "path": "crew[].job", "type": "string", "group": "content"}]},
        ],
    })


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
    show = {"name": "tv_id", "type": "integer", "required": True, "description": "The id of the TV show."}
    return Source.model_validate({
        "id": "shows", "title": "TV Database", "domain": "general", "source_type": "web",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [
            {"id": "tv_popular", "base_url": "http://127.0.0.1:9", "path": "/tv/popular",
             "summary": "Get a list of the current popular TV shows.", "parameters": [],
             "fields": [{"name": "id", "path": "results[].id", "type": "integer", "group": "content",
                         "identifier": True},
                        {"name": "name", "path": "results[].name", "type": "string", "group": "content"},
                        {"name": "popularity", "path": "results[].popularity", "type": "number",
                         "group": "content"}]},
            {"id": "tv_details", "base_url": "http://127.0.0.1:9", "path": "/tv/{tv_id}",
             "summary": "Get the primary TV show details by id.", "parameters": [show],
             "fields": [{"name": "name", "path": "name", "type": "string", "group": "content"},
                        {"name": "first_air_date", "path": "first_air_date", "type": "string", "group": "content"}]},
            {"id": "tv_credits", "base_url": "http://127.0.0.1:9", "path": "/tv/{tv_id}/credits",
             "summary": "Get the credits (cast and crew) that have been added to a TV show.", "parameters": [show],
             "fields": [{"name": "cast", "path": "cast[].name", "type": "string", "group": "content"},
                        {"name": "crew", "path": "crew[].name", "type": "string", "group": "content"}]},
        ],
    })


def test_the_lead_actor_of_the_most_popular_show_is_in_its_credits(graph: SchemaGraph) -> None:
    router = Router(with_catalogue(graph, _shows()))
    steps = router.plan("Who is the lead actor in the most popular TV show?").steps
    assert [s.endpoint for s in steps] == ["tv_popular", "tv_credits"]
    assert [s.endpoint for s in router.plan("Which TV shows are popular right now?").steps] == ["tv_popular"]
