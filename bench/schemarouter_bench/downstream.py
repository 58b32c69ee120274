"""Downstream metrics of one plan: the context a reader would get and whether it can answer.

The plan's steps retrieve fixture records (:mod:`schemarouter_bench.fixtures`); the records are
rendered with the execution layer's context renderer, carrying exactly the metadata the plan
carries (baselines carry none). Tokens are counted with a real BPE (cl100k_base) and with the
paper's four-characters-per-token estimate. A question is answerable when every gold value of
the gold plan or of one alternative appears in the context; a negative question is answerable
when the plan declines. For questions that name the unit they expect (``units`` in the dataset),
*units shown* says whether each such gold value appears with its unit (``field=value unit``).
"""

from __future__ import annotations

from dataclasses import dataclass

from schemarouter.execution.context import Context, format_value, render_context
from schemarouter.execution.results import Record, RunResult, StepResult, Value
from schemarouter.graph import SchemaGraph
from schemarouter.plan import Plan
from schemarouter_bench.dataset import Query
from schemarouter_bench.fixtures import field_type, fixture_value, gold_values, present, step_entity


@dataclass(frozen=True)
class Downstream:
    """What a plan's retrieved context costs and whether it holds the answer."""

    tokens: int
    estimated_tokens: int
    chars: int
    answerable: bool
    units_shown: bool | None  # None when the question states no expected units
    context: str


def retrieve(plan: Plan, query: Query, graph: SchemaGraph) -> RunResult:
    """The fixture records a plan's steps fetch, one record per step."""
    run = RunResult(query=plan.query, declined=plan.declined)
    for index, step in enumerate(plan.steps):
        info = graph.endpoints.get((step.source, step.endpoint))
        entity = step_entity(step, query)
        values_raw = {
            f: fixture_value(step.source, entity, f, field_type(graph, step.source, step.endpoint, f))
            for f in step.fields
        }
        id_field = next(
            (f for f in step.fields if info and f in info.fields and info.fields[f].field.identifier), None
        )
        record_id = str(values_raw[id_field]) if id_field else None
        title = info.source.title if info and step.meta else None
        values = {}
        for f, v in values_raw.items():
            m = step.meta.get(f)
            values[f] = Value(
                field=f,
                value=v,
                unit=m.unit if m else None,
                source=step.source,
                source_title=title,
                endpoint=step.endpoint,
                record_id=record_id,
                source_type=m.source_type if m else "",
                license=m.license if m else "",
                attribution=m.attribution if m else None,
            )
        record = Record(source=step.source, endpoint=step.endpoint, record_id=record_id, values=values)
        run.steps.append(
            StepResult(index=index, source=step.source, endpoint=step.endpoint, records=[record])
        )
    return run


def is_answerable(plan: Plan, query: Query, context: str, graph: SchemaGraph) -> bool:
    """Whether ``context`` holds every gold value of some gold plan (a negative: the plan declined)."""
    if query.negative:
        return plan.declined is not None and not plan.steps
    for steps in query.gold_sets:
        wanted = gold_values(query, steps, graph)
        if wanted and all(present(context, f, v) for f, v in wanted):
            return True
    return False


def units_shown(query: Query, context: str, graph: SchemaGraph) -> bool | None:
    """Whether ``context`` states the expected units next to the gold values; None when none are expected."""
    if not query.units or query.negative:
        return None
    for steps in query.gold_sets:
        wanted = [(f, v) for f, v in gold_values(query, steps, graph) if f in query.units]
        if wanted and all(f"{f}={format_value(v)} {query.units[f]}" in context for f, v in wanted):
            return True
    return False


def evaluate(plan: Plan, query: Query, graph: SchemaGraph) -> Downstream:
    """Retrieve a plan's records offline, render the context and judge it against the question."""
    ctx: Context = render_context(retrieve(plan, query, graph))
    return Downstream(
        tokens=ctx.tokens,
        estimated_tokens=ctx.estimated_tokens,
        chars=len(ctx.text),
        answerable=is_answerable(plan, query, ctx.text, graph),
        units_shown=units_shown(query, ctx.text, graph),
        context=ctx.text,
    )
