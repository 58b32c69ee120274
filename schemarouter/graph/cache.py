"""Graphs cached by registry fingerprint: a process builds the graph of a registry state once.

The fingerprint changes with any declaration change, so a cached graph is never stale; an
unsynced registry (no fingerprint) is built fresh every time.
"""

from __future__ import annotations

import threading

from schemarouter.graph.build import SchemaGraph, build_graph
from schemarouter.registry import Registry

_CACHE: dict[str, SchemaGraph] = {}
_LOCK = threading.Lock()
_MAX_ENTRIES = 8


def load_graph(registry: Registry) -> SchemaGraph:
    """The schema graph of ``registry``'s current state."""
    fingerprint = registry.fingerprint()
    if fingerprint is not None:
        with _LOCK:
            cached = _CACHE.get(fingerprint)
        if cached is not None:
            return cached
    # The fingerprint read with the declarations (one snapshot) keys the graph: a sync committing
    # between the two reads must not file a graph of new content under the old fingerprint.
    decls = registry.load()
    fingerprint = decls.fingerprint
    graph = build_graph(decls, fingerprint)
    if fingerprint is not None:
        with _LOCK:
            if len(_CACHE) >= _MAX_ENTRIES:
                _CACHE.pop(next(iter(_CACHE)))
            _CACHE[fingerprint] = graph
    return graph


def graph_from_url(url: str | None) -> SchemaGraph:
    """The graph of the registry at ``url`` (the configured one when None), from the cache when current."""
    with Registry.open(url) as registry:
        return load_graph(registry)


def clear_cache() -> None:
    """Forget every cached graph (the next load rebuilds from the registry)."""
    with _LOCK:
        _CACHE.clear()
