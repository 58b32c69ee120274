"""A question that names a service the registry lacks ("Use the Spotify API ...") is declined with
that name; one naming a registered source, or a service only by what it serves, is planned."""

from __future__ import annotations

import pytest

from schemarouter.graph import SchemaGraph
from schemarouter.models import Source
from schemarouter.router import Router
from schemarouter.understand.unregistered import unregistered_sources
from tests.open_world_support import with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


@pytest.fixture(scope="module")
def router(graph: SchemaGraph) -> Router:
    films = Source.model_validate({
        "id": "omdb", "title": "OMDb", "domain": "general", "source_type": "web",
        "description": "The Open Movie Database. The OMDb API is a free web service to obtain movie information.",
        "license": {"id": "CC-BY-NC-4.0", "name": "CC BY-NC 4.0"},
        "endpoints": [{"id": "search", "base_url": "http://127.0.0.1:9", "path": "/",
                       "summary": "Find a movie by title",
                       "parameters": [{"name": "t", "type": "string", "required": True,
                                       "description": "Movie title to search for."}],
                       "fields": [{"name": "Director", "path": "Director", "type": "string", "group": "content"}]}],
    })
    return Router(with_catalogue(graph, films))


@pytest.mark.parametrize(("question", "named"), [
    ("Use the Spotify API to get Taylor Swift's top tracks", "Spotify"),
    ("Ask the Wolfram Alpha API for the integral of x^2", "Wolfram Alpha"),
    ("What is the molecular weight of aspirin in the ChemSpider database?", "ChemSpider"),
])
def test_a_service_the_registry_lacks_is_declined_by_its_name(router: Router, question: str, named: str) -> None:
    plan = router.plan(question)
    assert plan.steps == [] and plan.declined is not None
    assert plan.declined.startswith(f"names {named}, which is not a registered source")


@pytest.mark.parametrize(("question", "source"), [
    ("Query the PubChem API for the molecular weight of aspirin", "pubchem"),
    ("What is the band gap of GaN in the Materials Project database?", "materials_project"),
])
def test_a_registered_service_named_so_is_planned(router: Router, question: str, source: str) -> None:
    plan = router.plan(question)
    assert plan.declined is None and plan.steps[0].source == source


def test_a_service_its_own_description_names_is_registered(router: Router) -> None:
    # no alias says "Open Movie Database"; OMDb's description does
    known = router.graph.lexical.structural.__contains__
    assert unregistered_sources("Who directed Inception according to the Open Movie Database?", router.graph,
                                known) == []
    assert unregistered_sources("Who directed Inception according to the Free Film Database?", router.graph,
                                known) == ["Free Film"]


def test_a_service_named_only_by_what_it_serves_is_no_stranger(router: Router) -> None:
    # every word is vocabulary of the registry: it describes what is asked, it names no service
    assert unregistered_sources("Get the Compound Properties API for aspirin", router.graph,
                                router.graph.lexical.structural.__contains__) == []
    # ... and a name without a service's word after it is a value, not a source
    assert unregistered_sources("How many records does the Open Research Online repository have?", router.graph,
                                router.graph.lexical.structural.__contains__) == []
