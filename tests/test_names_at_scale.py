"""A title stays a name however large the registry: its words known one by one, each from another
endpoint, are not a phrase the registry declares.

A capitalized phrase made only of the registry's words ("Human Phenotype Ontology") names a thing the
sources describe, so it is read as words, not as a value to search for. In a registry of thousands of
endpoints nearly every word is declared somewhere: "sword", "art" and "online" each by some endpoint,
and "Sword Art Online" would stop being a title if each word were checked on its own. The words of
a name count as the registry's only where one endpoint declares them together.
"""

from __future__ import annotations

from typing import Any

from schemarouter.graph import SchemaGraph
from schemarouter.models import Source
from schemarouter.plan import Understanding
from schemarouter.router import Router
from schemarouter.understand.base import Analysis
from schemarouter.understand.reading import read_values
from tests.open_world_support import with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


def _endpoint(eid: str, path: str, summary: str) -> dict[str, Any]:
    return {"id": eid, "base_url": "http://127.0.0.1:9", "path": path, "summary": summary,
            "fields": [{"name": "id", "path": "id", "type": "integer", "group": "content"},
                       {"name": "name", "path": "name", "type": "string", "group": "content"}]}


def _scattered() -> Source:
    """A source whose endpoints declare "sword", "art" and "online" each on its own, and "phenotype
    ontology" together."""
    return Source.model_validate({
        "id": "miscellany", "title": "Miscellany", "domain": "general", "source_type": "curated",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [
            _endpoint("swords", "/swords", "List swords"),
            _endpoint("artworks", "/art/works", "List art works"),
            _endpoint("online_users", "/users/online", "Users online now"),
            _endpoint("phenotype_terms", "/phenotype-ontology/terms", "Terms of the phenotype ontology"),
        ],
    })


def test_words_declared_apart_do_not_unmake_a_title(graph: SchemaGraph) -> None:
    crowded = with_catalogue(graph, _scattered())
    router = Router(crowded)
    assert {"sword", "art", "onlin"} <= crowded.lexical.structural  # each word is the registry's
    analysis = router.understander.understand("How many seasons of Sword Art Online are there?", crowded)
    assert [e.value for e in analysis.names] == ["Sword Art Online"]
    assert not crowded.lexical.together(["sword", "art", "onlin"])  # no endpoint declares them all


def test_words_one_endpoint_declares_together_are_the_registrys(graph: SchemaGraph) -> None:
    crowded = with_catalogue(graph, _scattered())
    analysis = Router(crowded).understander.understand("List the terms of the Phenotype Ontology", crowded)
    assert [e.value for e in analysis.names] == []
    assert crowded.lexical.together(["phenotyp", "ontolog"])


def test_each_name_a_phrase_joins_is_checked_on_its_own() -> None:
    # "Swords and Art Works": two things, each declared together by an endpoint of its own
    declared_together = [{"sword"}, {"art", "work"}]

    def together(terms: list[str]) -> bool:
        return any(set(terms) <= group for group in declared_together)

    known = {"sword", "art", "work"}.__contains__
    a = Analysis(question="", understanding=Understanding())
    read_values(a, "Compare Swords and Art Works in the catalogue", [], known=known, together=together)
    assert [e.value for e in a.names] == []
    # one name of words declared apart is a name
    read_values(a, "Find the Sword Art collection", [], known=known, together=together)
    assert [e.value for e in a.names] == ["Sword Art"]
