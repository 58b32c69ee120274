"""A catalogue of OpenAPI documents mapped in one call: which files, which overlay and id each gets.

An organisation's API catalogue is a folder of documents; importing them one process at a time
spent almost all its time starting processes and opening the registry. This module maps every
document in this process and keeps each one's outcome apart, so one bad document is reported and
the others go on; the caller stores the mapped sources in one registry transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from schemarouter.errors import SchemaRouterError
from schemarouter.openapi import ImportResult, import_openapi
from schemarouter.openapi.errors import OpenAPIImportError
from schemarouter.openapi.report import ImportReport
from schemarouter.openapi.units import UnitCheck

DOCUMENT_SUFFIXES = (".json", ".yaml", ".yml")
OVERLAY_SUFFIXES = (".overlay.yaml", ".overlay.yml")


@dataclass
class Mapped:
    """One document's mapping: the result, or the one-line reason it was refused (and the report so far)."""

    spec: Path
    overlay: Path | None
    result: ImportResult | None = None
    error: str | None = None
    report: ImportReport | None = None

    @property
    def source_id(self) -> str:
        """The id the source gets (or would have got)."""
        if self.result is not None:
            return self.result.local.source.id
        return self.report.source_id if self.report is not None else ""


def _is_overlay(path: Path) -> bool:
    return path.name.lower().endswith(OVERLAY_SUFFIXES)


def document_paths(arguments: Sequence[str | Path]) -> list[Path]:
    """The documents named: files as given, and every JSON or YAML file under a folder (sorted; overlay
    files, ``NAME.overlay.yaml``, are not documents). A path that does not exist is an error."""
    found: list[Path] = []
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            found.extend(
                p for p in sorted(path.rglob("*"))
                if p.is_file() and p.suffix.lower() in DOCUMENT_SUFFIXES and not _is_overlay(p)
            )
        elif path.exists():
            found.append(path)
        else:
            raise OpenAPIImportError(str(path), "", "no such file or folder")
    return list(dict.fromkeys(found))


def overlay_for(spec: Path, default: Path | None) -> Path | None:
    """The overlay of one document: ``NAME.overlay.yaml`` beside ``NAME.json`` when there is one, else ``default``."""
    stem = spec.name[: -len(spec.suffix)] if spec.suffix else spec.name
    for suffix in OVERLAY_SUFFIXES:
        beside = spec.with_name(stem + suffix)
        if beside.is_file():
            return beside
    return default


def map_catalogue(specs: Sequence[Path], overlay: Path | None = None,
                  unit_known: UnitCheck | None = None) -> list[Mapped]:
    """Map every document (each id from its overlay's ``id`` or its file name); write nothing
    (``unit_known``: as :func:`schemarouter.openapi.import_openapi` takes it)."""
    mapped: list[Mapped] = []
    for spec in specs:
        chosen = overlay_for(spec, overlay)
        item = Mapped(spec, chosen)
        try:
            item.result = import_openapi(spec, None, chosen, unit_known=unit_known)
            item.report = item.result.report
        except SchemaRouterError as err:
            item.error = str(err)
            item.report = getattr(err, "report", None)
        except (RecursionError, MemoryError) as err:  # a pathological document must not end the catalogue
            item.error = f"{spec}: the document is too deeply nested or too large to map ({type(err).__name__})"
        mapped.append(item)
    return mapped
