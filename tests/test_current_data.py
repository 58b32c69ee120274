"""A question about now is planned with a source that says it serves current data: a described
source that does not yields to the best candidate that does, and only where none does is the
question declined (evidence re-ranks; it never gates)."""

from __future__ import annotations

import pytest

from schemarouter.graph import SchemaGraph
from schemarouter.models import Source
from schemarouter.router import Router
from tests.open_world_support import BASE, with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)

BLOGGER = ("I'm a football blogger and need fresh content for my website. Can you fetch the latest football news "
           "articles from Eurosport and provide the titles, descriptions, and publication dates? Additionally, I want to include "
           "live world football news on my blog.")


@pytest.fixture(scope="module")
def router(graph: SchemaGraph) -> Router:
    news = Source.model_validate({
        "id": "wire", "title": "Wire Desk", "domain": "general", "source_type": "web",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [{"id": "live_news", "base_url": BASE, "path": "/football/news",
                       "summary": "All world football news live",
                       "fields": [{"name": "title", "path": "title", "type": "string", "group": "content"},
                                  {"name": "url", "path": "url", "type": "string", "group": "content"}]}],
    })
    return Router(with_catalogue(graph, news))


def test_a_question_about_now_goes_to_the_candidate_that_serves_current_data(router: Router) -> None:
    # the vocabulary reads a request for web content; the web search it plans says nothing of now
    plan = router.plan(BLOGGER)
    assert plan.declined is None
    assert [(s.source, s.endpoint) for s in plan.steps] == [("wire", "live_news")]


def test_a_question_about_now_no_candidate_serves_is_still_declined(router: Router) -> None:
    plan = router.plan("What is Samsung Electronics' stock price right now?")
    assert not plan.steps and plan.declined is not None and "current data" in plan.declined
