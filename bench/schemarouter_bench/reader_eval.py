"""Reader answer accuracy (only with an LLM endpoint): the reader answers from a plan's context.

Judged deterministically against the fixture gold values rather than by a second LLM: an
answer is correct when it states every gold value of the gold plan (or of one alternative);
numbers count when any number in the answer is within 0.1 % of the gold value. For a negative
question the plan must decline (nothing is fetched, so there is nothing to read).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import httpx

from schemarouter.execution.context import format_value
from schemarouter.execution.reader import ask_reader
from schemarouter.graph import SchemaGraph
from schemarouter.llm import LLMConfig
from schemarouter.plan import Plan
from schemarouter_bench.dataset import Query
from schemarouter_bench.fixtures import gold_values

_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?(?:[eE][-+]?\d+)?")


def states(answer: str, field: str, value: Any) -> bool:
    """Whether an answer states a gold value: numbers by value, booleans as true/yes, text by its words."""
    if isinstance(value, bool):
        return str(value).lower() in answer.lower() or ("yes" if value else "no") in answer.lower()
    if isinstance(value, (int, float)):
        for token in _NUMBER.findall(answer):
            try:
                got = float(token.replace(",", ""))
            except ValueError:
                continue
            if math.isclose(got, float(value), rel_tol=1e-3):
                return True
        return False
    if isinstance(value, list):
        return all(format_value(v).lower() in answer.lower() for v in value)
    return format_value(value).lower() in answer.lower()


def judge(answer: str, query: Query, graph: SchemaGraph) -> bool:
    """Whether an answer states every gold value of some gold plan."""
    for steps in query.gold_sets:
        wanted = gold_values(query, steps, graph)
        if wanted and all(states(answer, f, v) for f, v in wanted):
            return True
    return False


def make_reader(
    config: LLMConfig, graph: SchemaGraph, transport: httpx.BaseTransport | None = None
) -> Callable[[Plan, Query, str], bool]:
    """A judge that asks the LLM reader to answer from the context and checks the answer."""
    def read(plan: Plan, query: Query, context: str) -> bool:
        if query.negative:
            return plan.declined is not None and not plan.steps
        if not context:
            return False
        return judge(ask_reader(config, query.query, context, transport=transport), query, graph)

    return read
