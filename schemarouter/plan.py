"""The plan: the router's output and the executor's input (``schemarouter plan --json``).

A plan names, per step, one source endpoint, the parameter values to send and exactly the
response fields to fetch, each field with its unit, source type, license and attribution, and
the reason it is there. It carries the registry fingerprint it was made on, so a plan made on
an older registry is detectably stale.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class PlanModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FieldMeta(PlanModel):
    """What a reader needs to cite one value."""

    unit: str | None = None
    source_type: str
    license: str
    attribution: str | None = None


class Understanding(PlanModel):
    """What the understand step made of the question."""

    intent: str | None = None
    concepts: list[str] = Field(default_factory=list)
    params: dict[str, Any] = Field(default_factory=dict)
    named_tools: list[str] = Field(default_factory=list)
    source_constraint: str | None = None


class PlanStep(PlanModel):
    """One call. ``id`` names the step for later steps: a parameter value may be a binding
    ``{"from": "s1", "field": "id", "pick": "first"}`` to a field an earlier step returns."""

    id: str | None = None
    source: str
    endpoint: str
    params: dict[str, Any] = Field(default_factory=dict)
    fields: list[str]
    meta: dict[str, FieldMeta] = Field(default_factory=dict)
    why: dict[str, str] = Field(default_factory=dict)
    score: float | None = None


def binding_of(value: Any) -> dict[str, str] | None:
    """The binding a parameter value is, or None for a literal value."""
    if isinstance(value, dict) and set(value) <= {"from", "field", "pick"} and "from" in value and "field" in value:
        return value
    return None


class Plan(PlanModel):
    query: str
    registry_fingerprint: str | None
    mode: str = "recall"
    understanding: Understanding = Field(default_factory=Understanding)
    steps: list[PlanStep] = Field(default_factory=list)
    declined: str | None = None
    prompt_tokens: int | None = None
    id: str | None = None

    @property
    def is_declined(self) -> bool:
        return self.declined is not None
