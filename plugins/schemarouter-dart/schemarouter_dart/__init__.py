"""schemarouter source plugin: OpenDART.

Declares the source from ``source.yaml`` beside this module and adds this community's words
to a few shared concepts (aliases only: descriptions stay with the core vocabulary).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from schemarouter import hookimpl
from schemarouter.declarations import load_source_file
from schemarouter.models import DomainConcept, Source
from schemarouter_dart.adapter import register_adapters  # noqa: F401  (execution adapter, issue 7)

SOURCE_FILE = Path(__file__).with_name("source.yaml")

# Korean disclosure vocabulary (as printed in OpenDART filings) for the shared corporate concepts.
CONCEPT_ALIASES: dict[str, list[str]] = {
    "corp_name": ["회사명", "기업명", "법인명"],
    "fiscal_year": ["사업연도", "회계연도"],
    "report_code": ["사업보고서", "반기보고서", "분기보고서"],
    "corp_code": ["고유번호"],
}


@hookimpl
def register_sources(register: Callable[[Source], None]) -> None:
    register(load_source_file(SOURCE_FILE))


@hookimpl
def register_concepts(register: Callable[[DomainConcept], None]) -> None:
    for name, aliases in CONCEPT_ALIASES.items():
        register(DomainConcept(name=name, aliases=aliases))
