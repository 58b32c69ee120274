"""Candidates for one question in ranking order, without scoring every endpoint.

The router's ranking is a sort of every endpoint by its key (descending), ties by label. Only
endpoints with a field answering one of the question's concepts (found through the graph's
indexes, :func:`~schemarouter.router.matching.concept_hits`) and the named sources' endpoints
need scoring; every other endpoint serving the intent has score zero and a key fixed by facts the
graph grouped at build time (:mod:`schemarouter.graph.order`). A :class:`Pool` merges the scored
list with those presorted groups lazily, so a plan usually looks at a handful of candidates.

Filters on a pool (:meth:`Pool.where`) are decided once per group, so they may only read what a
group shares: entity fit, score, whether it returns an intent group, provenance of an unmatched
endpoint. Per-candidate tests (parameters, a different source) belong in the loop that consumes it.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schemarouter.router.core import Candidate


def sort_key(c: Candidate) -> tuple[Any, ...]:
    """Key descending, then label ascending (the order of ``Router.candidates``)."""
    return (*(-x for x in c.key), c.info.label)


class Stream:
    """A presorted run of candidates, built as they are read and kept for the next reader."""

    def __init__(self, items: Iterator[Candidate]) -> None:
        self._items = items
        self._seen: list[Candidate] = []
        self._done = False

    def _pull(self) -> bool:
        if self._done:
            return False
        nxt = next(self._items, None)
        if nxt is None:
            self._done = True
            return False
        self._seen.append(nxt)
        return True

    def head(self) -> Candidate | None:
        if not self._seen:
            self._pull()
        return self._seen[0] if self._seen else None

    def __iter__(self) -> Iterator[Candidate]:
        i = 0
        while i < len(self._seen) or self._pull():
            yield self._seen[i]
            i += 1


class Pool:
    """Candidates in ranking order: a scored list (sorted) merged with presorted streams."""

    def __init__(self, scored: list[Candidate], streams: list[Stream]) -> None:
        self.scored = scored
        self.streams = streams

    def where(self, keep: Callable[[Candidate], bool]) -> Pool:
        streams = [s for s in self.streams if (h := s.head()) is not None and keep(h)]
        return Pool([c for c in self.scored if keep(c)], streams)

    def __iter__(self) -> Iterator[Candidate]:
        if not self.streams:
            return iter(self.scored)
        return heapq.merge(self.scored, *self.streams, key=sort_key)

    def __bool__(self) -> bool:
        return bool(self.scored) or any(s.head() is not None for s in self.streams)

    def first(self) -> Candidate | None:
        return next(iter(self), None)
