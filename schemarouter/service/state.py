"""The registry state a server plans on: one immutable snapshot, swapped whole when the registry changes.

Requests read :attr:`RegistryState.current` once and use that snapshot to the end, so a rebuild
in the background never changes a plan halfway. Graphs come from the process-wide cache keyed
by the registry fingerprint, so a fingerprint seen before is not rebuilt.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field

from schemarouter.api import Router
from schemarouter.graph import SchemaGraph
from schemarouter.graph.cache import GraphSource, load_graph_traced
from schemarouter.registry import Registry

log = logging.getLogger("schemarouter.service")


@dataclass(frozen=True)
class Snapshot:
    """One registry state: its fingerprint, schema graph and router (which plans and runs), and where this
    process got the graph (``built`` here, or loaded from ``memory``, the cache ``file`` or ``redis``)."""

    graph: SchemaGraph
    router: Router = field(repr=False)
    graph_source: GraphSource = "built"

    @property
    def fingerprint(self) -> str | None:
        """The registry fingerprint this snapshot was built from."""
        return self.graph.fingerprint


class RegistryState:
    """The registry at one URL and the snapshot of it this process serves."""

    def __init__(self, url: str | None = None) -> None:
        self.registry = Registry.open(url)
        self.dialect = self.registry.engine.dialect.name
        self._lock = threading.Lock()
        self._current = self._build()

    @property
    def current(self) -> Snapshot:
        """The snapshot requests use now."""
        return self._current

    def _build(self) -> Snapshot:
        graph, source = load_graph_traced(self.registry)
        return Snapshot(graph=graph, router=Router(graph), graph_source=source)

    def refresh(self) -> bool:
        """Rebuild when the registry's fingerprint moved; True when the snapshot changed."""
        with self._lock:  # one rebuild at a time; readers never wait (they read the old snapshot)
            fingerprint = self.registry.fingerprint()
            if fingerprint == self._current.fingerprint and fingerprint is not None:
                return False
            snapshot = self._build()
            changed = snapshot.fingerprint != self._current.fingerprint
            self._current = snapshot
        if changed:
            log.info(
                "registry changed: now %s (%d sources)", snapshot.fingerprint, len(snapshot.graph.sources)
            )
        return changed

    def close(self) -> None:
        """Release the registry's connections."""
        self.registry.close()
