"""A registry's declarations read a batch of sources at a time (:meth:`Registry.batches`).

A cold start of a large registry builds its graph from them batch by batch
(:func:`schemarouter.graph.build_graph_in_batches`), letting each batch's declarations go once the graph
has what it needs of them, so that it never holds every declaration of the registry at once.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from schemarouter.declarations import Declarations

BATCH_SOURCES = 500  # sources per batch of :meth:`Registry.batches` (a few MB of declarations at a time)


def batch_size() -> int:
    """Sources per batch where none is asked for (:data:`BATCH_SOURCES`, read at the call)."""
    return BATCH_SOURCES


@dataclass
class SourceBatches:
    """A registry's declarations with the sources still to read, a batch at a time (:meth:`Registry.batches`)."""

    header: Declarations  # the vocabulary, adapter specs and fingerprint; no source yet
    order: list[str]  # every source id, in the order :meth:`Registry.load` gives them
    _read: Callable[[Sequence[str] | None], Declarations]  # the sources of these ids (None: all)
    size: int

    read_s: float = 0.0  # seconds spent reading the batches so far

    def __len__(self) -> int:
        return len(self.order)

    def __iter__(self) -> Iterator[Declarations]:
        """The sources (with their owners), ``size`` at a time, in id order."""
        ids = sorted(self.order)
        for start in range(0, len(ids), self.size):
            started = time.perf_counter()
            batch = self._read(ids[start : start + self.size])
            self.read_s += time.perf_counter() - started
            yield batch

    def whole(self) -> Declarations:
        """Every declaration at once, as :meth:`Registry.load` gives them (a registry built from a whole
        read: one too small for batches to pay, or any while dense routing embeds every endpoint)."""
        started = time.perf_counter()
        every = self._read(None)
        self.read_s += time.perf_counter() - started
        return dataclasses.replace(self.header, sources=every.sources, owners=every.owners)
