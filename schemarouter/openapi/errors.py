"""The one error the OpenAPI importer raises for bad input: the file and the place inside it."""

from __future__ import annotations

from typing import Any

from schemarouter.errors import SchemaRouterError


class OpenAPIImportError(SchemaRouterError):
    """An OpenAPI document or overlay that cannot be imported; nothing is written."""

    def __init__(self, file: str, place: str, problem: str) -> None:
        self.file = file
        self.place = place
        self.problem = problem
        super().__init__(f"{file}: {place}: {problem}" if place else f"{file}: {problem}")


def mapping(value: object, file: str, place: str, what: str) -> dict[Any, Any]:
    """``value`` as a mapping (absent = empty), or an error naming the place: real specs are not always valid."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise OpenAPIImportError(file, place, f"{what} must be a mapping, not {type(value).__name__}")
    return value


def sequence(value: object, file: str, place: str, what: str) -> list[Any]:
    """``value`` as a list (none: empty); anything else is an import error naming the place."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise OpenAPIImportError(file, place, f"{what} must be a list, not {type(value).__name__}")
    return value
