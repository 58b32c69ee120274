"""The names the OpenAPI importer gives what it maps, and which field is a record's key.

Endpoint ids from operation ids or paths, field names from response paths, declarable names for
path variables, and the record-key choice: small pure functions the mapper and the builder share,
kept apart from the document walk in :mod:`schemarouter.openapi.mapper`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from schemarouter.openapi.schema import FlatField

_ID_KEYS = ("uuid", "uid", "key", "code", "slug")  # the record-vs-envelope test (unchanged: it decides field names)
_ID_WORDS = ("id", "sid", "urn", "uuid", "uid", "guid", "accession", "doi", "key", "code", "slug", "identifier",
             "ident", "handle", "isbn", "issn", "orcid", "pmid", "symbol")


def slugify(text: str) -> str:
    """A lower-case identifier from an operation id or path, starting with a letter."""
    slug = re.sub(r"[^a-z0-9]+", "_", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", text).lower()).strip("_")
    if not slug or not slug[0].isalpha():
        slug = f"op_{slug}".rstrip("_")
    return slug[:64].rstrip("_")


def id_from_file_name(path: str | Path) -> str:
    """A source id from a document's file name (``Weather API.v2.yaml`` -> ``weather_api_v2``), for
    catalogues imported in one call; an overlay's ``id`` or ``--id`` chooses another."""
    stem = Path(path).name
    for suffix in (".json", ".yaml", ".yml"):
        if stem.lower().endswith(suffix):
            stem = stem[: -len(suffix)]
            break
    slug = re.sub(r"[^a-z0-9]+", "_", stem.lower()).strip("_")
    if not slug or not slug[0].isalpha():
        slug = f"api_{slug}".rstrip("_")
    return slug[:64].rstrip("_")


def field_name(path: str) -> str:
    """A field name from a response path: separators become underscores."""
    name = re.sub(r"[^A-Za-z0-9_]+", "_", path.replace("[]", "").replace(".", "_")).strip("_")
    return name if name and (name[0].isalpha() or name[0] == "_") else f"f_{name}"


def words(name: str) -> list[str]:
    """``accountSid`` -> [account, sid]; ``ENTRY_ID`` -> [entry, id]."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", name))
    return [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]


def unique(base: str, taken: set[str], limit: int) -> str:
    """``base`` cut to ``limit`` and made unique among ``taken`` with a counter (then taken)."""
    name, n = base[:limit], 2
    while name in taken:
        suffix = f"_{n}"
        name, n = base[: limit - len(suffix)] + suffix, n + 1
    taken.add(name)
    return name


def choose_identifier(fields: list[FlatField], names: list[str], path_params: Sequence[str] = ()) -> str | None:
    """The record key: ``id``; a property named like the endpoint's path parameter; an id-like name
    (``sid``, ``urn``, ``accession``, ``uuid``, ``doi``, ``code``, ...); a name whose last word is one
    (``account_sid``, ``entryId``). Scalars outside lists only, top-level before nested."""
    scalar = [(f, n) for f, n in zip(fields, names, strict=True)
              if not f.in_list and f.type in ("string", "integer")]
    top = [(f, n) for f, n in scalar if "." not in f.path]
    wanted = {p.lower() for p in path_params}
    for pool in (top, scalar):
        for rule in (
            lambda k: k.lower() == "id",
            lambda k: k.lower() in wanted,
            lambda k: k.lower() in _ID_WORDS,
            lambda k: k.endswith(("_id", "Id", "ID", "-id")),
            lambda k: len(words(k)) > 1 and words(k)[-1] in _ID_WORDS,
        ):
            for f, n in pool:
                if rule(f.key):
                    return n
    return None


def valid_name(name: str, taken: set[str]) -> str:
    """A declarable parameter name for a path variable (its name is never sent)."""
    base = re.sub(r"[^A-Za-z0-9_.\-]+", "_", name).strip("_") or "param"
    if not (base[0].isalpha() or base[0] == "_"):
        base = f"p_{base}"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}_{n}", n + 1
    return candidate[:128]


def has_id_property(node: dict[str, Any]) -> bool:
    """Whether an object schema has an id-like property of its own (a record, not an envelope)."""
    keys = [str(k) for k in (node.get("properties") or {})]
    return any(k.lower() == "id" or k.lower() in _ID_KEYS or k.endswith(("_id", "Id", "ID")) for k in keys)


_LAST_PARAMETER = re.compile(r"\{([^{}/]+)\}")


def last_path_parameter(path: str) -> str | None:
    """The parameter a path ends with (``/studies/{urn}`` -> urn): the one that addresses a record."""
    m = _LAST_PARAMETER.fullmatch(path.rstrip("/").rpartition("/")[2])
    return m.group(1) if m else None
