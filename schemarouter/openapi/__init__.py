"""Import an OpenAPI 3.0/3.1 document as a local source (``schemarouter source import-openapi``).

Small modules, one job each: :mod:`.loader` reads and checks the document, :mod:`.resolver`
follows ``$ref``, :mod:`.schema` flattens response schemas to field paths, :mod:`.mapper` turns
GET operations into draft endpoints, :mod:`.overlay` reads what OpenAPI cannot say,
:mod:`.build` applies it and validates the source, :mod:`.report` lists what was not mapped.
Nothing here writes to the registry; the caller stores the result.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from schemarouter.local_sources import LocalSource
from schemarouter.openapi.build import Builder
from schemarouter.openapi.errors import OpenAPIImportError
from schemarouter.openapi.loader import load_openapi
from schemarouter.openapi.mapper import Mapper
from schemarouter.openapi.overlay import Overlay, load_overlay
from schemarouter.openapi.report import ImportReport, Unmapped


@dataclass(frozen=True)
class ImportResult:
    local: LocalSource
    report: ImportReport


def import_openapi(spec: str | Path, source_id: str, overlay: str | Path | None = None) -> ImportResult:
    """Map ``spec`` (with ``overlay``) to a validated local source and a report; write nothing."""
    spec_file = str(spec)
    doc, version = load_openapi(spec)
    ov = load_overlay(overlay)
    overlay_file = str(overlay) if overlay is not None else "overlay"
    report = ImportReport(spec=spec_file, source_id=source_id, openapi_version=version)
    mapper = Mapper(doc, spec_file, ov, report, overlay_file)
    drafts = mapper.endpoints()
    builder = Builder(doc, spec_file, ov, overlay_file, source_id, report)
    builder.check_overlay_names(drafts, mapper.excluded)
    local = builder.build(drafts)
    return ImportResult(local, report)


__all__ = ["ImportReport", "ImportResult", "OpenAPIImportError", "Overlay", "Unmapped", "import_openapi"]
