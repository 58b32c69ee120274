"""The one error the OpenAPI importer raises for bad input: the file and the place inside it."""

from __future__ import annotations

from schemarouter.errors import SchemaRouterError


class OpenAPIImportError(SchemaRouterError):
    """An OpenAPI document or overlay that cannot be imported; nothing is written."""

    def __init__(self, file: str, place: str, problem: str) -> None:
        self.file = file
        self.place = place
        self.problem = problem
        super().__init__(f"{file}: {place}: {problem}" if place else f"{file}: {problem}")
