"""Check a plan against a schema graph: every source, endpoint, parameter and field exists,
parameter values have the declared types, metadata matches the graph, and the plan was made on
this registry state (else it is stale).

A required parameter a step does not send makes a plan incomplete, not invalid: the router plans
the endpoint that answers even where the question leaves out a value it needs, and says so (a
coverage item of kind ``input``, :func:`plan_inputs`); the executor refuses that step until the
value is given (``missing_input``).
"""

from __future__ import annotations

import re
from typing import Any

from schemarouter.graph import EndpointInfo, SchemaGraph
from schemarouter.models import Parameter, ungiven_required
from schemarouter.plan import Plan, PlanStep, binding_of
from schemarouter.router.name_words import name_words
from schemarouter.router.param_facts import is_search_parameter

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,),
    "date": (str,), "array": (list, str), "object": (dict,),
}


def is_stale(plan: Plan, graph: SchemaGraph) -> bool:
    """Whether ``plan`` was made on another registry state than ``graph``'s."""
    return plan.registry_fingerprint != graph.fingerprint


def _type_ok(kind: str, value: Any) -> bool:
    if kind in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, _TYPES.get(kind, (object,)))


def _takes_type(p: Parameter, value: Any) -> bool:
    """Whether ``value`` is of ``p``'s declared type (free text takes any text)."""
    return _type_ok(p.type, value) or (is_search_parameter(p) and isinstance(value, str))


def conformed(p: Parameter, value: Any) -> Any:
    """``value`` as a value ``validate_plan`` accepts for ``p``, or None when it is none: where ``p``
    lists its values, the members written alike (case aside, ``True`` for ``"True"``) in their declared
    spelling; then of the declared type (free text takes any text). The value reading and the
    last-resort guesses ask it before they fill a parameter, so a plan never sends what its own
    validation rejects (an identifier in a numeric id, a yes that is no member)."""
    if value is None or binding_of(value) is not None:
        return value
    if p.enum is not None:
        members = {str(m).casefold(): m for m in p.enum}
        chosen = [members.get(str(v).casefold()) for v in (value if isinstance(value, list) else [value])]
        if any(c is None for c in chosen):
            return None
        value = chosen if isinstance(value, list) else chosen[0]
    if not _fits_pattern(p, value):
        return None  # "Southern Ocean" is no seven-digit float number: the API would refuse it
    # a member the enum lists is what the server takes, whatever type the declaration gives beside it
    # (a "boolean" whose members are "True", "False" and "dontcare")
    return value if p.enum is not None or _takes_type(p, value) else None


# the last word of a parameter's name when it says the parameter holds a number, whatever its type
_NUMBER_WORDS = frozenset(["number", "num", "no", "nr"])
# a word of a parameter's name that says it holds a coordinate (``lat``, ``botLng``, ``min_longitude``)
_COORDINATE_WORDS = frozenset(["lat", "lng", "lon", "latitude", "longitude"])


def takes(p: Parameter, value: Any) -> Any:
    """:func:`conformed`, and what the router itself would send: a text parameter whose name says it
    holds a number (``case_number``, ``flight_no``) or a coordinate (``lat``, ``botLng``) takes only
    text with a digit in it ("lawsuit cases of Facebook" gives ``case_number`` nothing, "from
    Frankfurt" gives a longitude nothing). ``validate_plan`` does not ask this: a plan may send what
    its maker likes where the declaration allows it."""
    value = conformed(p, value)
    if isinstance(value, str) and p.enum is None and not any(ch.isdigit() for ch in value):
        words = name_words(p.name)
        if (len(words) > 1 and words[-1] in _NUMBER_WORDS) or any(w in _COORDINATE_WORDS for w in words):
            return None
    return value


def _fits_pattern(p: Parameter, value: Any) -> bool:
    """Whether ``value`` (each item of a list) matches ``p``'s declared pattern, as JSON Schema reads one:
    found anywhere in a text unless anchored (anything but text is checked by its type; a declared
    pattern always compiles, the Parameter model makes sure)."""
    if not p.pattern:
        return True
    return all(not isinstance(v, str) or re.search(p.pattern, v) is not None
               for v in (value if isinstance(value, list) else [value]))


def validate_plan(plan: Plan, graph: SchemaGraph) -> list[str]:
    """Problems with ``plan`` on ``graph``; an empty list means valid and current."""
    problems: list[str] = []
    if is_stale(plan, graph):
        problems.append(
            f"stale plan: made on registry {plan.registry_fingerprint}, the registry is now {graph.fingerprint}"
        )
    if plan.declined is not None and plan.steps:
        problems.append("a declined plan has steps")
    if plan.declined is None and not plan.steps:
        problems.append("a plan with no steps must say why it declined")
    earlier: dict[str, tuple[str, str]] = {}  # step id -> (source, endpoint) of the steps before
    for i, step in enumerate(plan.steps):
        where = f"step {i} ({step.source}.{step.endpoint})"
        info = graph.endpoints.get((step.source, step.endpoint))
        if step.id is not None and step.id in earlier:
            problems.append(f"{where}: step id {step.id!r} is used twice")
        if info is None:
            problems.append(f"{where}: no such source endpoint in the registry")
            continue
        if info.access == "write":
            problems.append(f"{where}: a write operation; plans only read")
        declared = {p.name: p for p in info.parameters}
        for name, value in step.params.items():
            p = declared.get(name)
            binding = binding_of(value)
            if p is None:
                problems.append(f"{where}: parameter {name!r} is not declared")
            elif binding is not None:
                problems.extend(_binding_problems(where, name, binding, earlier, graph))
            elif not _takes_type(p, value) and not (p.enum is not None and value in p.enum):
                problems.append(f"{where}: parameter {name!r} should be {p.type}, got {type(value).__name__}")
            elif p.enum is not None and any(v not in p.enum for v in (value if isinstance(value, list) else [value])):
                problems.append(f"{where}: parameter {name!r}={value!r} is not one of {p.enum}")
            elif not _fits_pattern(p, value):
                problems.append(f"{where}: parameter {name!r}={value!r} does not match its pattern {p.pattern!r}")
        if not step.fields:
            problems.append(f"{where}: selects no fields")
        for name in step.fields:
            f = info.fields.get(name)
            if f is None:
                problems.append(f"{where}: field {name!r} is not declared")
                continue
            meta = step.meta.get(name)
            if meta is None:
                problems.append(f"{where}: field {name!r} has no metadata")
            elif (meta.unit, meta.source_type, meta.license) != (f.field.unit, f.source_type, f.license):
                problems.append(f"{where}: metadata of {name!r} does not match the registry")
        if step.id is not None:
            earlier.setdefault(step.id, (step.source, step.endpoint))
    return problems


def _binding_problems(where: str, name: str, binding: dict[str, str], earlier: dict[str, tuple[str, str]],
                      graph: SchemaGraph) -> list[str]:
    """A binding must name an earlier step, a field that step's endpoint declares, and a known pick."""
    producer = earlier.get(binding["from"])
    if producer is None:
        return [f"{where}: parameter {name!r} is bound to {binding['from']!r}, which is not an earlier step"]
    info = graph.endpoints.get(producer)
    if info is not None and binding["field"] not in info.fields:
        return [f"{where}: parameter {name!r} is bound to {binding['from']}.{binding['field']}, "
                f"a field {producer[0]}.{producer[1]} does not declare"]
    if binding.get("pick", "first") not in ("first", "all"):
        return [f"{where}: parameter {name!r} has pick {binding.get('pick')!r} (first or all)"]
    return []


def step_inputs(info: EndpointInfo, step: PlanStep) -> list[Parameter]:
    """The required parameters ``step`` (a step of ``info``) does not send, as the executor checks
    them (:func:`~schemarouter.models.ungiven_required`: no declared default, not the user's key)."""
    return ungiven_required(info.endpoint, step.params, info.source.auth.name if info.source.auth else None)


def plan_inputs(plan: Plan, graph: SchemaGraph) -> list[str]:
    """``source.endpoint.param`` of every required parameter a step of ``plan`` does not send (the
    values to ask for before the plan can run, :func:`step_inputs`); empty for a complete plan."""
    out: list[str] = []
    for step in plan.steps:
        info = graph.endpoints.get((step.source, step.endpoint))
        if info is not None:
            out.extend(f"{step.source}.{step.endpoint}.{p.name}" for p in step_inputs(info, step))
    return out
