"""What a run returns: values with their provenance, per step, with typed errors.

Every value carries what a reader needs to cite it (source, record identifier, source type,
license, attribution) and keeps the unit its source declares; nothing is converted silently.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class ResultModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Value(ResultModel):
    """One field of one record, with its provenance."""

    field: str
    value: Any
    unit: str | None = None
    source: str
    source_title: str | None = None
    endpoint: str
    record_id: str | None = None
    source_type: str
    license: str
    attribution: str | None = None
    note: str | None = None


class Record(ResultModel):
    source: str
    endpoint: str
    record_id: str | None = None
    values: dict[str, Value] = Field(default_factory=dict)


class StepError(ResultModel):
    kind: str
    message: str


class StepResult(ResultModel):
    index: int
    id: str | None = None
    source: str
    endpoint: str
    records: list[Record] = Field(default_factory=list)
    error: StepError | None = None
    request: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)  # as sent, bindings resolved
    elapsed_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None


class RunResult(ResultModel):
    query: str
    steps: list[StepResult] = Field(default_factory=list)
    declined: str | None = None

    @property
    def values(self) -> list[Value]:
        return [v for step in self.steps for record in step.records for v in record.values.values()]

    @property
    def errors(self) -> list[StepResult]:
        return [step for step in self.steps if step.error is not None]
