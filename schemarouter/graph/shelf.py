"""Every source of a graph by id, each kept pickled until something first reads it.

A graph read back from its cache file needs its indexes at once, but the declarations behind them
(sources, endpoints, parameters, response fields: about a million models at 100,000 sources) only
for the few endpoints a question reaches. Unpickling them all was most of a warm start's seconds and
most of its memory. So the cache file holds each source as a pickle of its own, and this mapping
unpickles one on its first read; the graph's endpoint and field records resolve their declarations
through it (:mod:`schemarouter.graph.records`). A graph just built holds every source live.
"""

from __future__ import annotations

import io
import pickle
import threading
from collections.abc import Iterator, Mapping
from typing import Any

from schemarouter.graph.unpickling import GraphUnpickler
from schemarouter.models import Endpoint, ResponseField, Source


class SourceShelf(Mapping[str, Source]):
    """Read-only ``{source id: Source}``: live models, or pickles unpickled (once) on first read."""

    __slots__ = ("_blobs", "_endpoints", "_live", "_lock", "_order", "_prose")

    def __init__(self, sources: Mapping[str, Source] | None = None, blobs: dict[str, bytes] | None = None,
                 prose: dict[str, tuple[str, str]] | None = None) -> None:
        self._live: dict[str, Source] = dict(sources or {})
        # a source's pickle, until it is read (then only its model is kept); every id is a key of one of them
        self._blobs: dict[str, bytes] = dict(blobs or {})
        self._order = list(self._blobs) if blobs else list(self._live)  # the ids, in the order given
        # every source's title and description, read of all sources at once (without unpickling them)
        self._prose = prose if prose is not None else {s.id: (s.title, s.description) for s in self._live.values()}
        self._endpoints: dict[str, dict[str, tuple[Endpoint, dict[str, ResponseField]]]] = {}
        self._lock = threading.Lock()  # a server's threads may read the same source first at once

    def __getitem__(self, source_id: str) -> Source:
        found = self._live.get(source_id)
        if found is None:
            found = self._load(source_id)
        return found

    def __contains__(self, source_id: object) -> bool:
        # the Mapping default reads the value: it would unpickle a source to answer yes
        return source_id in self._live or source_id in self._blobs

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)

    def __repr__(self) -> str:
        return f"SourceShelf({len(self)} sources, {self.loaded()} read)"

    def prose(self) -> Iterator[tuple[str, str]]:
        """Every source's (title, description), in the mapping's order, without reading a source."""
        prose = self._prose
        return (prose[sid] for sid in self._order)

    def loaded(self) -> int:
        """How many sources are live models (all of a graph just built; those read so far of one read back)."""
        return len(self._live)

    def endpoint(self, source_id: str, endpoint_id: str) -> Endpoint:
        """The declaration of one endpoint (its source unpickled if it is not yet)."""
        return self._lookup(source_id)[endpoint_id][0]

    def field(self, source_id: str, endpoint_id: str, name: str) -> ResponseField:
        """The declaration of one response field of one endpoint."""
        return self._lookup(source_id)[endpoint_id][1][name]

    def _lookup(self, source_id: str) -> dict[str, tuple[Endpoint, dict[str, ResponseField]]]:
        found = self._endpoints.get(source_id)
        if found is None:
            source = self[source_id]
            found = {ep.id: (ep, {f.name: f for f in ep.fields}) for ep in source.endpoints}
            self._endpoints[source_id] = found
        return found

    def _load(self, source_id: str) -> Source:
        with self._lock:
            found = self._live.get(source_id)
            if found is not None:  # another thread read it meanwhile
                return found
            blob = self._blobs.get(source_id)
            if blob is None:
                raise KeyError(source_id)
            # the file this came from was checksummed whole; its classes are still only a graph's
            loaded: Source = GraphUnpickler(io.BytesIO(blob)).load()
            self._live[source_id] = loaded
            del self._blobs[source_id]
            return loaded

    def __reduce__(self) -> tuple[Any, ...]:
        # each source a pickle of its own, in the mapping's order: sources never read stay as they came
        blobs = {sid: self._blobs.get(sid) or pickle.dumps(self._live[sid], protocol=pickle.HIGHEST_PROTOCOL)
                 for sid in self}
        return SourceShelf, (None, blobs, self._prose)
