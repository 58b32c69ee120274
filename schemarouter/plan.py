"""The plan: the router's output and the executor's input (``schemarouter plan --json``).

A plan names, per step, one source endpoint, the parameter values to send and exactly the
response fields to fetch, each field with its unit, source type, license and attribution, and
the reason it is there. It carries the registry fingerprint it was made on, so a plan made on
an older registry is detectably stale, and a coverage report: which concepts and constraints of
the question the plan covers and which it does not, and why.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

# recall adds the intent's field groups (the recall-preserving point); minimal keeps what the question names
Mode = Literal["recall", "minimal"]


class PlanModel(BaseModel):
    """Base of the plan models: an unknown key in a plan file is an error."""
    model_config = ConfigDict(extra="forbid")


class FieldMeta(PlanModel):
    """What a reader needs to cite one value (immutable: plans that fetch the same field share one)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

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


class CoverageItem(PlanModel):
    """One thing the question asks for or constrains, and whether (and by which steps) the plan covers it.

    ``kind``: ``concept`` (a quantity asked for), ``param`` (a value given, e.g. a formula or DOI),
    ``source_constraint`` (computed/experimental/...), ``named_source``, or ``input`` (a value a
    planned step requires and the question does not give: ask the user for it). ``by`` lists
    ``source.endpoint`` (and ``.field`` or ``.param``) of the steps that cover it.
    """

    kind: str
    name: str
    value: Any = None
    covered: bool
    by: list[str] = Field(default_factory=list)
    why: str = ""


class Coverage(PlanModel):
    """What the plan covers of the question, and what it does not (with the reason)."""

    items: list[CoverageItem] = Field(default_factory=list)

    @property
    def covered(self) -> list[CoverageItem]:
        """The items the plan covers."""
        return [i for i in self.items if i.covered]

    @property
    def missing(self) -> list[CoverageItem]:
        """The items the plan does not cover, each with the reason."""
        return [i for i in self.items if not i.covered]

    @property
    def complete(self) -> bool:
        """Whether the plan covers everything the question asks for."""
        return not self.missing


class Plan(PlanModel):
    """A question's plan: the steps to run, or the reason it was declined."""
    query: str
    registry_fingerprint: str | None
    mode: str = "recall"
    understanding: Understanding = Field(default_factory=Understanding)
    steps: list[PlanStep] = Field(default_factory=list)
    declined: str | None = None
    prompt_tokens: int | None = None
    id: str | None = None
    coverage: Coverage | None = None
    notes: list[str] = Field(default_factory=list)  # how the plan was made, where a reader must know it

    @property
    def is_declined(self) -> bool:
        """Whether the router declined the question (no steps, and ``declined`` says why)."""
        return self.declined is not None

    def __repr__(self) -> str:
        return describe_plan(self)

    __str__ = __repr__


def describe_plan(plan: Plan) -> str:
    """A readable multi-line summary: the question, each step with its params and fields, the coverage."""
    u = plan.understanding
    lines = [f"Plan ({plan.mode}): {plan.query!r}",
             f"  intent {u.intent or '-'}; concepts {', '.join(u.concepts) or '-'}; params {u.params or '-'}"]
    if plan.declined:
        lines.append(f"  declined: {plan.declined}")
    lines.extend(f"  note: {note}" for note in plan.notes)
    for i, step in enumerate(plan.steps):
        lines.append(f"  [{i}] {step.source}.{step.endpoint} {step.params}")
        shown = [f"{name} ({step.meta[name].unit})" if name in step.meta and step.meta[name].unit else name
                 for name in step.fields]
        lines.append(f"      fields: {', '.join(shown)}")
    if plan.coverage is not None:
        for item in plan.coverage.items:
            mark = "covered" if item.covered else "NOT covered"
            where = f" by {', '.join(item.by)}" if item.by else ""
            lines.append(f"  {mark}: {item.kind} {item.name}{where}{'' if item.covered else ': ' + item.why}")
    return "\n".join(lines)
