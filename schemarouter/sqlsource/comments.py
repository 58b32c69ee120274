"""What a schema's comments say about a column: its description, and the unit, group, concepts and
aliases written in a small convention, and where SQLite keeps comments at all.

A column comment is free text; a unit in square brackets (``Optical band gap [eV]``) and
``key: value`` parts after a semicolon (``Band gap [eV]; group: electronic; concepts: band_gap``)
are read as such, the rest is the description. A bracket that is no unit the units library knows
(``[deprecated]``) stays text. Postgres stores comments (``COMMENT ON COLUMN``); SQLite keeps only
the ``CREATE`` statement, so the ``--`` comment at the end of a column's line there is its comment,
and comment lines before the first column are the table's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_BRACKET = re.compile(r"\[([^\[\]]{1,40})\]")
_PART = re.compile(r"^\s*(unit|group|concepts?|aliases?)\s*:\s*(.+?)\s*$", re.IGNORECASE)
_SLUG = re.compile(r"^[a-z][a-z0-9_]*$")
_CONSTRAINT_WORDS = frozenset({"constraint", "primary", "foreign", "unique", "check"})
MAX_DDL = 1_000_000  # characters of one CREATE statement read for comments


@dataclass
class CommentFacts:
    """What one comment says."""

    description: str = ""
    unit: str | None = None
    group: str | None = None
    concepts: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    not_units: list[str] = field(default_factory=list)  # bracketed words that are no known unit


def read_comment(text: str) -> CommentFacts:
    """The description, unit, group, concepts and aliases a column comment gives."""
    from schemarouter.checks.units import check_known

    facts = CommentFacts()
    prose: list[str] = []
    for part in text.split(";"):
        tagged = _PART.match(part)
        if tagged is None:
            prose.append(part.strip())
            continue
        key, value = tagged.group(1).lower(), tagged.group(2)
        if key == "unit":
            facts.unit = value
        elif key == "group" and _SLUG.match(value.lower()):
            facts.group = value.lower()
        elif key.startswith("concept"):
            facts.concepts = [c.strip().lower() for c in value.split(",") if _SLUG.match(c.strip().lower())]
        elif key.startswith("alias"):
            facts.aliases = [a.strip()[:120] for a in value.split(",") if a.strip()]
    description = "; ".join(p for p in prose if p)
    if facts.unit is None:
        for found in _BRACKET.finditer(description):
            candidate = found.group(1).strip()
            if candidate and check_known(candidate):
                facts.unit = candidate
                description = (description[:found.start()] + description[found.end():])
                break
            facts.not_units.append(candidate)
    facts.description = " ".join(description.split())[:4000]
    return facts


def _strip_strings(line: str) -> tuple[str, str]:
    """A line's code and its ``--`` comment, quotes respected ('a -- b' is a string, not a comment)."""
    quote: str | None = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in ("'", '"', "`"):
            quote = ch
        elif ch == "[":
            quote = "]"
        elif line.startswith("--", i):
            return line[:i], line[i + 2:].strip()
    return line, ""


def _first_name(code: str) -> str | None:
    """The name a column definition starts with (quoted or bare), or None for a constraint line."""
    code = code.strip().lstrip(",").strip()
    if not code:
        return None
    opener = code[0]
    closer = {'"': '"', "`": "`", "[": "]"}.get(opener)
    if closer:
        end = code.find(closer, 1)
        return code[1:end] if end > 0 else None
    word = re.match(r"[^\s,()]+", code)
    if word is None or word.group(0).lower() in _CONSTRAINT_WORDS:
        return None
    return word.group(0)


def sqlite_column_comments(create_sql: str) -> dict[str, str]:
    """Column name -> the ``--`` comment ending its line in a SQLite ``CREATE TABLE`` statement; "" -> the
    table's (comment lines before the first column). A comment line between two columns is ignored:
    which of them it speaks of is a guess."""
    sql = create_sql[:MAX_DDL]
    start = sql.find("(")
    if start < 0:
        return {}
    out: dict[str, str] = {}
    table_comment: list[str] = []
    seen_column = False
    for line in sql[start + 1:].splitlines():
        code, comment = _strip_strings(line)
        name = _first_name(code)
        seen_column = seen_column or bool(code.strip())
        if not comment:
            continue
        if name is not None:
            out[name] = comment
        elif not seen_column:
            table_comment.append(comment)
    if table_comment:
        out[""] = " ".join(table_comment)
    return out
