"""What a run returns: values with their provenance, per step, with typed errors.

Every value carries what a reader needs to cite it (source, record identifier, source type,
license, attribution) and keeps the unit its source declares; nothing is converted silently (a
fallback that converts a unit says so in the value's note). A run also says how it went as a
whole (``status``: ok, partial, empty, failed, declined), which the CLI turns into its exit code.
Status and coverage are read from what came back (:mod:`~schemarouter.execution.returned`), not
from what was planned: a planned field no record carries is reported as not returned.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from schemarouter.execution.context import format_value, render_context, shown_unit
from schemarouter.execution.hints import hint
from schemarouter.execution.returned import (
    all_answers,
    any_answer,
    not_returned,
    returned_coverage,
    step_label,
)
from schemarouter.execution.returned import (
    missing_fields as _missing,
)
from schemarouter.plan import Coverage, Plan
from schemarouter.tokens import ENCODING

Status = Literal["ok", "partial", "empty", "failed", "declined"]


class ResultModel(BaseModel):
    """Base of the result models: unknown keys are rejected."""

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
    """One record of one source: its identifier and its values by field name."""

    source: str
    endpoint: str
    record_id: str | None = None
    values: dict[str, Value] = Field(default_factory=dict)


class StepFailure(ResultModel):
    """Why a step (or one source tried for it) returned nothing: the ``kind`` and message of the
    :class:`~schemarouter.execution.errors.StepError` it ended with."""

    kind: str
    message: str


class Fallback(ResultModel):
    """The planned source failed and an equivalent one answered: which, why, and what changed.

    ``source``/``endpoint``/``error`` are the planned step and its failure; ``reason`` says why
    the answering source is equivalent (concepts, units, source type); ``fields`` maps each
    planned field to the answering source's fields; ``conversions`` lists unit conversions made.
    """

    source: str
    endpoint: str
    error: StepFailure
    reason: str
    fields: dict[str, list[str]] = Field(default_factory=dict)
    conversions: list[str] = Field(default_factory=list)


class StepResult(ResultModel):
    """One plan step: who answered (``source``/``endpoint``), its records, or its error.
    ``fields``: the fields asked of the answering source (those of the plan step, or of its fallback)."""

    index: int
    id: str | None = None
    source: str
    endpoint: str
    fields: list[str] = Field(default_factory=list)
    records: list[Record] = Field(default_factory=list)
    error: StepFailure | None = None
    request: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)  # as sent, bindings resolved
    elapsed_s: float = 0.0
    cached: bool = False
    fallback: Fallback | None = None
    fallbacks_failed: list[str] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether the step ended without an error."""
        return self.error is None

    @property
    def missing_fields(self) -> list[str]:
        """The asked fields no record carries a value for (all of them after an error); ``missing`` in
        the JSON."""
        return _missing(self)


class RunResult(ResultModel):
    """Everything a run produced: per-step results, the plan it ran and what the plan covers."""

    query: str
    steps: list[StepResult] = Field(default_factory=list)
    declined: str | None = None
    plan: Plan | None = None

    @property
    def values(self) -> list[Value]:
        """Every value of every record of every step."""
        return [v for step in self.steps for record in step.records for v in record.values.values()]

    @property
    def errors(self) -> list[StepResult]:
        """The steps that ended in an error."""
        return [step for step in self.steps if step.error is not None]

    @property
    def coverage(self) -> Coverage | None:
        """What the run covers of the question, when the plan is known: the plan's coverage, with a
        concept covered only where a value for it came back."""
        return returned_coverage(self)

    @property
    def not_returned(self) -> list[dict[str, Any]]:
        """Per step, the planned fields no record carries (see :func:`~schemarouter.execution.returned.not_returned`)."""
        return not_returned(self)

    @property
    def status(self) -> Status:
        """ok: every step returned a value for each field that answers the question; partial: some
        did; empty: steps returned records but no answer field has a value; failed: no step returned
        records (or no steps); declined."""
        if self.declined is not None:
            return "declined"
        answered = sum(1 for step in self.steps if step.error is None and step.records)
        if not answered:
            return "failed"
        if not any_answer(self):
            return "empty"
        return "ok" if answered == len(self.steps) and all_answers(self) else "partial"

    def to_json(self, offline: bool = False) -> dict[str, Any]:
        """The run as the JSON every front end shows (``run --json``, ``POST /v1/run``, MCP ``run``):
        the plan, the status, each step with a hint after an error (``offline``: the run replayed
        recordings) and the planned fields it did not return (``missing``), the coverage of what came
        back, per step the fields not returned (``not_returned``) and the rendered context with its
        size in tokens."""
        context = render_context(self)
        steps = []
        for step in self.steps:
            shown = step.model_dump(mode="json")
            shown["hint"] = hint(step.error, offline) if step.error is not None else None
            shown["missing"] = step.missing_fields
            steps.append(shown)
        return {
            "query": self.query,
            "status": self.status,
            "plan": self.plan.model_dump(mode="json") if self.plan is not None else None,
            "declined": self.declined,
            "steps": steps,
            "coverage": self.coverage.model_dump(mode="json") if self.coverage is not None else None,
            "not_returned": self.not_returned,
            "context": {"text": context.text, "tokens": context.tokens,
                        "tokens_chars_div_4": context.estimated_tokens, "encoding": ENCODING},
        }

    def __repr__(self) -> str:
        return describe_run(self)

    __str__ = __repr__


def describe_run(run: RunResult) -> str:
    """A readable multi-line summary: status, one block per step with its values, and the coverage."""
    lines = [f"RunResult {run.status}: {run.query!r}"]
    if run.declined:
        lines.append(f"  declined: {run.declined}")
    for step in run.steps:
        head = f"  [{step.index}] {step_label(step)}"
        if step.fallback is not None:
            head += f" (fallback for {step.fallback.source}.{step.fallback.endpoint}: {step.fallback.error.kind})"
        if step.cached:
            head += " (cached)"
        if step.error is not None:
            lines.append(f"{head}: {step.error.kind}: {step.error.message}")
            continue
        lines.append(f"{head}: {len(step.records)} record(s)")
        if step.missing_fields:
            lines.append(f"      not returned: {', '.join(step.missing_fields)}")
        for record in step.records[:5]:
            # significant digits for a person; the values themselves keep full precision
            shown = ", ".join(
                f"{v.field}={format_value(v.value, 100)}{shown_unit(v.unit)}" for v in record.values.values()
                if v.value is not None and str(v.value) != record.record_id
            )
            lines.append(f"      {record.record_id}: {shown or '(no values)'}")
        if len(step.records) > 5:
            lines.append(f"      ... {len(step.records) - 5} more")
    if run.coverage is not None and run.coverage.missing:
        lines.append("  not covered: " + "; ".join(f"{m.name} ({m.why})" for m in run.coverage.missing))
    return "\n".join(lines)
