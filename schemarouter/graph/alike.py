"""Equal values made one object, so that a graph keeps, pickles and reads back each once.

A large registry repeats small immutable values by the thousand (a plugin's owner, a provider's key
declaration, the intent counts of concepts counted alike); each read back from a registry or counted
anew is an object of its own, and pickle writes every object it meets.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V", bound=Hashable)


def one_per_value(values: Mapping[K, V], seen: dict[V, V] | None = None) -> dict[K, V]:
    """``values`` with equal values replaced by the first of them (``seen`` shares that across calls)."""
    distinct: dict[V, V] = {} if seen is None else seen
    return {key: distinct.setdefault(value, value) for key, value in values.items()}
