"""Small tool inventories written in a test: endpoints of an imported catalogue as a user's OpenAPI
import would declare them (operation ids for names, no vocabulary), and the calls a plan makes."""

from __future__ import annotations

from typing import Any

from schemarouter.models import Source

TOOL_BASE = "http://127.0.0.1:9"  # nothing listens there: tests plan, they never call


def field(name: str, type_: str = "string") -> dict[str, Any]:
    """A response field declared by name only."""
    return {"name": name, "path": name, "type": type_, "group": "content"}


def endpoint(endpoint_id: str, path: str, summary: str, params: list[dict[str, Any]], fields: list[str],
             method: str = "GET", description: str | None = None) -> dict[str, Any]:
    """An endpoint declaration: a GET reads, any other method writes."""
    declared = {"id": endpoint_id, "base_url": TOOL_BASE, "path": path, "method": method, "summary": summary,
                "access": "read" if method == "GET" else "write", "parameters": params,
                "fields": [field(f) for f in fields]}
    if description is not None:
        declared["description"] = description
    return declared


def source(source_id: str, endpoints: list[dict[str, Any]]) -> Source:
    """A source holding ``endpoints``, titled after its id."""
    return Source.model_validate({
        "id": source_id, "title": source_id.replace("_", " ").title(), "domain": "general",
        "source_type": "curated", "license": {"id": "CC0-1.0", "name": "CC0"}, "endpoints": endpoints,
    })


def req(name: str, type_: str) -> dict[str, Any]:
    """A required parameter."""
    return {"name": name, "type": type_, "required": True}


def calls(plan: Any) -> list[str]:
    """The ``source.endpoint`` of each step of ``plan``."""
    return [f"{s.source}.{s.endpoint}" for s in plan.steps]
