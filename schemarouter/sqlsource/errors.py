"""The one error the SQL importer raises for bad input: where (the URL, the overlay file or an
option), the place inside it, and the problem; nothing is written."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from schemarouter.errors import SchemaRouterError


class SqlImportError(SchemaRouterError):
    """A database or overlay that cannot be imported as a source; nothing is written."""

    def __init__(self, where: str, place: str, problem: str) -> None:
        self.where = where
        self.place = place
        self.problem = problem
        super().__init__(f"{where}: {place}: {problem}" if place else f"{where}: {problem}")


def close_match(name: str, known: Sequence[str]) -> str:
    """"; did you mean 'x'?" for a near miss among ``known``, else a short list of what there is."""
    close = difflib.get_close_matches(name, list(known), n=1)
    if close:
        return f"; did you mean {close[0]!r}?"
    return f" (there are: {', '.join(list(known)[:12]) or 'none'})"
