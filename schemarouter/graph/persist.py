"""The built graph kept on disk by registry fingerprint, so a new process loads it instead of rebuilding.

Loading the registry and building the graph costs seconds at 10,000 sources and about a minute at
100,000; every CLI call and every server start paid it again. The graph is a pure function of the
declarations (and of the code that builds it), so one built graph serves every later process until
the registry or the code changes.

A cache file is never trusted: it is used only when its header names the registry's current
fingerprint and this code's build key, its payload has the recorded length and checksum, and the
payload unpickles with nothing but the classes a graph is made of (:mod:`schemarouter.graph.unpickling`;
each source's own pickle too, when a question first reads that source). A torn, truncated, corrupted,
stale or foreign file fails one of those checks, is ignored and is replaced by a fresh build.
Writes go to a temporary file renamed over the old one, so a reader sees a whole file or none.

``pickle`` (standard library) is the format: the graph is a web of shared objects (models,
interned strings, indexes) that pickle keeps shared; a schema-based format would mean a second
description of every index class to keep in step with the code.

A file is the magic line, a header line padded to a fixed width (filled in once the rest is written),
then the payload: a section of the sources' own pickles, read one at a time when a question first
reaches a source (:mod:`schemarouter.graph.shelf`), then the pickled graph.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import io
import json
import logging
import os
import pickle
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from schemarouter.gcpause import gc_paused
from schemarouter.graph.build import SchemaGraph
from schemarouter.graph.shelf import SectionReader, SectionWriter, SourceShelf, reading, written
from schemarouter.graph.unpickling import GraphUnpickler, UnpicklingRefused

log = logging.getLogger(__name__)

MAGIC = b"schemarouter-graph\n"
# 2: the payload's checksum is BLAKE2b (half the time of SHA-256 over a file of hundreds of MB);
# 3: the header line is padded to HEADER_WIDTH, so a file is written in one pass (:func:`write_streamed`);
# 5: the payload opens with a section of the sources' own pickles, each read on first use (graph.shelf)
FORMAT = 5
HEADER_WIDTH = 512  # bytes of the header line before its newline (the JSON is about 300)
DIGEST = "blake2b"  # the header key of the payload's checksum
# How many cache files of server registries (Postgres) are kept: one per registry URL, the oldest go.
KEEP_FILES = 8
_HEADER_LIMIT = 4096  # a header line is about 300 bytes; anything longer is not ours


class CacheRejected(Exception):
    """Why a cache file was not used (logged at debug level; the graph is rebuilt)."""


_BUILD_KEY: str | None = None
_BUILD_KEY_LOCK = threading.Lock()


def build_key() -> str:
    """A digest of the code a graph depends on: the Python version and every module of this package.

    Pickled objects are rebuilt by the classes of the loading process, and a graph built by other
    code may differ even over the same declarations; either makes an old file stale."""
    global _BUILD_KEY
    with _BUILD_KEY_LOCK:
        if _BUILD_KEY is None:
            package = Path(__file__).resolve().parents[1]
            h = hashlib.sha256(f"{FORMAT}|{sys.version}|{pickle.HIGHEST_PROTOCOL}".encode())
            for path in sorted(package.rglob("*.py")):
                h.update(str(path.relative_to(package)).encode())
                h.update(path.read_bytes())
            _BUILD_KEY = h.hexdigest()[:32]
        return _BUILD_KEY


def encode(graph: SchemaGraph) -> bytes:
    """A cache file's bytes: the magic line, a JSON header line (fingerprint, build key, the sources'
    section's size, the payload's size and checksum), then the payload: the sources' section (each
    source's pickle, :mod:`schemarouter.graph.shelf`) and the pickled graph."""
    if graph.fingerprint is None:
        raise ValueError("a graph without a registry fingerprint cannot be cached")
    out = io.BytesIO()
    _fill(out, graph, graph.fingerprint)
    return out.getvalue()


def _header_line(fingerprint: str, sources: int, size: int, digest: str) -> bytes:
    header = {"format": FORMAT, "fingerprint": fingerprint, "build": build_key(), "sources": sources,
              "size": size, DIGEST: digest}
    line = json.dumps(header, sort_keys=True).encode("ascii")
    if len(line) > HEADER_WIDTH:  # a fingerprint of another shape: never write over the payload
        raise ValueError(f"a graph cache header of {len(line)} bytes is over {HEADER_WIDTH}")
    return line.ljust(HEADER_WIDTH) + b"\n"


class _HashingWriter:
    """A file the payload is written to that sums what passes (the header's size and checksum)."""

    def __init__(self, file: BinaryIO) -> None:
        self.file = file
        self.digest = _digest()
        self.size = 0

    def write(self, data: bytes) -> int:
        self.digest.update(data)
        self.size += len(data)
        return self.file.write(data)


def _fill(fh: BinaryIO, graph: SchemaGraph, fingerprint: str) -> None:
    """Write a whole cache file into ``fh`` in one pass: the header's place is kept and filled in once the
    payload's size and checksum are known. Each source is pickled, written and dropped in turn, then the
    graph is pickled straight after them with its shelf recording where each lies: neither the payload
    nor the sources' pickles are ever held whole (hundreds of MB at 100,000 sources)."""
    fh.write(MAGIC + b" " * HEADER_WIDTH + b"\n")
    sink = _HashingWriter(fh)
    shelf = graph.decls.sources
    # The pickler keeps every object it wrote alive to the end (millions at 100,000 sources): each pass
    # of the cyclic collector would walk all of them again and find nothing. Pickling makes no cycles.
    with gc_paused():
        section = 0
        pickling: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
        if isinstance(shelf, SourceShelf):
            writer = SectionWriter(sink)
            for source_id in shelf:
                writer.add(source_id, shelf.pickled(source_id))
            section, pickling = writer.size, written(shelf, writer.refs())
        with pickling:
            pickle.Pickler(sink, protocol=pickle.HIGHEST_PROTOCOL).dump(graph)
    fh.seek(len(MAGIC))
    fh.write(_header_line(fingerprint, section, sink.size, sink.digest.hexdigest()))


def write_streamed(path: Path, graph: SchemaGraph) -> bool:
    """Store ``graph`` at ``path`` as :func:`write` does, written straight into the file (:func:`_fill`)."""
    if graph.fingerprint is None:
        return False
    fingerprint = graph.fingerprint
    return _replace_atomically(path, lambda fh: _fill(fh, graph, fingerprint))


def _replace_atomically(path: Path, fill: Callable[[BinaryIO], object]) -> bool:
    """Write a temporary file beside ``path`` with ``fill`` and rename it over ``path``, so a reader
    sees a whole file or none; False (and nothing changed) when it cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fill(fh)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except (OSError, ValueError, pickle.PicklingError) as err:
        log.debug("graph cache %s not written: %s", path, err)
        return False
    return True


def _digest() -> Any:
    # BLAKE2b, not SHA-256: the checksum guards against torn and altered files, not an adversary who
    # can write the cache directory (the unpickler refuses foreign classes for that), and it reads
    # 400 MB at 100,000 sources in half the time
    return hashlib.blake2b(digest_size=32)


def payload_digest(payload: bytes) -> str:
    """The checksum a cache file's header gives for its payload."""
    digest = _digest()
    digest.update(payload)
    return str(digest.hexdigest())


def decode(data: bytes, fingerprint: str) -> SchemaGraph:
    """The graph in ``data`` when it is whole, current and built by this code; else CacheRejected."""
    return load(io.BytesIO(data), fingerprint)


def load(stream: BinaryIO, fingerprint: str) -> SchemaGraph:
    """The graph in a cache file opened at its start, checked as :func:`decode` checks it. The payload is
    checksummed in chunks by a second thread while this one unpickles it (hashing releases the GIL: at
    100,000 sources it is 0.7 s of a warm start that no longer waits for it), and the graph is returned
    only once its bytes proved whole; the file's bytes are never held whole."""
    head = stream.read(len(MAGIC) + _HEADER_LIMIT)
    if not head.startswith(MAGIC):
        raise CacheRejected("not a graph cache file")
    end = head.find(b"\n", len(MAGIC))
    if end < 0:
        raise CacheRejected("no header line")
    try:
        header = json.loads(head[len(MAGIC):end])
    except ValueError:
        raise CacheRejected("unreadable header") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise CacheRejected("another cache format")
    if header.get("fingerprint") != fingerprint:
        raise CacheRejected("stale: built for another registry state")
    if header.get("build") != build_key():
        raise CacheRejected("stale: built by other code")
    sources = header.get("sources")
    if not isinstance(sources, int) or not 0 <= sources <= header.get("size", -1):
        raise CacheRejected("no sources' section in the header")
    start = end + 1
    checksum = _Checksum(stream, start)  # the whole payload: the sources' section and the graph
    section = SectionReader(stream, start, sources)
    stream.seek(start + sources)
    # unpickling makes millions of long-lived objects and no garbage (as building does)
    with gc_paused():
        failure: CacheRejected | None = None
        graph: Any = None
        try:
            with reading(section):  # the shelf in the graph reads its sources from there
                graph = GraphUnpickler(stream).load()
        except UnpicklingRefused as why:
            failure = CacheRejected(str(why))
        except Exception as err:  # a corrupt payload fails in many ways; each one only means "rebuild"
            failure = CacheRejected(f"unpickling failed: {type(err).__name__}")
        # a damaged payload is named as such even where it also failed to unpickle
        size, digest = checksum.result()
        if size != header.get("size"):
            raise CacheRejected(f"truncated or padded: {size} bytes, header says {header.get('size')}")
        if digest != header.get(DIGEST):
            raise CacheRejected("checksum mismatch")
        if failure is not None:
            raise failure
        if not isinstance(graph, SchemaGraph) or graph.fingerprint != fingerprint:
            raise CacheRejected("the payload is not the graph the header names")
        # as after a build: the graph lives as long as the process and holds no garbage. Frozen before
        # the collector is back (its first pass would otherwise walk every object just read), and only
        # once it proved whole: a rejected graph must stay collectable
        gc.freeze()
    return graph


class _Checksum:
    """Size and checksum of a stream's bytes from ``start`` on, worked out by a thread of its own from a
    reader of its own (``os.pread`` on a file's descriptor, a view of an in-memory buffer), so that the
    stream's position stays the unpickler's; in the caller's thread where the stream offers neither."""

    _CHUNK = 8 << 20  # large: between chunks the thread waits for the GIL, up to a switch interval

    def __init__(self, stream: BinaryIO, start: int) -> None:
        self._size, self._digest = 0, _digest()
        self._failed: OSError | None = None
        self._thread: threading.Thread | None = None
        read = self._reader(stream, start)
        if read is None:  # hashed here and now, before the unpickler reads
            stream.seek(start)
            while chunk := stream.read(self._CHUNK):
                self._add(chunk)
        else:
            self._thread = threading.Thread(target=self._run, args=(read,), name="graph-cache-checksum", daemon=True)
            self._thread.start()

    def _reader(self, stream: BinaryIO, start: int) -> Callable[[int], bytes | memoryview] | None:
        if isinstance(stream, io.BytesIO):
            view = stream.getbuffer()[start:]
            return lambda offset: view[offset : offset + self._CHUNK]
        try:
            fd = stream.fileno()
        except (AttributeError, OSError, io.UnsupportedOperation):
            return None
        return lambda offset: os.pread(fd, self._CHUNK, start + offset)

    def _run(self, read: Callable[[int], bytes | memoryview]) -> None:
        try:
            while chunk := read(self._size):
                self._add(chunk)
        except OSError as err:
            self._failed = err

    def _add(self, chunk: bytes | memoryview) -> None:
        self._digest.update(chunk)
        self._size += len(chunk)

    def result(self) -> tuple[int, str]:
        """(bytes read, hex checksum), once the thread is done; CacheRejected where reading failed."""
        if self._thread is not None:
            self._thread.join()
        if self._failed is not None:
            raise CacheRejected(f"unreadable: {self._failed}")
        return self._size, str(self._digest.hexdigest())


def read(path: Path, fingerprint: str) -> SchemaGraph | None:
    """The graph cached at ``path`` for ``fingerprint``, or None (missing or rejected: rebuild)."""
    try:
        # an open file keeps the version it opened: a writer renaming a new file over it changes nothing here
        with path.open("rb") as stream:
            return load(stream, fingerprint)
    except FileNotFoundError:
        return None
    except OSError as err:
        log.debug("graph cache %s unreadable: %s", path, err)
        return None
    except CacheRejected as why:
        log.info("graph cache %s ignored (%s); rebuilding", path, why)
        return None


def write(path: Path, graph: SchemaGraph, data: bytes | None = None) -> bool:
    """Store ``graph`` at ``path`` atomically: its already ``encode``d bytes where given (fetched from
    Redis, or encoded for it), else pickled straight into the file (:func:`write_streamed`); False (and
    nothing changed) when the directory is not writable."""
    if data is None:
        return write_streamed(path, graph)
    return _replace_atomically(path, lambda fh: fh.write(data))


def prune(directory: Path, keep: int = KEEP_FILES) -> None:
    """Keep the ``keep`` most recently written cache files in a directory of them (one per registry URL)."""
    try:
        files = sorted(directory.glob("*.graph"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    for old in files[keep:]:
        with contextlib.suppress(OSError):
            old.unlink()


__all__ = ["CacheRejected", "build_key", "decode", "encode", "prune", "read", "write", "write_streamed"]
