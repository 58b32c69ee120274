"""Import an OpenAPI 3.0/3.1 (or Swagger 2.0) document as a local source (``schemarouter source import-openapi``).

Small modules, one job each: :mod:`.loader` reads and checks the document (converting Swagger 2.0
with :mod:`.swagger2`), :mod:`.resolver` follows ``$ref``, :mod:`.schema` flattens response
schemas to field paths, :mod:`.mapper` turns operations into draft endpoints (reads and writes),
:mod:`.overlay` reads what OpenAPI cannot say, :mod:`.build` applies it and validates the source,
:mod:`.report` lists what was not mapped. Nothing here writes to the registry; the caller stores
the result. A refusal (:class:`OpenAPIImportError`) carries the report made so far.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from schemarouter.errors import SchemaRouterError
from schemarouter.openapi.build import Builder
from schemarouter.openapi.errors import OpenAPIImportError
from schemarouter.openapi.loader import load_document
from schemarouter.openapi.mapper import Mapper
from schemarouter.openapi.naming import id_from_file_name
from schemarouter.openapi.overlay import Overlay, load_overlay
from schemarouter.openapi.report import ImportReport, Unmapped
from schemarouter.openapi.siblings import share_across_siblings
from schemarouter.openapi.units import UnitCheck
from schemarouter.sources.local import LocalSource


@dataclass(frozen=True)
class ImportResult:
    """The local source an import produced and the report of what it mapped."""

    local: LocalSource
    report: ImportReport


def import_openapi(spec: str | Path, source_id: str | None, overlay: str | Path | None = None, *,
                   unit_known: UnitCheck | None = None) -> ImportResult:
    """Map ``spec`` (with ``overlay``) to a validated local source and a report; write nothing.

    Without a ``source_id`` the overlay's ``id`` names the source, else the document's file name.
    ``unit_known`` says whether a word is a unit: given, a numeric field's unit is also read from its
    description (:mod:`schemarouter.openapi.units`)."""
    spec_file = str(spec)
    started = time.monotonic()  # the mapping's clock counts reading the file too
    report = ImportReport(spec=spec_file, source_id=source_id or "")
    try:
        ov = load_overlay(overlay)
        source_id = source_id or ov.id or id_from_file_name(spec)
        report.source_id = source_id
        doc, version, converted_from = load_document(spec)
        report.openapi_version, report.converted_from = version, converted_from
        if converted_from:
            report.notes.append(f"converted from {converted_from} to OpenAPI {version} before mapping")
        overlay_file = str(overlay) if overlay is not None else "overlay"
        mapper = Mapper(doc, spec_file, ov, report, overlay_file, started=started)
        drafts = mapper.endpoints()
        share_across_siblings(drafts, report)
        builder = Builder(doc, spec_file, ov, overlay_file, source_id, report, unit_known)
        builder.check_overlay_names(drafts, mapper.excluded)
        local = builder.build(drafts)
    except SchemaRouterError as err:
        err.report = report  # type: ignore[attr-defined]  # the CLI prints it with the refusal
        raise
    return ImportResult(local, report)


__all__ = ["ImportReport", "ImportResult", "OpenAPIImportError", "Overlay", "Unmapped", "import_openapi"]
