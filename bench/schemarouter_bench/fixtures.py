"""Deterministic downstream fixtures: what each planned step "retrieves", without the network.

Every field of every source record has a value derived from a hash of (source, entity, field),
typed like the field (numbers with six significant digits, six-digit integers, tagged strings),
so gold values are known exactly and unlikely to collide. A step retrieves the *gold* entity's
record when it calls a gold endpoint with parameters that match the gold parameters (the
planning metrics' normalization: a null gold value accepts any non-empty value); any other step
retrieves a record of its own entity, whose values answer nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from schemarouter.execution.context import format_value
from schemarouter.graph import SchemaGraph
from schemarouter.plan import PlanStep
from schemarouter_bench.dataset import GoldStep, Query
from schemarouter_bench.metrics import values_match


def _digest(*parts: str) -> bytes:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()


def fixture_value(source: str, entity: str, field: str, value_type: str) -> Any:
    """The value of ``field`` in ``source``'s record of ``entity`` (same inputs, same value, always)."""
    h = _digest(source, entity, field)
    x = int.from_bytes(h[:8], "big")
    if value_type == "number":
        return float(f"{10 ** ((x / 2**64) * 6 - 2):.6g}")  # 0.01 .. 10^4
    if value_type == "integer":
        return 100_000 + x % 900_000
    if value_type == "boolean":
        return bool(h[8] & 1)
    tag = h[8:12].hex()
    if value_type == "array":
        return [f"{field[:10]}-{tag}", f"{field[:10]}-{h[12:14].hex()}"]
    if value_type == "object":
        return {"id": f"{field[:10]}-{tag}"}
    if value_type == "date":
        return f"{1990 + x % 35}-{1 + h[9] % 12:02d}-{1 + h[10] % 28:02d}"
    return f"{field[:16]}-{tag}"


def entity_key(params: dict[str, Any]) -> str:
    """A stable name for the entity a parameter set asks for."""
    return json.dumps({k: v for k, v in sorted(params.items()) if v is not None}, sort_keys=True, default=str)


def gold_entity(step: GoldStep) -> str:
    """The name of the entity a gold step asks for, marked as gold."""
    return "gold:" + entity_key(step.params)


def params_match(gold: dict[str, Any], got: dict[str, Any]) -> bool:
    """Whether every gold parameter value matches the plan's value for that name."""
    return all(values_match(value, got.get(name)) for name, value in gold.items())


def step_entity(step: PlanStep, query: Query) -> str:
    """The entity whose record ``step`` retrieves for ``query``."""
    for steps in query.gold_sets:
        for g in steps:
            if (
                g.source == step.source
                and g.endpoint == step.endpoint
                and params_match(g.params, step.params)
            ):
                return gold_entity(g)
    return "plan:" + entity_key(step.params)


def field_type(graph: SchemaGraph, source: str, endpoint: str, field: str) -> str:
    """The declared type of a field, ``string`` when the endpoint or field is unknown."""
    info = graph.endpoints.get((source, endpoint))
    f = info.fields.get(field) if info else None
    return f.field.type if f else "string"


def gold_values(query: Query, steps: list[GoldStep], graph: SchemaGraph) -> list[tuple[str, Any]]:
    """(field, value) for every gold field of one gold step list."""
    out: list[tuple[str, Any]] = []
    for g in steps:
        entity = gold_entity(g)
        for name in g.fields:
            out.append(
                (name, fixture_value(g.source, entity, name, field_type(graph, g.source, g.endpoint, name)))
            )
    return out


def present(context: str, field: str, value: Any) -> bool:
    """Whether ``context`` shows ``value`` of ``field``: as ``field=value``, or (not for booleans) as a
    standalone token, e.g. a record id or label in a line's head; never inside a longer number or tag."""
    text = format_value(value)
    if _standalone(context, f"{field}={text}"):
        return True
    if isinstance(value, bool):
        return False
    if isinstance(value, list):
        return all(_standalone(context, format_value(v)) for v in value)
    return _standalone(context, text)


def _standalone(context: str, text: str) -> bool:
    return re.search(rf"(?<![\w.\-]){re.escape(text)}(?![\w.\-])", context) is not None
