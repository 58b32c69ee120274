"""What the executor knows of fallbacks: which failures deserve one, and the shape of a substitute.

Finding an equivalent source is planning, so it lives in the router
(:mod:`schemarouter.router.substitutes`); the executor is handed a :data:`Substitutes` function the
way an HTTP client is handed a transport, and imports nothing above it to use one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from schemarouter.execution import errors as E
from schemarouter.plan import Plan, PlanStep

# Failures that say the source (not the question) is the problem.
# Offline, a request no recording holds may still be answered by an equivalent source's recording.
FALLBACK_KINDS = frozenset({E.NetworkError.kind, E.NoRecording.kind, E.MissingCredentials.kind, E.StepTimeout.kind,
                            E.RateLimited.kind})
AUTH_STATUSES = frozenset({401, 403, 407})


def fallback_worthy(err: BaseException) -> bool:
    """Whether a step that failed with ``err`` should try an equivalent source."""
    if isinstance(err, E.HttpStatusError):
        return err.status >= 500 or err.status in AUTH_STATUSES
    if isinstance(err, TimeoutError):
        return True
    return isinstance(err, E.StepError) and err.kind in FALLBACK_KINDS


@dataclass
class Alternative:
    """A substitute step, why it is equivalent, and how its fields stand for the planned ones."""

    step: PlanStep
    reason: str
    fields: dict[str, list[str]] = field(default_factory=dict)  # planned field -> substitute fields
    units: dict[str, tuple[str, str]] = field(default_factory=dict)  # substitute field -> (its unit, planned unit)
    rank: tuple[Any, ...] = ()


# (the plan, the index of the step that failed) -> equivalent substitutes, best first
Substitutes = Callable[[Plan, int], list[Alternative]]
