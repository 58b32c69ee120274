"""Aggregation of per-query results: micro means, percentiles and bootstrap confidence intervals.

Pure functions over plain numbers, so the arithmetic can be checked by hand in tests.
Percentiles interpolate linearly between order statistics (numpy's default). Bootstrap CIs
resample queries with replacement ``resamples`` times from a fixed seed and take the 2.5th and
97.5th percentiles of the statistic, so a rerun reproduces them exactly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

SEED = 20260611
RESAMPLES = 1000


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean, 0.0 for no values."""
    return sum(values) / len(values) if values else 0.0


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100), linear interpolation between closest ranks."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    lo, hi = math.floor(pos), math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def bootstrap_ci(
    items: Sequence[T],
    statistic: Callable[[Sequence[T]], float],
    *,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    level: float = 95.0,
) -> tuple[float, float]:
    """Percentile bootstrap interval of ``statistic`` over ``items`` (deterministic by ``seed``)."""
    if not items:
        return (0.0, 0.0)
    rng = random.Random(seed)
    n = len(items)
    stats = [statistic([items[rng.randrange(n)] for _ in range(n)]) for _ in range(resamples)]
    tail = (100.0 - level) / 2
    return (percentile(stats, tail), percentile(stats, 100.0 - tail))


def rate(flags: Sequence[bool]) -> float:
    """The share of true flags, 0.0 for none."""
    return mean([1.0 if f else 0.0 for f in flags])
