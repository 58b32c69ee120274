"""A chain is as long as the question needs: a step that adds nothing to what its producers explain
is no reason to plan it (the plan stays minimal), while one whose own path names what it explains
more firmly is."""

from __future__ import annotations

from typing import Any

from schemarouter.graph import SchemaGraph
from schemarouter.models import Source
from schemarouter.router import Router
from tests.open_world_support import catalogue, with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


def _field(name: str, type_: str = "string", description: str = "") -> dict[str, Any]:
    return {"name": name, "path": name, "type": type_, "group": "content", "description": description}


def _router(graph: SchemaGraph, detail_summary: str) -> Router:
    """The catalogue with a collector search, a collector's specimens (each with its locality) and
    the specimen detail summarized as ``detail_summary``."""
    declared = catalogue().model_dump()
    base = declared["endpoints"][0]["base_url"]
    detail = next(e for e in declared["endpoints"] if e["id"] == "specimen")
    detail["summary"] = detail_summary
    declared["endpoints"] += [
        {"id": "search_collectors", "base_url": base, "path": "/search/collectors", "summary": "Search collectors",
         "description": "Search collectors by name.",
         "parameters": [{"name": "q", "type": "string", "required": True, "description": "Search text."}],
         "fields": [_field("id", "integer"), _field("name")]},
        {"id": "collector_specimens", "base_url": base, "path": "/collectors/{collector_id}/specimens",
         "summary": "Specimens a collector catalogued",
         "parameters": [{"name": "collector_id", "type": "integer", "required": True}],
         "fields": [_field("id", "integer"), _field("name"), _field("site", description="The locality."),
                    _field("thumbnail", description="A small image of it.")]},
    ]
    return Router(with_catalogue(graph, Source.model_validate(declared)))


def calls(router: Router, question: str) -> list[str]:
    return [s.endpoint for s in router.plan(question).steps]


ASKED = "Which specimens did the collector Mary Anning catalogue, and their {}?"


def test_a_last_step_that_only_says_a_word_more_firmly_is_not_planned(graph: SchemaGraph) -> None:
    # the detail says "locality" in its summary, the collector's specimens only in a field's
    # description: every word of the question is explained without the detail
    router = _router(graph, "Get the locality of a specimen")
    assert calls(router, ASKED.format("locality")) == ["search_collectors", "collector_specimens"]


def test_a_last_step_whose_path_names_the_word_it_says_more_firmly_is_planned(graph: SchemaGraph) -> None:
    # the collector's specimens describe a thumbnail as an image; /specimens/{specimen_id}/images is
    # the images themselves
    router = _router(graph, "Get the locality of a specimen")
    assert calls(router, ASKED.format("images")) == ["search_collectors", "collector_specimens", "specimen_images"]
