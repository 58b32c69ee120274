"""schemarouter source plugin: PubChem.

Declares the source from ``source.yaml`` beside this module and adds this community's words
to a few shared concepts (aliases only: descriptions stay with the core vocabulary).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from schemarouter import hookimpl
from schemarouter.declarations import load_source_file
from schemarouter.models import DomainConcept, Source
from schemarouter_pubchem.adapter import register_adapters  # noqa: F401  (execution adapter, issue 7)

SOURCE_FILE = Path(__file__).with_name("source.yaml")

# Cheminformatics spellings of shared quantities that the core vocabulary lacks.
CONCEPT_ALIASES: dict[str, list[str]] = {
    "logp": ["log Pow", "log P(o/w)", "Kow", "XLogP3"],
    "molecular_weight": ["mol wt", "MolWt", "relative molecular mass"],
    "compound_name": ["common name", "trade name", "generic name"],
    "cid": ["PubChem compound id"],
}


@hookimpl
def register_sources(register: Callable[[Source], None]) -> None:
    register(load_source_file(SOURCE_FILE))


@hookimpl
def register_concepts(register: Callable[[DomainConcept], None]) -> None:
    for name, aliases in CONCEPT_ALIASES.items():
        register(DomainConcept(name=name, aliases=aliases))
