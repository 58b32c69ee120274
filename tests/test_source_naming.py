"""A source is named by its name, not by every question that uses an ordinary word its name happens to be."""

from __future__ import annotations

from typing import Any

from schemarouter.declarations import Declarations, Owner
from schemarouter.graph import SchemaGraph, build_graph
from schemarouter.models import Source
from schemarouter.router import Router
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)

BASE = "http://127.0.0.1:9"


def _source(source_id: str, title: str, summary: str, params: list[str]) -> Source:
    endpoint: dict[str, Any] = {
        "id": "lookup", "base_url": BASE, "path": "/lookup", "summary": summary,
        "parameters": [{"name": p, "type": "string", "required": True} for p in params],
        "fields": [{"name": "name", "path": "name", "type": "string", "group": "content"}],
    }
    return Source.model_validate({"id": source_id, "title": title, "domain": "general", "source_type": "curated",
                                  "license": {"id": "CC0-1.0", "name": "CC0"}, "endpoints": [endpoint]})


def _tools(base: SchemaGraph, others: int) -> SchemaGraph:
    """A tool titled with one ordinary word ("Location") beside ``others`` tools whose declarations use it."""
    decls = Declarations(intents=dict(base.decls.intents), field_groups=dict(base.decls.field_groups),
                         concepts=dict(base.decls.concepts), sources=dict(base.decls.sources),
                         owners=dict(base.decls.owners))
    tools = [_source("location", "Location", "Addresses by latitude and longitude", ["latlng"])]
    tools += [_source(f"places_{i}", f"Places {i}", "Attractions near a location", ["location"])
              for i in range(others)]
    for tool in tools:
        decls.sources[tool.id] = tool
        decls.owners[tool.id] = Owner("local", f"{tool.id}.yaml", "")
    return build_graph(decls, f"test:{base.fingerprint}:naming:{others}")


def _named(g: SchemaGraph, question: str) -> list[str]:
    return Router(g).understander.understand(question, g).understanding.named_tools


def test_a_word_other_sources_declare_names_no_source_in_lower_case(graph: SchemaGraph) -> None:
    tools = _tools(graph, others=3)
    assert _named(tools, "Suggest attractions near my current location") == []


def test_the_word_still_names_the_source_written_as_a_name_or_where_no_other_source_uses_it(
        graph: SchemaGraph) -> None:
    assert _named(_tools(graph, others=3), "Ask Location for the address at 48.85,2.35") == ["location"]
    assert _named(_tools(graph, others=1), "Suggest attractions near my current location") == ["location"]
