"""Typed memo slots: what a layer works out once about an object of a lower layer, kept on it.

The schema graph is built once and read for every question; an :class:`~schemarouter.understand.base.Analysis`
is read for every candidate endpoint. The router and the understand step each derive answers
from them worth keeping (an endpoint's parameter facts, the words a question says), but those
answers are theirs: the graph must not know the router's types, nor the analysis the router's.
So each holds a :class:`Memos`, and a layer asks it for the memo class it owns,
``graph.memos.of(RouterGraphMemo)``: made empty on first use, typed, and gone with its owner.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


class Memos:
    """One instance per memo class, made on first use (not thread-safe to create; the objects
    that hold one are read by one thread at a time, or made before they are shared)."""

    __slots__ = ("_by_kind",)

    def __init__(self) -> None:
        self._by_kind: dict[type[Any], Any] = {}

    def of(self, kind: type[T]) -> T:
        """The memo of class ``kind`` (``kind()`` the first time)."""
        # no typing.cast: a call per lookup, and this is looked up for every candidate endpoint
        found: T | None = self._by_kind.get(kind)
        if found is None:
            found = self._by_kind[kind] = kind()
        return found

    def __repr__(self) -> str:
        return f"Memos({', '.join(k.__name__ for k in self._by_kind)})"
