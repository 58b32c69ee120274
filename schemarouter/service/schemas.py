"""Request and response models of the HTTP API (the OpenAPI document is generated from them).

Plans and run results use the project's own models (:class:`~schemarouter.plan.Plan`,
:class:`~schemarouter.execution.results.StepResult`), so the API schema is the plan format.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, model_validator

from schemarouter.execution.results import StepResult
from schemarouter.graph.cache import GraphSource
from schemarouter.plan import Coverage, Plan


class Request(BaseModel):
    """A request body: unknown keys are refused."""

    model_config = ConfigDict(extra="forbid")


# Parameter descriptions: short, an agent's prompt carries them on every turn (MCP tools share them).
QUESTION = "The question to route."
QUERY = "Same as question."
MODE = "recall adds the intent's field groups; minimal keeps what the question names."
OFFLINE = "Replay recorded responses (default: true where live runs are off)."
INCLUDE_PLAN = "Also return the plan and every step in full."


def one_question(question: str | None, query: str | None) -> str | None:
    """The question given as ``question`` or as ``query`` (batch files' key); both must agree."""
    if question is not None and query is not None and question != query:
        raise ValueError("give the question as 'question' or as 'query', not both")
    return question if question is not None else query


class PlanRequest(Request):
    """Plan one question."""

    question: str | None = Field(None, description=QUESTION, examples=["What is the band gap of GaN?"])
    query: str | None = Field(None, description=QUERY)
    mode: Literal["recall", "minimal"] = Field("recall", description=MODE)

    @model_validator(mode="after")
    def _has_question(self) -> PlanRequest:
        if one_question(self.question, self.query) is None:
            raise ValueError("give the 'question' to plan")
        return self

    @property
    def text(self) -> str:
        """The question, whichever key carried it."""
        return str(one_question(self.question, self.query))


class RunRequest(Request):
    """Run a question (planned here) or a plan (from /v1/plan, on the registry state it was made on)."""

    question: str | None = Field(None, description=QUESTION)
    query: str | None = Field(None, description=QUERY)
    plan: dict[str, Any] | None = Field(None, description="A plan document as /v1/plan returns it.")
    mode: Literal["recall", "minimal"] = Field("recall", description=MODE)
    # strict: "yes" or 1 is a wrong type, refused, not read as true
    offline: StrictBool | None = Field(None, description=OFFLINE)
    include_plan: StrictBool = Field(False, description=INCLUDE_PLAN)

    @model_validator(mode="after")
    def _agree(self) -> RunRequest:
        one_question(self.question, self.query)
        return self


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


class LeanRecord(BaseModel):
    """One record: its source and id, then its values by field name as [value, unit]."""

    source: str
    id: str | None = Field(None, description="The record's identifier at its source.")
    values: dict[str, tuple[Any, str | None]] = Field(
        description="Field -> [value at full precision, unit the source declares (null: none)]."
    )
    provenance: dict[str, dict[str, str]] | None = Field(
        None, description="Field -> its own source_type or license, where the record's values differ."
    )
    notes: dict[str, str] | None = Field(None, description="Field -> a conversion or fallback note.")


class StepErrorOut(BaseModel):
    """A step that failed: its error kind, message and what to try."""

    step: str = Field(description="source.endpoint")
    kind: str
    message: str
    hint: str | None = None


class RunOut(BaseModel):
    """A run: the rendered context (one line per record, tagged with source type, license and
    source), the values by record, what was asked and not returned, step errors; with include_plan
    also the question, the plan, every step in full (per-value provenance) and the coverage."""

    status: str = Field(description="ok, partial, empty, failed or declined.")
    declined: str | None = None
    context: str = Field(description="One attributed line per record: what a reader model needs.")
    records: list[LeanRecord]
    missing: dict[str, list[str]] = Field(
        default_factory=dict, description="source.endpoint -> planned fields no record returned a value for."
    )
    errors: list[StepErrorOut] = Field(default_factory=list)
    not_covered: list[str] = Field(default_factory=list, description="Parts of the question no step covers.")
    offline: bool | None = None
    # with include_plan only
    query: str | None = None
    plan: Plan | None = None
    steps: list[StepOut] | None = None
    coverage: Coverage | None = None
    not_returned: list[NotReturnedOut] | None = None
    registry_fingerprint: str | None = None
    context_tokens: int | None = Field(None, description="cl100k tokens of the context.")


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
    graph_source: GraphSource = Field(
        description="Where this server got the graph it serves: built from the declarations, or loaded "
        "from its memory, its cache file, or Redis (built by another server)"
    )
    uptime_s: float


class ErrorOut(BaseModel):
    """Every error: one line saying what is wrong, and a stable code."""

    error: str
    code: str


class SourceOut(BaseModel):
    """One source's whole declaration (the source format), its owner and the registry state."""

    model_config = ConfigDict(extra="allow")

    id: str
    title: str
    description: str | None = None
    endpoints: list[dict[str, Any]] = Field(description="Each endpoint: parameters, fields with units and licenses.")
    owner: dict[str, Any] | None = Field(None, description="The plugin or local origin that declares it.")
    registry_fingerprint: str | None = None
