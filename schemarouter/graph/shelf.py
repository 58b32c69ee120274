"""Every source of a graph by id, each kept pickled until something first reads it.

A graph read back from its cache file needs its indexes at once, but the declarations behind them
(sources, endpoints, parameters, response fields: about a million models at 100,000 sources) only
for the few endpoints a question reaches. Unpickling them all was most of a warm start's seconds and
most of its memory. So the cache file keeps each source as a pickle of its own, in a section before
the graph's own pickle (:mod:`schemarouter.graph.persist`), and this mapping reads and unpickles one
on its first read: from the file (a descriptor kept open, so a newer file renamed over it changes
nothing) or from the bytes the graph came in. The graph's endpoint and field records resolve their
declarations through it (:mod:`schemarouter.graph.records`). A graph just built holds every source live.

The file's checksum covers the section as well (worked out beside the unpickling, so a warm start
does not wait for it), and each source's pickle carries a checksum of its own, checked when it is
read: the file could be changed in place after it was loaded.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import pickle
import tempfile
import threading
import weakref
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any, BinaryIO, Protocol

from schemarouter.graph.alike import one_per_value
from schemarouter.graph.unpickling import GraphUnpickler
from schemarouter.models import Auth, DomainConcept, Endpoint, ResponseField, Source

_DIGEST_SIZE = 16


def _digest(data: bytes | memoryview) -> bytes:
    return hashlib.blake2b(data, digest_size=_DIGEST_SIZE).digest()


class ShelfDamaged(RuntimeError):
    """A source's pickle could not be read back whole (its cache file changed or broke while in use)."""


class SectionReader:
    """Reads stretches of a cache file's section of sources: from a descriptor of its own (``pread``,
    so that it shares no position with anyone, and a newer file renamed over this one changes nothing),
    or, for bytes (a graph shared through Redis) and streams without one, from a copy of the section."""

    def __init__(self, stream: BinaryIO, start: int, size: int) -> None:
        self._start = start
        self._view: memoryview | None = None
        self._fd: int | None = None
        try:
            fd = stream.fileno()
        except (AttributeError, OSError, io.UnsupportedOperation):
            # bytes (a graph shared through Redis), or a stream to copy the section from: only the section
            # is kept, not the graph's pickle after it
            stream.seek(start)
            self._view, self._start = memoryview(stream.read(size)), 0
            return
        self._fd = os.dup(fd)
        # closed with the last shelf that reads through it, however that is collected
        weakref.finalize(self, os.close, self._fd)

    def read(self, offset: int, length: int) -> bytes | memoryview:
        """``length`` bytes at ``offset`` into the section (fewer where the file was cut short)."""
        at = self._start + offset
        if self._view is not None:
            return self._view[at : at + length]
        assert self._fd is not None
        return os.pread(self._fd, length, at)


class Writable(Protocol):
    """Where a section is written: a file, or anything that writes bytes as one does."""

    def write(self, data: bytes, /) -> int:
        """Write ``data``; how many bytes were written."""


class SectionWriter:
    """Writes the sources' pickles one after another into a cache file's section (each dropped once
    written: a cold process never holds them all), and remembers where each lies and its checksum."""

    def __init__(self, out: Writable) -> None:
        self._out = out
        self.ids: list[str] = []
        self.offsets = array("Q")
        self.lengths = array("Q")
        self.digests = bytearray()
        self.size = 0

    def add(self, source_id: str, data: bytes) -> None:
        """Append one source's pickle."""
        self._out.write(data)
        self.ids.append(source_id)
        self.offsets.append(self.size)
        self.lengths.append(len(data))
        self.digests += _digest(data)
        self.size += len(data)

    def refs(self) -> SectionRefs:
        """Where each source lies, as the graph's pickle records it."""
        return SectionRefs(self.ids, self.offsets, self.lengths, bytes(self.digests))


class Spill:
    """Where a graph built batch by batch puts each batch's sources once its records hold what they need:
    an unnamed temporary file (gone with its last descriptor), read back as a cache file's section is."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile()  # noqa: SIM115  (handed to a reader; closed in refs)
        self.writer = SectionWriter(self._file)

    def refs(self) -> SectionRefs:
        """Where each spilled source lies, read through a descriptor of the file's own (this one is closed)."""
        self._file.flush()
        with reading(SectionReader(self._file, 0, self.writer.size)):
            refs = self.writer.refs()
        self._file.close()
        return refs


class SectionRefs:
    """Where each source's pickle lies in a cache file's section, and its checksum. Read back, it reads
    through the section reader the cache file's loader names while it unpickles (:func:`reading`)."""

    __slots__ = ("_at", "digests", "ids", "lengths", "offsets", "reader")

    def __init__(self, ids: list[str], offsets: array[int], lengths: array[int], digests: bytes) -> None:
        self.ids, self.offsets, self.lengths, self.digests = ids, offsets, lengths, digests
        self.reader = _READING.get()
        self._at: dict[str, int] | None = None  # source id -> its number, made on the first read

    def __reduce__(self) -> tuple[type[SectionRefs], tuple[object, ...]]:
        return SectionRefs, (self.ids, self.offsets, self.lengths, self.digests)

    def read(self, source_id: str) -> bytes | memoryview:
        """The pickle of ``source_id``, checked against its checksum."""
        if self._at is None:
            self._at = {sid: i for i, sid in enumerate(self.ids)}
        i = self._at[source_id]
        if self.reader is None:
            raise ShelfDamaged(f"source {source_id!r}: its graph was read back without its cache file")
        data = self.reader.read(self.offsets[i], self.lengths[i])
        if len(data) != self.lengths[i] or _digest(data) != self.digests[i * _DIGEST_SIZE : (i + 1) * _DIGEST_SIZE]:
            raise ShelfDamaged(f"source {source_id!r}: its declarations in the graph cache file fail their checksum "
                               "(the file changed or broke while in use); run the command again to rebuild it")
        return data


# While a cache file is written: the section its sources went to (the shelf pickles as where they lie).
_WRITTEN: ContextVar[tuple[SourceShelf, SectionRefs] | None] = ContextVar("schemarouter_shelf_written", default=None)
# While a cache file is read: where the sources of the shelf being unpickled lie.
_READING: ContextVar[SectionReader | None] = ContextVar("schemarouter_shelf_reading", default=None)


@contextlib.contextmanager
def written(shelf: SourceShelf, refs: SectionRefs) -> Iterator[None]:
    """Within the block, ``shelf`` pickles as ``refs`` (its sources already written to a section)."""
    token = _WRITTEN.set((shelf, refs))
    try:
        yield
    finally:
        _WRITTEN.reset(token)


@contextlib.contextmanager
def reading(reader: SectionReader) -> Iterator[None]:
    """Within the block, a shelf unpickled reads its sources through ``reader``."""
    token = _READING.set(reader)
    try:
        yield
    finally:
        _READING.reset(token)


class SourceShelf(Mapping[str, Source]):
    """Read-only ``{source id: Source}``: live models, or pickles unpickled (once) on first read."""

    __slots__ = ("_auths", "_endpoints", "_interned", "_live", "_lock", "_order", "_prose", "_stored")

    def __init__(self, sources: Mapping[str, Source] | None = None,
                 stored: dict[str, bytes] | SectionRefs | None = None,
                 prose: dict[str, tuple[str, str]] | None = None, auths: dict[str, Auth] | None = None) -> None:
        self._live: dict[str, Source] = dict(sources or {})
        # the sources not yet read: their pickles (pickled in-band) or where they lie in a cache file
        self._stored = stored if stored is not None else {}
        # the ids, in the order given
        self._order = (stored.ids if isinstance(stored, SectionRefs) else list(stored)) if stored else list(self._live)
        # every source's title and description, read of all sources at once (without unpickling them)
        self._prose = prose if prose is not None else {s.id: (s.title, s.description) for s in self._live.values()}
        # and how each source that needs a key is sent it (a run hides every key's value from what it shows)
        # (one object per distinct declaration: a provider's sources declare its key alike)
        self._auths = auths if auths is not None else one_per_value(
            {s.id: s.auth for s in self._live.values() if s.auth is not None})
        self._endpoints: dict[str, dict[str, tuple[Endpoint, dict[str, ResponseField]]]] = {}
        self._lock = threading.Lock()  # a server's threads may read the same source first at once
        self._interned: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # see intern

    def __getitem__(self, source_id: str) -> Source:
        found = self._live.get(source_id)
        if found is None:
            found = self._load(source_id)
        return found

    def __contains__(self, source_id: object) -> bool:
        # the Mapping default reads the value: it would unpickle a source to answer yes
        return source_id in self._prose  # every source's id, read or not

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)

    def __repr__(self) -> str:
        return f"SourceShelf({len(self)} sources, {self.loaded()} read)"

    def add(self, source: Source) -> None:
        """Add a live source (a graph being built adds its sources one by one)."""
        self._live[source.id] = source
        self._prose[source.id] = (source.title, source.description)
        if source.auth is not None:
            self._auths[source.id] = source.auth
        self._order.append(source.id)

    def spill(self, source_ids: Iterable[str], writer: SectionWriter) -> None:
        """Pickle these live sources into ``writer``'s section and drop them (:meth:`settle` reads them
        back from there): a graph built batch by batch keeps no batch's declarations live."""
        for source_id in source_ids:
            writer.add(source_id, pickle.dumps(self._live.pop(source_id), protocol=pickle.HIGHEST_PROTOCOL))

    def settle(self, order: Sequence[str], stored: SectionRefs | None = None) -> None:
        """Done adding: the sources in ``order`` (every id added, in the order a registry gives them), those
        spilled read back through ``stored``; one object per distinct auth declaration."""
        if len(order) != len(self._prose) or self._prose.keys() != set(order):
            raise ValueError("a shelf's order must name every source added, once")
        self._order = list(order)
        self._prose = {sid: self._prose[sid] for sid in order}
        self._auths = one_per_value({sid: self._auths[sid] for sid in order if sid in self._auths})
        if stored is not None:
            self._stored = stored

    def title(self, source_id: str) -> str:
        """A source's title, without reading the source."""
        return self._prose[source_id][0]

    def prose(self) -> Iterator[tuple[str, str]]:
        """Every source's (title, description), in the mapping's order, without reading a source."""
        prose = self._prose
        return (prose[sid] for sid in self._order)

    def auths(self) -> list[Auth]:
        """Every source's auth declaration (those that declare one), without reading a source."""
        return list(self._auths.values())

    def loaded(self) -> int:
        """How many sources are live models (all of a graph just built; those read so far of one read back)."""
        return len(self._live)

    def pickled(self, source_id: str) -> bytes:
        """The pickle of one source, as a cache file keeps it (a source never read is not unpickled for it)."""
        live = self._live.get(source_id)
        if live is not None:
            return pickle.dumps(live, protocol=pickle.HIGHEST_PROTOCOL)
        if source_id not in self._prose:
            raise KeyError(source_id)
        stored = self._stored
        return bytes(stored.read(source_id) if isinstance(stored, SectionRefs) else stored[source_id])

    def intern(self, values: tuple[Any, ...]) -> tuple[Any, ...]:
        """One tuple for equal ``values``: what the graph's records hold in common is pickled once and read
        back shared (the records pickle through their shelf)."""
        return self._interned.setdefault(values, values)

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
            if source_id not in self._prose:
                raise KeyError(source_id)
            stored = self._stored
            data = stored.read(source_id) if isinstance(stored, SectionRefs) else stored.pop(source_id)
            # its checksum held (or it came inside a checksummed payload); its classes are still only a graph's
            loaded: Source = GraphUnpickler(io.BytesIO(data)).load()
            self._live[source_id] = loaded
            return loaded

    def __reduce__(self) -> tuple[Any, ...]:
        written_now = _WRITTEN.get()
        if written_now is not None and written_now[0] is self:
            return SourceShelf, (None, written_now[1], self._prose, self._auths)
        # pickled whole (not into a cache file's section): each source a pickle of its own, in order
        return SourceShelf, (None, {sid: self.pickled(sid) for sid in self}, self._prose, self._auths)


class ConceptShelf(Mapping[str, DomainConcept]):
    """Read-only ``{concept name: DomainConcept}`` whose models, read back from a cache file, stay one
    pickle until a value is first asked for. A graph needs its concepts' names at every question (is
    this a concept?) but their declarations only where it builds its typed nodes or exports: at
    100,000 sources, 134,000 models."""

    __slots__ = ("_live", "_lock", "_names", "_pickled")

    def __init__(self, concepts: Mapping[str, DomainConcept] | None = None, names: list[str] | None = None,
                 pickled: bytes | None = None) -> None:
        self._live: dict[str, DomainConcept] | None = dict(concepts) if concepts is not None else None
        # the names, in order, as a dict: membership in one lookup
        self._names: dict[str, None] = dict.fromkeys(self._live if self._live is not None else names or [])
        self._pickled = pickled
        self._lock = threading.Lock()

    def put_away(self) -> None:
        """Keep the concepts as one pickle until one is asked for, as a graph read back from its cache file
        does (a graph built batch by batch, once the vocabulary is indexed)."""
        with self._lock:
            if self._live is not None:
                self._pickled = pickle.dumps(self._live, protocol=pickle.HIGHEST_PROTOCOL)
                self._live = None

    def _models(self) -> dict[str, DomainConcept]:
        live = self._live
        if live is None:
            with self._lock:
                if self._live is None:
                    # the payload this came in was checksummed whole; its classes are still only a graph's
                    self._live = GraphUnpickler(io.BytesIO(self._pickled or b"")).load()
                    self._pickled = None
                live = self._live
        assert live is not None
        return live

    def __getitem__(self, name: str) -> DomainConcept:
        return self._models()[name]

    def __contains__(self, name: object) -> bool:
        # the Mapping default reads the value: it would unpickle every concept to answer yes
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __repr__(self) -> str:
        return f"ConceptShelf({len(self)} concepts, {self.loaded()} read)"

    def loaded(self) -> int:
        """How many concepts are live models: all or none (they are pickled together)."""
        return len(self._names) if self._live is not None else 0

    def __reduce__(self) -> tuple[Any, ...]:
        pickled = self._pickled if self._live is None else pickle.dumps(self._live, protocol=pickle.HIGHEST_PROTOCOL)
        return ConceptShelf, (None, list(self._names), pickled)
