"""Records asked for in the plural are answered by the search that lists them, not by the detail of
the first one; a question about one record, or about what only the detail says, keeps the chain."""

from __future__ import annotations

import pytest

from schemarouter.graph import SchemaGraph
from schemarouter.router import Router
from schemarouter.router.records_asked import plural_terms
from tests.open_world_support import with_catalogue
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
