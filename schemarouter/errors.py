"""Errors a user can act on. Each carries a one-line message; the CLI prints it without a traceback."""

from __future__ import annotations


class SchemaRouterError(Exception):
    """Base class: the message is complete and says what to do."""


class DeclarationError(SchemaRouterError):
    """A plugin's or file's declarations are invalid; names the plugin and the item."""

    def __init__(self, owner: str, item: str, problem: str) -> None:
        self.owner = owner
        self.item = item
        self.problem = problem
        super().__init__(f"{owner}: {item}: {problem}")


class RegistryError(SchemaRouterError):
    """The registry database cannot be opened, migrated, read or written."""


class MigrationRequired(RegistryError):
    """The database schema is behind this version of schemarouter."""


class ImportFileError(SchemaRouterError):
    """A registry export file that cannot be imported."""


def clip(text: str, limit: int = 120) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis: user input is never echoed whole."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
