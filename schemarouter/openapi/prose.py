"""What the importer reads from a document's words rather than its structure.

Whether a POST only looks things up (its operation id or summary opens with search, query, list,
find, lookup or filter), and the codes a parameter's description lists with their labels ("1 -
Figure, 2 - Media, 3 - Dataset"). Both become declared data on import (a read endpoint, an enum
with its labels), which the report notes and the overlay can correct: routing never reads prose
for them.
"""

from __future__ import annotations

import re
from typing import Any

from schemarouter.openapi.naming import words

_READ_WORDS = frozenset({"search", "query", "list", "find", "lookup", "filter"})
_WRITE_WORDS = frozenset({
    "create", "add", "update", "delete", "remove", "set", "put", "patch", "upload", "send", "cancel", "submit",
    "register", "insert", "modify", "edit", "replace", "save", "start", "stop", "enable", "disable", "assign",
    "approve", "reject", "import", "publish", "move", "copy", "reset", "revoke", "grant", "invite", "subscribe",
    "unsubscribe", "login", "logout", "change", "mark", "upsert", "write", "execute", "run", "trigger", "post",
})


def _stem(word: str) -> str:
    """lists -> list, queries -> query, searching -> search, searches -> search."""
    for suffix, repl in (("ies", "y"), ("ches", "ch"), ("ing", ""), ("s", "")):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)] + repl
    return word


def _says_read(text: str) -> bool:
    """The first words name a look-up (search, query, list, find, lookup, filter) and no change before it."""
    for word in [_stem(w) for w in words(text)[:3]]:
        if word in _READ_WORDS:
            return True
        if word in _WRITE_WORDS and word != "post":
            return False
    return False


def is_read_only_post(op: dict[str, Any]) -> bool:
    """A POST that only looks things up, by its operation id or summary (``searchPets``, "List runs")."""
    op_id, summary = op.get("operationId"), op.get("summary")
    return (isinstance(op_id, str) and _says_read(op_id)) or (isinstance(summary, str) and _says_read(summary))


# "1 - Figure, 2 - Media", "1=Figure; 2=Media", "1: Figure": a code, a separator, a label up to the next one
_CODE_LABEL = re.compile(r"(?:^|[\s,;(])(\d{1,4})\s*(?:-|–|=|:)\s*([A-Za-z][A-Za-z /&'-]{0,40}?)\s*(?=[,;.)]|$)")
MIN_CODES = 3  # fewer is an example in prose, not a code list


def code_labels(description: str) -> dict[str, str] | None:
    """Code -> label for a description that lists numeric codes with their labels ("Mapping for
    item_type is: 1 - Figure, 2 - Media, 3 - Dataset"); None where it lists fewer than three or a
    code twice."""
    found = [(m.group(1), m.group(2).strip()) for m in _CODE_LABEL.finditer(description)]
    codes = [code for code, _ in found]
    if len(found) < MIN_CODES or len(set(codes)) != len(codes):
        return None
    return dict(found)
