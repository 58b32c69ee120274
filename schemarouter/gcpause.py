"""The cyclic garbage collector paused around work that allocates millions of objects and no cycles.

Building a graph, pickling or unpickling it and queueing a large sync's rows each allocate millions
of long-lived objects; every pass of the cyclic collector walks the growing heap again and finds
nothing to free, which cost more than the work itself at 100,000 sources. Reference counting still
frees everything that is dropped; only cycles wait until the collector runs again.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic collector for the block (it stays off where the caller had turned it off)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
