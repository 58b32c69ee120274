"""Batch files for ``plan --jsonl`` and ``run --jsonl``: read question lines, write result lines."""

from __future__ import annotations

import json
import sys
from typing import IO, Any

from schemarouter.errors import SchemaRouterError


def read_batch(path: str) -> list[dict[str, Any]]:
    """``{"id", "query"}`` lines of ``path`` (``-``: stdin); a bad line is a one-line error naming it."""
    try:
        source: IO[str] = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    except OSError as err:
        raise SchemaRouterError(f"cannot read {path}: {err.strerror}") from None
    rows: list[dict[str, Any]] = []
    try:
        for n, line in enumerate(source, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                if not isinstance(row, dict) or not isinstance(row.get("query"), str):
                    raise TypeError
            except (json.JSONDecodeError, TypeError):
                raise SchemaRouterError(f"{path}:{n}: expected a JSON object with a \"query\" string") from None
            rows.append(row)
    finally:
        if source is not sys.stdin:
            source.close()
    return rows


def open_output(output: str | None) -> IO[str]:
    """The file to write results to (standard output when none is named)."""
    try:
        return open(output, "w", encoding="utf-8") if output else sys.stdout
    except OSError as err:
        raise SchemaRouterError(f"cannot write {output}: {err.strerror}") from None


