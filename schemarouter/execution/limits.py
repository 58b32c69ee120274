"""How long a request and a step may take: one function resolves both settings.

Each setting comes from the first place that has it: the command-line option (``--timeout``,
``--deadline``), the environment (``SCHEMAROUTER_TIMEOUT``, ``SCHEMAROUTER_STEP_DEADLINE``), the
``[execution]`` table of a configuration file (``timeout``, ``step_deadline``), then the default.
The timeout bounds one HTTP attempt in full (connect, redirects and the whole body, so a server
trickling bytes cannot hold a step); the deadline bounds a step, retries and back-off included.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from schemarouter.errors import SchemaRouterError

TIMEOUT_ENV = "SCHEMAROUTER_TIMEOUT"
STEP_DEADLINE_ENV = "SCHEMAROUTER_STEP_DEADLINE"
DEFAULT_TIMEOUT_S = 30.0
DEFAULT_STEP_DEADLINE_S = 120.0


@dataclass(frozen=True)
class ExecutionLimits:
    """Seconds: ``timeout_s`` per HTTP attempt, ``step_deadline_s`` per plan step."""

    timeout_s: float = DEFAULT_TIMEOUT_S
    step_deadline_s: float = DEFAULT_STEP_DEADLINE_S


def resolve_limits(
    *,
    timeout: float | str | None = None,
    deadline: float | str | None = None,
    env: Mapping[str, str] | None = None,
    config: Mapping[str, Any] | None = None,
) -> ExecutionLimits:
    """Option, then environment, then the config file's ``[execution]`` table, then the default.

    ``config`` is that table as a mapping (``{"timeout": 10, "step_deadline": 60}``); a bad value
    anywhere is a SchemaRouterError naming where it came from.
    """
    env = os.environ if env is None else env
    if config is None:  # the config file in effect (schemarouter.config)
        from schemarouter.config import load

        config = load().get("execution", {})
    table = config or {}
    timeout_s = _first(
        ("--timeout", timeout), (TIMEOUT_ENV, env.get(TIMEOUT_ENV)),
        ("[execution] timeout", table.get("timeout")), default=DEFAULT_TIMEOUT_S,
    )
    deadline_s = _first(
        ("--deadline", deadline), (STEP_DEADLINE_ENV, env.get(STEP_DEADLINE_ENV)),
        ("[execution] step_deadline", table.get("step_deadline")), default=DEFAULT_STEP_DEADLINE_S,
    )
    return ExecutionLimits(timeout_s=timeout_s, step_deadline_s=deadline_s)


def _first(*candidates: tuple[str, Any], default: float) -> float:
    for where, raw in candidates:
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            continue
        return _seconds(where, raw)
    return default


def _seconds(where: str, raw: Any) -> float:
    shown = repr(raw) if len(repr(raw)) <= 40 else repr(raw)[:39] + "…"
    if isinstance(raw, bool):
        raise SchemaRouterError(f"{where} must be a number of seconds, not {shown}")
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise SchemaRouterError(f"{where} must be a number of seconds, not {shown}") from None
    if not math.isfinite(value) or value <= 0:
        raise SchemaRouterError(f"{where} must be a positive number of seconds, not {shown}")
    return value
