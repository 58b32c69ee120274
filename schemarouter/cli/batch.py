"""Batch files for ``plan --jsonl`` and ``run --jsonl``: read question lines, write result lines."""

from __future__ import annotations

import json
import sys
from typing import IO, Any

from schemarouter.errors import SchemaRouterError


def read_batch(path: str) -> list[dict[str, Any]]:
    """``{"id", "query"}`` lines of ``path`` (``-``: stdin); ``question`` is taken for ``query`` (the key
    the HTTP API and MCP use), and every row comes back with ``query``. A bad line is a one-line
    error naming it."""
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
                if not isinstance(row, dict):
                    raise TypeError
                asked = {row[k] for k in ("query", "question") if k in row}
                if len(asked) != 1 or not isinstance(next(iter(asked)), str):
                    raise TypeError
            except (json.JSONDecodeError, TypeError):
                raise SchemaRouterError(
                    f"{path}:{n}: expected a JSON object with a \"query\" (or \"question\") string"
                ) from None
            rows.append({**row, "query": asked.pop()})
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


