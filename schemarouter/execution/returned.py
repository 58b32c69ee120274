"""What a run returned, measured against what its plan asked for.

A plan names the fields it fetches, and its coverage report says which planned fields carry the
question's concepts. A source may still answer with records that lack them: a field it did not
fill for these records, or a recording made for other fields. A run that reports what was
*planned* would then call an empty answer ``ok``. This module reads the records instead: per step,
the planned fields no record carries a value for; the coverage of the question's concepts by
values that came back; and whether any answer came back at all. It works on results alone, so the
CLI, the JSON every front end serves and the Python API all say the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from schemarouter.plan import Coverage, CoverageItem, binding_of

if TYPE_CHECKING:
    from schemarouter.execution.results import RunResult, StepResult


def returned_fields(step: StepResult) -> set[str]:
    """The fields of ``step`` that at least one record carries a value for."""
    return {name for record in step.records for name, value in record.values.items() if value.value is not None}


def missing_fields(step: StepResult) -> list[str]:
    """The fields asked of ``step``'s source that no record carries a value for (all of them after an
    error), in the order they were asked."""
    got = returned_fields(step)
    return [name for name in step.fields if name not in got]


def step_label(step: StepResult) -> str:
    """``source.endpoint`` with the literal values it was sent, the entity a step is about
    (``materials_project.summary formula=GaN``)."""
    shown = [f"{k}={_short(v)}" for k, v in step.params.items() if binding_of(v) is None and v not in (None, "", [])]
    return f"{step.source}.{step.endpoint}" + (f" {' '.join(shown)}" if shown else "")


def _short(value: Any) -> str:
    text = ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
    return text if len(text) <= 60 else text[:59] + "…"


def _planned_at(run: RunResult, step: StepResult) -> tuple[str, str]:
    """The source and endpoint the plan named for ``step`` (a fallback answers for another)."""
    if step.fallback is not None:
        return step.fallback.source, step.fallback.endpoint
    return step.source, step.endpoint


def _answering(step: StepResult, planned_field: str) -> list[str]:
    """The fields of the answering source that stand for ``planned_field``."""
    if step.fallback is not None:
        return step.fallback.fields.get(planned_field, [planned_field])
    return [planned_field]


def _label_returned(run: RunResult, label: str) -> bool:
    """Whether the coverage label ``source.endpoint[.field]`` got a value back from some step."""
    source, _, rest = label.partition(".")
    endpoint, _, name = rest.partition(".")
    for step in run.steps:
        if _planned_at(run, step) != (source, endpoint) or step.error is not None or not step.records:
            continue
        got = returned_fields(step)
        planned = run.plan.steps[step.index].fields if run.plan is not None and step.index < len(run.plan.steps) else []
        if name and name in planned:
            if any(f in got for f in _answering(step, name)):
                return True
        elif got:  # the endpoint as a whole, or a parameter that names the property asked for
            return True
    return False


def returned_coverage(run: RunResult) -> Coverage | None:
    """The plan's coverage with each concept (and each structure a polymorph's name asks for) covered
    only where a value for it came back; one planned but not returned says which planned fields came
    back empty."""
    planned = run.plan.coverage if run.plan is not None else None
    if planned is None:
        return None
    items: list[CoverageItem] = []
    for item in planned.items:
        if item.kind not in ("concept", "structure") or not item.covered:
            items.append(item)
            continue
        got = [label for label in item.by if _label_returned(run, label)]
        if got:
            items.append(item.model_copy(update={"by": got}))
        else:
            why = f"planned ({', '.join(item.by)}), but no record returned a value for it"
            items.append(item.model_copy(update={"covered": False, "why": why}))
    return Coverage(items=items)


def _concept_labels(run: RunResult) -> list[str]:
    planned = run.plan.coverage if run.plan is not None else None
    return [label for item in (planned.items if planned is not None else []) if item.kind == "concept" for label in item.by]


def answer_fields(run: RunResult, step: StepResult) -> list[str]:
    """The fields of ``step`` that answer the question: those that carry a concept the question asks
    for (the plan's coverage); every asked field when the plan ties none to a concept ("get the
    paper 1605.08386" asks for the record, not for one of its fields)."""
    labels = _concept_labels(run)
    if not labels:
        return list(step.fields)
    source, endpoint = _planned_at(run, step)
    prefix = f"{source}.{endpoint}."
    named = [label[len(prefix):] for label in labels if label.startswith(prefix)]
    answering = [f for name in named for f in _answering(step, name) if f in step.fields]
    return list(dict.fromkeys(answering))


def any_answer(run: RunResult) -> bool:
    """Whether some step returned a value for one of its answer fields (any value, when the plan's
    coverage ties no field of any step to a concept)."""
    slots = [(step, answer_fields(run, step)) for step in run.steps]
    if not any(fields for _, fields in slots):
        return any(returned_fields(step) for step in run.steps)
    return any(set(fields) & returned_fields(step) for step, fields in slots)


def all_answers(run: RunResult) -> bool:
    """Whether every step returned a value for each field that carries a concept of the question (true
    when the plan ties no field to one: then any value answers)."""
    if not _concept_labels(run):
        return True
    return all(not (set(answer_fields(run, step)) - returned_fields(step)) for step in run.steps)


def not_returned(run: RunResult) -> list[dict[str, Any]]:
    """Per step with a planned field no record carries: the step, the entity it asked about, the
    fields, which of them answer the question, and the error when the step failed."""
    out: list[dict[str, Any]] = []
    for step in run.steps:
        fields = missing_fields(step)
        if not fields:
            continue
        answers = [f for f in answer_fields(run, step) if f in fields]
        out.append({"step": step.index, "source": step.source, "endpoint": step.endpoint,
                    "about": step_label(step), "fields": fields, "answers": answers,
                    "error": step.error.kind if step.error is not None else None})
    return out
