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
