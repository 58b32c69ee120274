"""Benchmark queries with gold plans, read from JSONL (the shipped ``dev.jsonl`` or a user's own file).

One JSON object per line: ``{"id", "category", "query", "intent", "source_constraint",
"gold": [{"source", "endpoint", "params", "fields"}], "alternatives": [[...], ...], "units"}``;
``gold: []`` marks a negative (no source can answer). Errors name the file and line number so a
user bringing their own file can fix it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from schemarouter.errors import SchemaRouterError
from schemarouter_bench import data_path


class DatasetError(SchemaRouterError):
    """A query file that cannot be read or does not follow the dataset format."""


class GoldStep(BaseModel):
    """One step of a gold plan: the endpoint, its parameter values and the fields that answer."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: str
    endpoint: str
    params: dict[str, Any] = Field(default_factory=dict)
    fields: list[str] = Field(default_factory=list)


class Query(BaseModel):
    """One benchmark question with its category, expectations and gold plans."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    category: str = "uncategorized"
    query: str
    intent: str | None = None
    source_constraint: str | None = None
    gold: list[GoldStep] = Field(default_factory=list)
    alternatives: list[list[GoldStep]] = Field(default_factory=list)
    units: dict[str, str] = Field(default_factory=dict)

    @property
    def negative(self) -> bool:
        """Whether the question has no gold plan, so the router should decline it."""
        return not self.gold

    @property
    def gold_sets(self) -> list[list[GoldStep]]:
        """The gold step list first, then every acceptable alternative."""
        return [list(self.gold), *[list(a) for a in self.alternatives]]


def default_queries_path() -> Path:
    """The packaged dev query file."""
    return data_path("dev.jsonl")


def load_queries(path: str | Path | None = None) -> list[Query]:
    """Read and validate a query file; raise :class:`DatasetError` naming file and line."""
    path = Path(path) if path is not None else default_queries_path()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise DatasetError(f"cannot read query file {path}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise DatasetError(f"query file {path} is not UTF-8 text") from None
    queries: list[Query] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as err:
            raise DatasetError(f"{path}:{number}: not valid JSON ({err.msg} at column {err.colno})") from None
        if not isinstance(raw, dict):
            raise DatasetError(f"{path}:{number}: expected a JSON object, got {type(raw).__name__}")
        try:
            query = Query.model_validate(raw)
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "(line)"
            raise DatasetError(f"{path}:{number}: {where}: {first['msg']}") from None
        if not query.query.strip():
            raise DatasetError(f"{path}:{number}: query {query.id!r} has an empty question")
        if query.id in seen:
            raise DatasetError(f"{path}:{number}: id {query.id!r} already used on line {seen[query.id]}")
        seen[query.id] = number
        queries.append(query)
    if not queries:
        raise DatasetError(f"query file {path} holds no queries")
    return queries


def check_against(queries: list[Query], sources: dict[str, set[str]]) -> None:
    """Every gold step must name a source and endpoint the frozen registry has (``sources``: id -> endpoint ids)."""
    for q in queries:
        for steps in q.gold_sets:
            for step in steps:
                if step.source not in sources:
                    raise DatasetError(f"query {q.id!r}: gold source {step.source!r} is not in the registry")
                if step.endpoint not in sources[step.source]:
                    raise DatasetError(
                        f"query {q.id!r}: gold endpoint {step.source}.{step.endpoint} is not in the registry"
                    )
