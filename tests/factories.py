"""Small valid declarations for tests, built as plain dicts so a test can break one key."""

from __future__ import annotations

import copy
from typing import Any

from schemarouter import hookimpl
from schemarouter.models import Source

BASE_SOURCE: dict[str, Any] = {
    "id": "lab_store",
    "title": "Lab store",
    "aliases": ["lab database"],
    "domain": "materials",
    "description": "A fictional internal store of measured band gaps.",
    "homepage": "https://lab.example.org",
    "source_type": "experimental",
    "license": {"id": "LicenseRef-internal", "name": "Internal use", "attribution": "Lab store team", "verified": True},
    "auth": {"env": "LAB_STORE_TOKEN", "in": "header", "name": "Authorization"},
    "priority": 4,
    "endpoints": [
        {
            "id": "samples",
            "method": "GET",
            "base_url": "https://lab.example.org",
            "path": "/api/samples",
            "intents": ["material_property"],
            "parameters": [
                {"name": "formula", "type": "string", "concept": "formula", "example": "GaN"},
            ],
            "fields": [
                {"name": "sample_id", "path": "id", "type": "string", "group": "identity", "identifier": True},
                {"name": "gap", "path": "optics.gap.value", "type": "number", "unit": "eV",
                 "group": "electronic", "concepts": ["band_gap"], "aliases": ["optical gap"]},
            ],
        }
    ],
}


def source_dict(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE_SOURCE)
    data.update(changes)
    return data


def source(**changes: Any) -> Source:
    return Source.model_validate(source_dict(**changes))


class SourcePlugin:
    """A plugin object registering the given source dicts or models."""

    def __init__(self, name: str, *sources: Any) -> None:
        self.__name__ = name
        self._sources = sources

    @hookimpl
    def register_sources(self, register):  # type: ignore[no-untyped-def]
        for item in self._sources:
            register(item)
