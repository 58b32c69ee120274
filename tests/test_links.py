"""Producer -> consumer links derived from declarations alone, here the ids of related records nested
in another endpoint's response (``networks[].id`` for ``network_id``)."""

from __future__ import annotations

from typing import Any

from schemarouter.graph import SchemaGraph
from schemarouter.models import Source
from schemarouter.router import Router
from tests.open_world_support import with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)

BASE = "http://127.0.0.1:9"


def _endpoint(endpoint_id: str, path: str, summary: str, params: list[str], fields: list[str]) -> dict[str, Any]:
    return {"id": endpoint_id, "base_url": BASE, "path": path, "summary": summary,
            "parameters": [{"name": p, "type": "string" if p == "query" else "integer", "required": True}
                           for p in params],
            "fields": [{"name": f, "path": f.replace("networks_", "networks[].").replace("companies_", "companies[]."),
                        "type": "string", "group": "content"} for f in fields]}


def _shows(graph: SchemaGraph) -> SchemaGraph:
    return with_catalogue(graph, Source.model_validate({
        "id": "shows", "title": "Show Database", "domain": "general", "source_type": "curated",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [
            _endpoint("search_tv", "/search/tv", "Search TV shows by name", ["query"], ["id", "name"]),
            _endpoint("tv", "/tv/{tv_id}", "Get a TV show's details", ["tv_id"],
                      ["id", "name", "networks_id", "networks_name", "production_companies_id"]),
            _endpoint("network_logos", "/network/{network_id}/logos", "Get the logos of a TV network", ["network_id"],
                      ["id", "logo_path"]),
            _endpoint("company", "/company/{company_id}", "Get a production company's headquarters", ["company_id"],
                      ["id", "headquarters"]),
        ],
    }))


def test_an_id_nested_in_a_related_record_feeds_the_parameter_of_its_resource(graph: SchemaGraph) -> None:
    shows = _shows(graph)
    links = shows.links[("shows", "network_logos")]["network_id"]
    assert [(link.producer, link.field, link.how) for link in links][:1] == [(("shows", "tv"), "networks_id", "nested id")]
    company = shows.links[("shows", "company")]["company_id"]
    assert ("production_companies_id", "nested id") in [(link.field, link.how) for link in company]


def test_a_three_step_chain_reaches_the_related_record(graph: SchemaGraph) -> None:
    plan = Router(_shows(graph)).plan("What is the logo of the network of the show Game of Thrones?")
    assert [s.endpoint for s in plan.steps] == ["search_tv", "tv", "network_logos"]
    assert plan.steps[2].params["network_id"] == {"from": plan.steps[1].id, "field": "networks_id", "pick": "first"}


def test_a_list_under_another_records_path_feeds_the_ids_of_what_it_lists(graph: SchemaGraph) -> None:
    # /person/{person_id}/movie_credits answers with the person's id at the top and the movies listed
    # under it: a movie's id comes from the listed records, not from the echoed person id
    def field(name: str, path: str) -> dict[str, Any]:
        return {"name": name, "path": path, "type": "integer", "group": "content"}

    films = with_catalogue(graph, Source.model_validate({
        "id": "films", "title": "Film Database", "domain": "general", "source_type": "curated",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [
            {"id": "movie_credits", "base_url": BASE, "path": "/person/{person_id}/movie_credits",
             "summary": "The movies a person worked on",
             "parameters": [{"name": "person_id", "type": "integer", "required": True}],
             "fields": [field("id", "id"), field("cast_id", "cast[].id"), field("crew_id", "crew[].id")]},
            {"id": "keywords", "base_url": BASE, "path": "/movie/{movie_id}/keywords",
             "summary": "The keywords of a movie",
             "parameters": [{"name": "movie_id", "type": "integer", "required": True}],
             "fields": [field("id", "id"), field("keywords_id", "keywords[].id")]},
            {"id": "movie", "base_url": BASE, "path": "/movie/{movie_id}", "summary": "A movie's details",
             "parameters": [{"name": "movie_id", "type": "integer", "required": True}],
             "fields": [field("id", "id")]},
        ],
    }))
    links = {link.producer[1]: link.field for link in films.links[("films", "movie")]["movie_id"]}
    assert links["movie_credits"] == "cast_id"
    assert links["keywords"] == "id", "a movie's own sub-resource echoes that movie's id"


_MOVIE = ["title", "original_title", "release_date", "overview", "poster_path", "popularity", "vote_count"]
_SHOW = ["name", "original_name", "first_air_date", "overview", "poster_path", "popularity", "vote_count"]
_PERSON = ["name", "profile_path", "gender", "popularity"]


def _listing(graph: SchemaGraph, parts: list[str], labels: list[str] | None = None,
             cast: list[str] | None = None) -> SchemaGraph:
    """A source whose collection lists records under ``parts[]`` (and ``labels[]``) and whose movie
    credits list ``cast[]``, with the given field names; movies, shows and people are searched, and
    read by id."""
    def fields(names: list[str], prefix: str = "") -> list[dict[str, Any]]:
        return [{"name": f"{prefix.strip('[].')}_{n}" if prefix else n, "path": prefix + n,
                 "type": "string", "group": "content"} for n in names]

    def read(endpoint_id: str, path: str, param: str, names: list[str]) -> dict[str, Any]:
        return {"id": endpoint_id, "base_url": BASE, "path": path, "summary": f"Read {endpoint_id}",
                "parameters": [{"name": param, "type": "integer" if param.endswith("id") else "string",
                                "required": True}], "fields": fields(["id", *names])}

    collection = read("collection", "/collection/{collection_id}", "collection_id", ["name"])
    collection["fields"] += fields(["id", *parts], "parts[].") + fields(["id", *(labels or [])], "labels[].")
    credits = read("credits", "/movie/{movie_id}/credits", "movie_id", [])
    credits["fields"] += fields(["id", *(cast or ["name"])], "cast[].")
    return with_catalogue(graph, Source.model_validate({
        "id": "screen", "title": "Screen Database", "domain": "general", "source_type": "curated",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [
            read("search_movie", "/search/movie", "query", _MOVIE),
            read("search_tv", "/search/tv", "query", _SHOW),
            read("movie", "/movie/{movie_id}", "movie_id", [*_MOVIE, "budget"]),
            read("show", "/tv/{tv_id}", "tv_id", _SHOW),
            read("genre", "/genre/{genre_id}", "genre_id", ["name"]),
            read("search_collection", "/search/collection", "query", ["name", "backdrop_path"]),
            read("search_person", "/search/person", "query", _PERSON),
            read("person", "/person/{person_id}", "person_id", [*_PERSON, "birthday"]),
            collection,
            credits,
        ],
    }))


def _fed_by(graph: SchemaGraph, endpoint: str, param: str) -> list[tuple[str, str, str]]:
    return [(link.producer[1], link.field, link.how) for link in graph.links.get(("screen", endpoint), {}).get(param, [])]


def test_a_list_shaped_like_a_resources_records_feeds_that_resources_id(graph: SchemaGraph) -> None:
    # a collection lists its movies under parts[]; nothing in its path says "movie", their fields do
    screen = _listing(graph, _MOVIE)
    assert ("collection", "parts_id", "listed records") in _fed_by(screen, "movie", "movie_id")
    assert not [f for f in _fed_by(screen, "show", "tv_id") if f[0] == "collection"]


def test_a_list_that_fits_no_resource_closely_or_only_by_id_and_name_feeds_nothing(graph: SchemaGraph) -> None:
    # more a movie than a show, but not closely a movie; {id, name} is the shape of every small lookup list
    screen = _listing(graph, _MOVIE[:5] + _SHOW[:2], labels=["name"])
    assert not [f for f in _fed_by(screen, "movie", "movie_id") if f[0] == "collection"]
    assert not [f for f in _fed_by(screen, "show", "tv_id") if f[0] == "collection"]
    assert not [f for f in _fed_by(screen, "genre", "genre_id") if f[0] == "collection"]


def test_a_chain_reaches_a_record_listed_by_another_resource(graph: SchemaGraph) -> None:
    plan = Router(_listing(graph, _MOVIE)).plan("What is the budget of a movie of the collection Harry Potter?")
    assert [s.endpoint for s in plan.steps] == ["search_collection", "collection", "movie"]
    assert plan.steps[2].params["movie_id"]["field"] == "parts_id"


def test_a_list_carrying_what_only_one_resources_records_carry_feeds_its_id(graph: SchemaGraph) -> None:
    # a credit lists a person with the role played (character, order): few names in common with a
    # person's record, but profile_path and gender are a person's alone in this source
    screen = _listing(graph, _MOVIE, cast=["name", "character", "order", "profile_path", "gender"])
    assert ("credits", "cast_id", "listed records") in _fed_by(screen, "person", "person_id")
    # one such name is not enough, nor names that other resources' records carry too
    for cast in (["name", "character", "order", "profile_path"], ["name", "character", "popularity", "overview"]):
        screen = _listing(graph, _MOVIE, cast=cast)
        assert not [f for f in _fed_by(screen, "person", "person_id") if f[0] == "credits"], cast
