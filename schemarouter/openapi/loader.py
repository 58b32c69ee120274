"""Read an OpenAPI document (JSON or YAML) within bounds and check it is one this importer understands.

The file is parsed by :mod:`schemarouter.safeload` (alias expansion, nesting depth and size
bounded; binary input refused). OpenAPI 3.0.x and 3.1.x are mapped as they are; a Swagger 2.0
document is converted to OpenAPI 3.0 first (:mod:`.swagger2`) and then mapped the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from schemarouter.openapi.errors import OpenAPIImportError
from schemarouter.openapi.swagger2 import convert
from schemarouter.safeload import UnsafeDocumentError, load_file

SUPPORTED = ("3.0", "3.1")


def read_document(path: str | Path) -> dict[str, Any]:
    """Parse the file (JSON when it starts like JSON, else YAML) into a mapping."""
    try:
        doc = load_file(path)
    except UnsafeDocumentError as err:
        raise OpenAPIImportError(err.name, err.where, err.problem) from None
    if not isinstance(doc, dict):
        raise OpenAPIImportError(str(path), "", "not an OpenAPI document (expected a mapping at the top level)")
    return doc


def check_document(doc: dict[str, Any], file: str) -> str:
    """Return the OpenAPI version, or raise naming what is wrong."""
    version = doc.get("openapi")
    if not isinstance(version, str):
        raise OpenAPIImportError(file, "openapi", "missing 'openapi' version key; is this an OpenAPI 3 document?")
    if not version.startswith(tuple(v + "." for v in SUPPORTED)) and version not in SUPPORTED:
        raise OpenAPIImportError(
            file, "openapi", f"unsupported OpenAPI version {version!r}; supported: {', '.join(s + '.x' for s in SUPPORTED)}"
            ", and Swagger 2.0"
        )
    paths = doc.get("paths")
    if paths is None:
        raise OpenAPIImportError(file, "paths", "the document has no 'paths'; there is nothing to import")
    if not isinstance(paths, dict):
        raise OpenAPIImportError(file, "paths", "'paths' must be a mapping of path -> operations")
    return version


def load_openapi(path: str | Path) -> tuple[dict[str, Any], str]:
    """The document as OpenAPI 3 (Swagger 2.0 converted) and its OpenAPI version."""
    doc, version, _ = load_document(path)
    return doc, version


def load_document(path: str | Path) -> tuple[dict[str, Any], str, str | None]:
    """The document as OpenAPI 3, its version, and the format it was converted from (None when not)."""
    doc = read_document(path)
    converted_from = None
    if "swagger" in doc:
        if str(doc["swagger"]).strip() not in ("2.0", "2"):
            raise OpenAPIImportError(
                str(path), "swagger", f"Swagger {doc['swagger']} is not supported; only Swagger 2.0 is converted"
            )
        doc = convert(doc, str(path))
        converted_from = "Swagger 2.0"
    return doc, check_document(doc, str(path)), converted_from
