"""Records asked for in the plural are answered by the search that lists them, not by the detail of
the first one; a question about one record, or about what only the detail says, keeps the chain."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter.graph import SchemaGraph
from schemarouter.models import Source
from schemarouter.plan import PlanStep
from schemarouter.router import Router
from schemarouter.router.records_asked import detail_of_first, plural_terms
from tests.open_world_support import BASE, with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


@pytest.fixture(scope="module")
def router(graph: SchemaGraph) -> Router:
    return Router(with_catalogue(graph))


def _calls(router: Router, question: str) -> list[str]:
    plan = router.plan(question)
    assert plan.declined is None, plan.declined
    return [s.endpoint for s in plan.steps]


def test_records_asked_for_in_the_plural_are_the_search(router: Router) -> None:
    plan = router.plan("Which specimens match 'Tyrannosaurus'?")
    assert [s.endpoint for s in plan.steps] == ["search_specimens"]
    (step,) = plan.steps
    assert step.params == {"q": "Tyrannosaurus"}
    # planned as the answer: the records' own fields, not only the identifier a detail would take
    assert "name" in step.fields


@pytest.mark.parametrize(("question", "calls"), [
    # one record: the detail of the one the search finds
    ("Where was the specimen 'Tyrannosaurus Sue' found?", ["search_specimens", "specimen"]),
    # the records in the plural, but asked what only their detail declares
    ("Which specimens match 'Sue', and what is their locality?", ["search_specimens", "specimen"]),
    # the plural names the records, and the second step lists others under the first (its images)
    ("Find specimens called 'Sue' and show their images", ["search_specimens", "specimen_images"]),
])
def test_the_chain_stays_where_the_detail_answers(router: Router, question: str, calls: list[str]) -> None:
    assert _calls(router, question) == calls


@pytest.mark.parametrize(("question", "plural"), [
    ("Which repositories match 'Cambridge'?", {"repositori"}),
    ("terms matching 'muscle atrophy'", {"term"}),
    # spelled alike in both numbers, or ending in -ss, -us, -is: no plural
    ("the analysis of a TV series, its status and news", set()),
    ("class", set()),
])
def test_words_written_in_the_plural(question: str, plural: set[str]) -> None:
    assert plural_terms(question) == plural


def _videos() -> Source:
    """Videos by category, and the categories of a video."""
    def endpoint(eid: str, path: str, param: str, summary: str, fields: list[str]) -> dict[str, Any]:
        return {"id": eid, "base_url": BASE, "path": path, "summary": summary,
                "parameters": [{"name": param, "type": "string", "required": True}],
                "fields": [{"name": f, "path": f, "type": "string", "group": "content"} for f in fields]}
    return Source.model_validate({
        "id": "clips", "title": "Clips", "domain": "general", "source_type": "web",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [
            # each video carries its categories: what the second step lists of one video, the list has
            endpoint("category_videos", "/categories/{category}/videos", "category", "Videos in a category",
                     ["uri", "name", "user_name", "categories"]),
            endpoint("video_categories", "/videos/{video_id}/categories", "video_id", "Categories of a video",
                     ["uri", "name"]),
        ],
    })


@pytest.mark.parametrize(("question", "kept"), [
    # the videos asked for: what the first of them lists is not the answer
    ("Show me videos from the documentary category", False),
    # one video: its categories are asked of it
    ("Which categories does the first video of the documentary category belong to?", True),
])
def test_a_step_on_the_first_of_the_records_asked_for_is_left_out(graph: SchemaGraph, question: str,
                                                                  kept: bool) -> None:
    crowded = with_catalogue(graph, _videos())
    analysis = Router(crowded).understander.understand(question, crowded)
    steps = [PlanStep(id="s1", source="clips", endpoint="category_videos", params={"category": "documentary"},
                      fields=["uri"]),
             PlanStep(id="s2", source="clips", endpoint="video_categories",
                      params={"video_id": {"from": "s1", "field": "uri", "pick": "first"}}, fields=["name"])]
    assert (detail_of_first(steps, crowded, analysis) is None) == kept


def _films() -> Source:
    """Collections of films: a search, a collection with its parts, a film's release dates."""
    def endpoint(eid: str, path: str, param: str, summary: str, fields: dict[str, str]) -> dict[str, Any]:
        return {"id": eid, "base_url": BASE, "path": path, "summary": summary,
                "parameters": [{"name": param, "type": "string", "required": True}],
                "fields": [{"name": n, "path": p, "type": "string", "group": "content"} for n, p in fields.items()]}
    return Source.model_validate({
        "id": "reels", "title": "Reels", "domain": "general", "source_type": "web",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [
            endpoint("search_collection", "/search/collection", "query", "Search collections",
                     {"id": "results[].id", "name": "results[].name"}),
            endpoint("collection", "/collection/{collection_id}", "collection_id", "Get a collection",
                     {"name": "name", "part_id": "parts[].id", "part_title": "parts[].title",
                      "part_release_date": "parts[].release_date"}),
            endpoint("movie_release_dates", "/movie/{movie_id}/release_dates", "movie_id",
                     "Get the release dates of a movie", {"release_date": "results[].release_date"}),
        ],
    })


@pytest.mark.parametrize(("question", "listed"), [
    # the movies asked for are the collection's parts, which carry their release dates
    ("When are the release dates for the movies of the collection The Hobbit?", True),
    # one movie: its own release dates
    ("When is the release date of the first movie of the collection The Hobbit?", False),
])
def test_the_list_may_be_a_step_on_a_record_found_before_it(graph: SchemaGraph, question: str,
                                                            listed: bool) -> None:
    crowded = with_catalogue(graph, _films())
    analysis = Router(crowded).understander.understand(question, crowded)
    steps = [PlanStep(id="s1", source="reels", endpoint="search_collection", params={"query": "The Hobbit"},
                      fields=["id"]),
             PlanStep(id="s2", source="reels", endpoint="collection",
                      params={"collection_id": {"from": "s1", "field": "id", "pick": "first"}}, fields=["part_id"]),
             PlanStep(id="s3", source="reels", endpoint="movie_release_dates",
                      params={"movie_id": {"from": "s2", "field": "part_id", "pick": "first"}},
                      fields=["release_date"])]
    found = detail_of_first(steps, crowded, analysis)
    assert (found is not None and found.endpoint == "collection") == listed
