"""An example schemarouter plugin: declares a fictional thin-film lab and adds concept aliases.

Install it with ``pip install docs/examples/schemarouter-example-plugin`` and run
``schemarouter registry sync``: the source ``example_thin_films`` appears in the registry.
"""

from __future__ import annotations

from collections.abc import Callable

from schemarouter.adapters import DomainConcept, Source, hookimpl

THIN_FILMS = Source.model_validate(
    {
        "id": "example_thin_films",
        "title": "Example thin-film lab",
        "aliases": ["thin-film lab", "film store"],
        "domain": "materials",
        "description": "Measured optical band gaps and thicknesses of sputtered thin films (fictional).",
        "source_type": "experimental",
        "license": {"id": "LicenseRef-example-internal", "name": "Internal use only",
                    "attribution": "Example thin-film lab", "verified": True},
        "auth": {"env": "EXAMPLE_LAB_TOKEN", "in": "header", "name": "Authorization"},
        "priority": 4,
        "endpoints": [
            {
                "id": "films",
                "method": "GET",
                "base_url": "https://films.example.org",
                "path": "/api/v1/films",
                "intents": ["material_property"],
                "parameters": [{"name": "formula", "type": "string", "concept": "formula", "example": "ZnO"}],
                "fields": [
                    {"name": "film_id", "path": "id", "type": "string", "group": "identity", "identifier": True},
                    {"name": "optical_gap", "path": "optics.tauc_gap", "type": "number", "unit": "eV",
                     "group": "electronic", "concepts": ["band_gap"], "aliases": ["Tauc gap"]},
                    {"name": "thickness", "path": "geometry.thickness", "type": "number", "unit": "nm",
                     "group": "structure", "aliases": ["film thickness"]},
                ],
            }
        ],
    }
)


@hookimpl
def register_sources(register: Callable[[Source], None]) -> None:
    register(THIN_FILMS)


@hookimpl
def register_concepts(register: Callable[[DomainConcept], None]) -> None:
    register(DomainConcept(name="band_gap", aliases=["Tauc gap", "optical absorption edge"]))
