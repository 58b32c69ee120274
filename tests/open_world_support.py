"""A source declared the way an OpenAPI import declares one: no concepts, intents or aliases.

A natural-history specimen catalogue (made up for the tests, shaped like real collection APIs): a
search by name, list endpoints, detail endpoints keyed by ids in the path, an images endpoint, a
collector endpoint, and a write operation. Routing tests put it beside the 19 first-party sources.
"""

from __future__ import annotations

from typing import Any

from schemarouter.declarations import Declarations, Owner
from schemarouter.graph import SchemaGraph, build_graph
from schemarouter.models import Source
from schemarouter.plan import Understanding
from schemarouter.understand.base import Analysis
from schemarouter.understand.reading import read_values

BASE = "http://127.0.0.1:9"  # replaced by a live local server where a test executes


def _field(name: str, path: str | None = None, type_: str = "string", description: str = "") -> dict[str, Any]:
    return {"name": name, "path": path or name, "type": type_, "group": "content", "description": description}


def catalogue(base_url: str = BASE, feeds: list[dict[str, str]] | None = None) -> Source:
    """The specimen catalogue, with its endpoints at ``base_url``."""
    return Source.model_validate({
        "id": "specimens",
        "title": "Natural History Specimen Catalogue",
        "domain": "general",
        "source_type": "curated",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "feeds": feeds or [],
        "endpoints": [
            {"id": "search_specimens", "base_url": base_url, "path": "/search/specimens",
             "summary": "Search specimens", "description": "Search specimens by name.",
             "parameters": [{"name": "q", "type": "string", "required": True, "description": "Search text."}],
             "fields": [_field("id", "id", "integer"), _field("name"), _field("collected_date")]},
            {"id": "specimen", "base_url": base_url, "path": "/specimens/{specimen_id}",
             "summary": "Get specimen details",
             "parameters": [{"name": "specimen_id", "type": "integer", "required": True}],
             "fields": [_field("id", "id", "integer"), _field("name"), _field("locality", description="Where it was found."),
                        _field("collected_date"), _field("collector_id", type_="integer")]},
            {"id": "specimen_images", "base_url": base_url, "path": "/specimens/{specimen_id}/images",
             "summary": "Get the images of a specimen",
             "parameters": [{"name": "specimen_id", "type": "integer", "required": True}],
             "fields": [_field("images_file_path", "images[].file_path"), _field("images_width", "images[].width", "integer")]},
            {"id": "recent_specimens", "base_url": base_url, "path": "/specimens/recent",
             "summary": "Recently catalogued specimens",
             "fields": [_field("id", "id", "integer"), _field("name")]},
            {"id": "collector", "base_url": base_url, "path": "/collectors/{collector_id}",
             "summary": "Get a collector",
             "parameters": [{"name": "collector_id", "type": "integer", "required": True}],
             "fields": [_field("id", "id", "integer"), _field("name"), _field("birth_date")]},
            {"id": "create_loan", "method": "POST", "access": "write", "base_url": base_url,
             "path": "/specimens/{specimen_id}/loans", "summary": "Request a loan of a specimen",
             "parameters": [{"name": "specimen_id", "type": "integer", "required": True}],
             "fields": [_field("loan_id")]},
        ],
    })


def with_catalogue(base: SchemaGraph, source: Source | None = None) -> SchemaGraph:
    """``base``'s declarations plus the catalogue, as a new graph."""
    decls = Declarations(
        intents=dict(base.decls.intents), field_groups=dict(base.decls.field_groups),
        concepts=dict(base.decls.concepts), sources=dict(base.decls.sources), owners=dict(base.decls.owners),
    )
    src = source or catalogue()
    decls.sources[src.id] = src
    decls.owners[src.id] = Owner("local", "specimens.yaml", "")
    return build_graph(decls, f"test:{base.fingerprint}:{src.id}")


def read_question(text: str) -> Analysis:
    """The shared value reading of ``text`` alone (no registry, no entity readers)."""
    a = Analysis(question=text, understanding=Understanding())
    read_values(a, text, [])
    return a
