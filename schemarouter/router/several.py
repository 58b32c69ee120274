"""Several entities, several answers: "band gaps of GaN, AlN and InN" asks three questions.

The routes plan one step per target endpoint and fill its entity parameter with the first entity the
question names. When the question names more entities of the same kind (three formulas, two
compounds, two identifiers), each further one is asked with a copy of that step, its value in the
same parameter: one step per entity, so the result and the coverage report list each. A parameter
that takes a list is given every entity at once instead. Steps another step binds from (a chain's
producers) and steps whose value no entity wrote are left as they are.
"""

from __future__ import annotations

from typing import Any

from schemarouter.graph import SchemaGraph
from schemarouter.plan import PlanStep
from schemarouter.understand.base import Analysis
from schemarouter.understand.entities import Entity

MAX_ENTITIES = 10  # one question fans out to at most this many steps per target


def _same(value: Any, entity: Entity) -> bool:
    return value == entity.value or (isinstance(value, str) and value.casefold() == entity.text.casefold())


def _bound(steps: list[PlanStep]) -> set[str]:
    """Ids of steps another step takes a value from."""
    return {v["from"] for s in steps for v in s.params.values() if isinstance(v, dict) and "from" in v}


def per_entity(steps: list[PlanStep], analysis: Analysis, graph: SchemaGraph) -> list[PlanStep]:
    """``steps`` with each step that asks about one of several same-kind entities repeated for the
    others (or given all of them, where its parameter takes a list)."""
    entities = [e for e in analysis.entities if e.kind != "year"]
    if len(entities) < 2 or not steps:
        return steps
    producers = _bound(steps)
    out: list[PlanStep] = []
    for step in steps:
        out.append(step)
        if step.id in producers:
            continue
        info = graph.endpoints.get((step.source, step.endpoint))
        if info is None:
            continue
        for name, value in step.params.items():
            first = next((e for e in entities if _same(value, e)), None)
            if first is None:
                continue
            others = [e for e in entities if e.kind == first.kind and not _same(value, e)]
            others = list({str(e.value): e for e in others}.values())[: MAX_ENTITIES - 1]
            if not others:
                continue
            param = info.param(name)
            if param is not None and param.type == "array":
                step.params[name] = [value, *(e.value for e in others)]
            else:
                for e in others:
                    copy = step.model_copy(deep=True)
                    copy.params[name] = e.value
                    copy.id = None  # numbered with the plan's other steps
                    copy.why = {**copy.why, name: f"{e.text}: one of the {1 + len(others)} {first.kind} values the question names"}
                    out.append(copy)
            break  # one parameter fans out per step
    return out
