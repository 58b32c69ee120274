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


def _endpoint(eid: str, path: str, param: str, summary: str, fields: dict[str, str]) -> dict[str, Any]:
    """An imported endpoint taking one required text parameter; ``fields``: name -> path."""
    return {"id": eid, "base_url": BASE, "path": path, "summary": summary,
            "parameters": [{"name": param, "type": "string", "required": True}],
            "fields": [{"name": n, "path": p, "type": "string", "group": "content"} for n, p in fields.items()]}


def _source(sid: str, *endpoints: dict[str, Any]) -> Source:
    return Source.model_validate({"id": sid, "title": sid.title(), "domain": "general", "source_type": "web",
                                  "license": {"id": "CC0-1.0", "name": "CC0"}, "endpoints": list(endpoints)})


def _listed(graph: SchemaGraph, source: Source, question: str, steps: list[PlanStep]) -> PlanStep | None:
    """:func:`detail_of_first` of ``steps`` for ``question`` over the catalogue and ``source``."""
    crowded = with_catalogue(graph, source)
    return detail_of_first(steps, crowded, Router(crowded).understander.understand(question, crowded))


def _step(sid: str, source: str, endpoint: str, params: dict[str, Any]) -> PlanStep:
    return PlanStep(id=sid, source=source, endpoint=endpoint, params=params, fields=[])


# videos by category (each video carrying its categories), and the categories of a video
VIDEOS = _source(
    "clips",
    _endpoint("category_videos", "/categories/{category}/videos", "category", "Videos in a category",
              {"uri": "uri", "name": "name", "user_name": "user_name", "categories": "categories"}),
    _endpoint("video_categories", "/videos/{video_id}/categories", "video_id", "Categories of a video",
              {"uri": "uri", "name": "name"}),
)


@pytest.mark.parametrize(("question", "kept"), [
    # the videos asked for: what the first of them lists is not the answer
    ("Show me videos from the documentary category", False),
    # one video: its categories are asked of it
    ("Which categories does the first video of the documentary category belong to?", True),
])
def test_a_step_on_the_first_of_the_records_asked_for_is_left_out(graph: SchemaGraph, question: str,
                                                                  kept: bool) -> None:
    steps = [_step("s1", "clips", "category_videos", {"category": "documentary"}),
             _step("s2", "clips", "video_categories", {"video_id": {"from": "s1", "field": "uri", "pick": "first"}})]
    assert (_listed(graph, VIDEOS, question, steps) is None) == kept


# collections of films: a search, a collection with its parts, a film's release dates
FILMS = _source(
    "reels",
    _endpoint("search_collection", "/search/collection", "query", "Search collections",
              {"id": "results[].id", "name": "results[].name"}),
    _endpoint("collection", "/collection/{collection_id}", "collection_id", "Get a collection",
              {"name": "name", "part_id": "parts[].id", "part_title": "parts[].title",
               "part_release_date": "parts[].release_date"}),
    _endpoint("movie_release_dates", "/movie/{movie_id}/release_dates", "movie_id",
              "Get the release dates of a movie", {"release_date": "results[].release_date"}),
)


@pytest.mark.parametrize(("question", "listed"), [
    # the movies asked for are the collection's parts, which carry their release dates
    ("When are the release dates for the movies of the collection The Hobbit?", True),
    # one movie: its own release dates
    ("When is the release date of the first movie of the collection The Hobbit?", False),
])
def test_the_list_may_be_a_step_on_a_record_found_before_it(graph: SchemaGraph, question: str,
                                                            listed: bool) -> None:
    steps = [_step("s1", "reels", "search_collection", {"query": "The Hobbit"}),
             _step("s2", "reels", "collection", {"collection_id": {"from": "s1", "field": "id", "pick": "first"}}),
             _step("s3", "reels", "movie_release_dates", {"movie_id": {"from": "s2", "field": "part_id",
                                                                       "pick": "first"}})]
    found = _listed(graph, FILMS, question, steps)
    assert (found is not None and found.endpoint == "collection") == listed
