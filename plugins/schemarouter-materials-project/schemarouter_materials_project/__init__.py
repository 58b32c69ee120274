"""schemarouter source plugin: Materials Project.

Declares the source from ``source.yaml`` beside this module and adds this community's words
to a few shared concepts (aliases only: descriptions stay with the core vocabulary).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from schemarouter import hookimpl
from schemarouter.declarations import load_source_file
from schemarouter.models import DomainConcept, Source
from schemarouter_materials_project.adapter import register_adapters  # noqa: F401  (execution adapter, issue 7)

SOURCE_FILE = Path(__file__).with_name("source.yaml")

# Symbols materials scientists write for shared quantities that the core vocabulary lacks.
CONCEPT_ALIASES: dict[str, list[str]] = {
    "band_gap": ["E_g", "Egap", "band-gap energy", "Kohn-Sham band gap"],
    "formation_energy": ["E_form", "ΔH_f", "formation enthalpy per atom"],
    "energy_above_hull": ["E_hull", "e_above_hull", "above-hull energy"],
    "bulk_modulus": ["B_0", "elastic bulk modulus"],
    "magnetization": ["magnetic moment per cell", "Bohr magnetons"],
}


@hookimpl
def register_sources(register: Callable[[Source], None]) -> None:
    register(load_source_file(SOURCE_FILE))


@hookimpl
def register_concepts(register: Callable[[DomainConcept], None]) -> None:
    for name, aliases in CONCEPT_ALIASES.items():
        register(DomainConcept(name=name, aliases=aliases))
