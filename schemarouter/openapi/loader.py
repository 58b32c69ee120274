"""Read an OpenAPI document (JSON or YAML) and check it is one this importer understands.

Only OpenAPI 3.0.x and 3.1.x are accepted; a Swagger 2.0 document is refused with the way
out (convert it first), because its parameter and response shapes differ throughout.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from schemarouter.openapi.errors import OpenAPIImportError

SUPPORTED = ("3.0", "3.1")


def read_document(path: str | Path) -> dict[str, Any]:
    """Parse the file (JSON first when it looks like JSON, else YAML) into a mapping."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise OpenAPIImportError(str(path), "", f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise OpenAPIImportError(str(path), "", "not UTF-8 text") from None
    try:
        if text.lstrip().startswith("{"):
            doc = json.loads(text)
        else:
            doc = yaml.safe_load(text)
    except json.JSONDecodeError as exc:
        raise OpenAPIImportError(str(path), f"line {exc.lineno}, column {exc.colno}", f"invalid JSON: {exc.msg}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise OpenAPIImportError(str(path), where, f"invalid YAML: {getattr(exc, 'problem', None) or exc}") from None
    if not isinstance(doc, dict):
        raise OpenAPIImportError(str(path), "", "not an OpenAPI document (expected a mapping at the top level)")
    return doc


def check_document(doc: dict[str, Any], file: str) -> str:
    """Return the OpenAPI version, or raise naming what is wrong."""
    if "swagger" in doc:
        raise OpenAPIImportError(
            file, "swagger", f"Swagger {doc['swagger']} is not supported; convert it to OpenAPI 3 first "
            f"(for example with swagger2openapi)",
        )
    version = doc.get("openapi")
    if not isinstance(version, str):
        raise OpenAPIImportError(file, "openapi", "missing 'openapi' version key; is this an OpenAPI 3 document?")
    if not version.startswith(tuple(v + "." for v in SUPPORTED)) and version not in SUPPORTED:
        raise OpenAPIImportError(
            file, "openapi", f"unsupported OpenAPI version {version!r}; supported: {', '.join(s + '.x' for s in SUPPORTED)}"
        )
    paths = doc.get("paths")
    if paths is None:
        raise OpenAPIImportError(file, "paths", "the document has no 'paths'; there is nothing to import")
    if not isinstance(paths, dict):
        raise OpenAPIImportError(file, "paths", "'paths' must be a mapping of path -> operations")
    return version


def load_openapi(path: str | Path) -> tuple[dict[str, Any], str]:
    doc = read_document(path)
    return doc, check_document(doc, str(path))
