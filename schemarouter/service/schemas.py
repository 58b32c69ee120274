"""Request and response models of the HTTP API (the OpenAPI document is generated from them).

Plans and run results use the project's own models (:class:`~schemarouter.plan.Plan`,
:class:`~schemarouter.execution.results.StepResult`), so the API schema is the plan format.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from schemarouter.execution.results import StepResult
from schemarouter.plan import Coverage, Plan


class Request(BaseModel):
    """A request body: unknown keys are refused."""

    model_config = ConfigDict(extra="forbid")


class PlanRequest(Request):
    """Plan one question."""

    question: str = Field(description="The question to route.", examples=["What is the band gap of GaN?"])
    mode: Literal["recall", "minimal"] = Field(
        "recall", description="Field selection: recall adds the intent's field groups."
    )


class RunRequest(Request):
    """Run a question (planned here) or a plan (from /v1/plan, on the registry state it was made on)."""

    question: str | None = None
    plan: dict[str, Any] | None = Field(None, description="A plan document as /v1/plan returns it.")
    mode: Literal["recall", "minimal"] = "recall"
    offline: bool = Field(False, description="Replay recorded responses instead of calling the sources.")


class ContextOut(BaseModel):
    """The rendered context a reader model would see, and its size."""

    text: str
    tokens: int
    tokens_chars_div_4: int
    encoding: str


class StepOut(StepResult):
    """One step's result, with advice when it failed and the asked fields no record carries."""

    hint: str | None = None
    missing: list[str] = Field(default_factory=list)


class NotReturnedOut(BaseModel):
    """One step's planned fields that no record carries: the entity it asked about, which of them
    answer the question, and the error kind when the step failed."""

    step: int
    source: str
    endpoint: str
    about: str
    fields: list[str]
    answers: list[str]
    error: str | None


class RunOut(BaseModel):
    """Attributed values per step, the plan that was run, what it covers and the rendered context."""

    query: str
    status: str
    plan: Plan
    declined: str | None
    steps: list[StepOut]
    coverage: Coverage | None
    not_returned: list[NotReturnedOut] = Field(default_factory=list)
    context: ContextOut
    registry_fingerprint: str | None
    offline: bool


class SourceSummary(BaseModel):
    """One source as the registry list shows it."""

    id: str
    title: str
    domain: str
    source_type: str
    license: str
    description: str
    auth_env: str | None = Field(description="The environment variable holding its key (the name only).")
    endpoints: list[str]
    fields: int


class SourcesOut(BaseModel):
    """The registry's sources and the state they belong to."""

    registry_fingerprint: str | None
    sources: list[SourceSummary]


class HealthOut(BaseModel):
    """Liveness and the registry state served."""

    status: str
    registry_fingerprint: str | None
    sources: int
    live_execution: bool
    registry_watch: str
    uptime_s: float


class ErrorOut(BaseModel):
    """Every error: one line saying what is wrong, and a stable code."""

    error: str
    code: str
