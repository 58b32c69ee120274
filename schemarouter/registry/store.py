"""The registry: declarations of every installed source, stored in SQL.

One class, :class:`Registry`, is the whole public surface. Every write runs in one
transaction under a write lock (``pg_advisory_xact_lock`` on Postgres, ``BEGIN IMMEDIATE`` on
SQLite), so a failed or concurrent sync leaves the registry as some sync left it, never half
written. Every read runs in one transaction too (``REPEATABLE READ`` on Postgres; SQLite's
read transaction holds one snapshot), so a reader sees the whole registry as one commit left
it, and :meth:`Registry.load` returns the fingerprint of exactly the content it read.
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from sqlalchemy import Connection, Engine, delete, func, select, text, update

from schemarouter.declarations import Declarations, Owner, coerce, describe_validation_error, validate
from schemarouter.errors import DeclarationError, ImportFileError, RegistryError, clip
from schemarouter.gcpause import gc_paused
from schemarouter.models import DomainConcept, FieldGroup, Intent, Source
from schemarouter.registry.batches import SourceBatches, batch_size
from schemarouter.registry.database import META_TABLE, make_engine, translate_db_errors
from schemarouter.registry.fingerprint import (
    registry_fingerprint,
    source_and_endpoint_fingerprints,
    source_fingerprint,
    vocabulary_fingerprint,
)
from schemarouter.registry.migrations import ensure_schema
from schemarouter.safeload import UnsafeDocumentError, load_json
from schemarouter.sources.local import LocalSource, check_adapter_specs
from schemarouter.sources.spec import AdapterSpec


class _Mapping:
    """The table mapping module, imported on first use (Python's import lock makes that once, whichever
    thread comes first)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(importlib.import_module("schemarouter.registry.mapping"), name)


# The table mapping (and the ORM it is declared with, a tenth of a second to import) is loaded by the
# first read or write of rows: a command that only checks the fingerprint of an unchanged registry
# (a warm ``plan``, whose graph comes from its cache file) never loads it.
if TYPE_CHECKING:
    from schemarouter.registry import mapping as m
else:
    m = _Mapping()

EXPORT_FORMAT = "schemarouter-registry"
EXPORT_VERSION = 1
# Arbitrary constant shared by every schemarouter process: the key of the sync lock.
_ADVISORY_LOCK_KEY = 7_362_081_442
# Postgres channel every registry write notifies (delivered at commit); running servers listen on it.
NOTIFY_CHANNEL = "schemarouter_registry"


@dataclass
class SyncReport:
    """What a sync or import changed."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    reowned: list[str] = field(default_factory=list)
    vocabulary_changed: bool = False
    fingerprint: str | None = None

    @property
    def changed(self) -> bool:
        """Whether the sync added, updated, removed or re-owned a source, or changed the vocabulary."""
        return bool(self.added or self.updated or self.removed or self.reowned or self.vocabulary_changed)

    def summary(self) -> str:
        """A one-line account for people: sources per outcome, other changes, and the fingerprint."""
        if not self.changed:
            return f"registry unchanged ({len(self.unchanged)} sources, fingerprint {self.fingerprint})"
        parts = [f"{len(getattr(self, name))} {name}" for name in ("added", "updated", "removed", "unchanged")]
        if self.reowned:
            parts.append(f"{len(self.reowned)} with a new plugin version")
        if self.vocabulary_changed:
            parts.append("vocabulary updated")
        return f"registry synced: {', '.join(parts)} (fingerprint {self.fingerprint})"

    def as_dict(self) -> dict[str, Any]:
        """The report as a JSON-ready dict, including the derived ``changed`` flag."""
        return {
            "changed": self.changed, "added": self.added, "updated": self.updated, "removed": self.removed,
            "unchanged": self.unchanged, "reowned": self.reowned,
            "vocabulary_changed": self.vocabulary_changed, "fingerprint": self.fingerprint,
        }


@dataclass(frozen=True)
class LocalItem:
    """One local source to store with :meth:`Registry.add_locals`: the source, where it came from, its specs."""

    source: Source
    label: str
    adapter_specs: Mapping[str, Mapping[str, Any]] | None = None


@dataclass(frozen=True)
class LocalOutcome:
    """What :meth:`Registry.add_locals` did with one source: added, updated, unchanged or failed (why)."""

    source_id: str
    label: str
    status: str
    error: str | None = None


@dataclass
class LocalBatch:
    """Every source's outcome, in the order given, and the registry fingerprint afterwards."""

    outcomes: list[LocalOutcome]
    fingerprint: str | None


class Registry:
    """Read and write the registry database at one URL."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @classmethod
    def open(cls, url: str | None = None) -> Registry:
        """Open (creating or upgrading per the migration policy) the registry at ``url``."""
        engine = make_engine(url)
        with translate_db_errors(engine):
            ensure_schema(engine)
        return cls(engine)

    def close(self) -> None:
        """Release the engine's pooled database connections."""
        self.engine.dispose()

    def __enter__(self) -> Registry:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ---------------------------------------------------------------- transactions
    @contextmanager
    def _read(self) -> Iterator[Connection]:
        """One read-only transaction: every statement in it sees the same committed state."""
        with translate_db_errors(self.engine), self.engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                # READ COMMITTED (the default) takes a new snapshot per statement: a sync committing
                # between two SELECTs would hand the reader half of each registry.
                conn = conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
            with conn.begin():
                yield conn

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        with translate_db_errors(self.engine), self.engine.connect() as conn:
            conn = conn.execution_options(sqlite_begin="IMMEDIATE")
            with conn.begin():
                if conn.dialect.name == "postgresql":
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _ADVISORY_LOCK_KEY})
                yield conn

    # ---------------------------------------------------------------- reads
    def meta(self) -> dict[str, str]:
        """The ``registry_meta`` key/value pairs: format version, fingerprints and last sync time."""
        with self._read() as conn:
            return {str(k): str(v) for k, v in conn.execute(text(f"SELECT key, value FROM {META_TABLE}")).all()}

    def fingerprint(self) -> str | None:
        """The registry fingerprint recorded by the last write, or None if nothing was written yet."""
        return self.meta().get("fingerprint")

    def load(self) -> Declarations:
        """Every declaration in the registry, as models, and their fingerprint: one snapshot."""
        decls = Declarations()
        with self._read() as conn:
            m.read_vocabulary(conn, decls)
            m.read_sources(conn, decls)
            decls.adapter_specs = m.read_adapter_specs(conn)
            decls.fingerprint = self._meta_fp(conn)
        return decls

    @contextmanager
    def batches(self, size: int | None = None) -> Iterator[SourceBatches]:
        """Every declaration in the registry as :meth:`load` gives them, one snapshot, but the sources read
        ``size`` (default :func:`batch_size`) at a time as the result is iterated (in id order): a graph built from them drops each
        batch's declarations before the next is read (:func:`schemarouter.graph.build_graph_in_batches`),
        so a cold start never holds every declaration of a large registry at once. The batches must be
        read inside the block (the read transaction that keeps them one snapshot closes with it)."""
        header = Declarations()
        started = time.perf_counter()
        with self._read() as conn:
            m.read_vocabulary(conn, header)
            header.adapter_specs = m.read_adapter_specs(conn)
            header.fingerprint = self._meta_fp(conn)

            def read(ids: Sequence[str] | None) -> Declarations:
                batch = Declarations()
                m.read_sources(conn, batch, among=ids)
                return batch

            order = m.source_ids(conn)
            yield SourceBatches(header, order, read, size or batch_size(), read_s=time.perf_counter() - started)

    def source(self, source_id: str) -> tuple[Source, Owner]:
        """One source and its owner by id; an unknown id raises RegistryError suggesting the closest id."""
        decls = Declarations()
        with self._read() as conn:
            m.read_sources(conn, decls, only=source_id)
            if source_id not in decls.sources:
                known = [row[0] for row in conn.execute(select(m.T_SOURCES.c.id).order_by(m.T_SOURCES.c.id))]
                import difflib

                close = difflib.get_close_matches(source_id, known, n=1) if len(source_id) <= 200 else []
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise RegistryError(f"no source {clip(source_id)!r} in the registry{hint}")
        return decls.sources[source_id], decls.owners[source_id]

    def adapter_specs(self, source_id: str) -> dict[str, dict[str, Any]]:
        """A local source's stored adapter specs, endpoint id -> spec (empty for plugin sources)."""
        with self._read() as conn:
            return m.read_adapter_specs(conn, only=source_id).get(source_id, {})

    def list_sources(self) -> list[dict[str, Any]]:
        """One summary per source, by id: title, domain, type, endpoint and field counts, and owner."""
        s, e, f = m.T_SOURCES, m.T_ENDPOINTS, m.T_FIELDS
        with self._read() as conn:
            endpoint_counts: dict[str, int] = dict(
                conn.execute(select(e.c.source_id, func.count()).group_by(e.c.source_id)).all()
            )
            field_counts: dict[str, int] = dict(
                conn.execute(
                    select(e.c.source_id, func.count()).select_from(f.join(e, f.c.endpoint_pk == e.c.pk))
                    .group_by(e.c.source_id)
                ).all()
            )
            rows = conn.execute(select(s).order_by(s.c.id)).all()
        return [
            {"id": r.id, "title": r.title, "domain": r.domain, "source_type": r.source_type,
             "endpoints": endpoint_counts.get(r.id, 0), "fields": field_counts.get(r.id, 0),
             "owner": {"kind": r.owner_kind, "name": r.owner_name, "version": r.owner_version}}
            for r in rows
        ]

    def stats(self) -> dict[str, Any]:
        """Row counts per table, field counts by effective source type, the fingerprint and last sync time."""
        tables = {
            "sources": m.T_SOURCES, "endpoints": m.T_ENDPOINTS, "parameters": m.T_PARAMETERS,
            "fields": m.T_FIELDS, "intents": m.T_INTENTS, "field_groups": m.T_FIELD_GROUPS,
            "concepts": m.T_CONCEPTS, "licenses": m.T_LICENSES, "source_aliases": m.T_SOURCE_ALIASES,
            "concept_aliases": m.T_CONCEPT_ALIASES, "field_aliases": m.T_FIELD_ALIASES,
        }
        s, e, f = m.T_SOURCES, m.T_ENDPOINTS, m.T_FIELDS
        with self._read() as conn:
            counts = {name: conn.execute(select(func.count()).select_from(t)).scalar_one() for name, t in tables.items()}
            effective = func.coalesce(f.c.source_type, s.c.source_type)
            by_type: dict[str, int] = dict(
                conn.execute(
                    select(effective, func.count())
                    .select_from(f.join(e, f.c.endpoint_pk == e.c.pk).join(s, e.c.source_id == s.c.id))
                    .group_by(effective)
                ).all()
            )
            meta = dict(conn.execute(select(m.T_META.c.key, m.T_META.c.value)).all())
        return {
            "counts": counts,
            "fields_by_source_type": dict(sorted(by_type.items())),
            "fingerprint": meta.get("fingerprint"),
            "synced_at": meta.get("synced_at"),
        }

    # ---------------------------------------------------------------- writes
    def sync(self, decls: Declarations, progress: Callable[[int], None] | None = None) -> SyncReport:
        """Make the plugin-owned part of the registry equal ``decls``; keep local sources.

        ``progress(n)`` is called as sources are written (for a progress bar on large registries)."""
        with self._write() as conn, gc_paused():  # a million rows at 100,000 sources, no cycles
            current = {
                row.id: (row.fingerprint, Owner(row.owner_kind, row.owner_name, row.owner_version))
                for row in conn.execute(
                    select(m.T_SOURCES.c.id, m.T_SOURCES.c.fingerprint, m.T_SOURCES.c.owner_kind,
                           m.T_SOURCES.c.owner_name, m.T_SOURCES.c.owner_version)
                )
            }
            local = {sid for sid, (_, owner) in current.items() if owner.kind == "local"}
            for sid in sorted(set(decls.sources) & local):
                raise DeclarationError(
                    decls.owners[sid].label, f"source {sid!r}",
                    f"a local source with this id is in the registry; remove it first: schemarouter source remove {sid}",
                )
            meta = dict(conn.execute(select(m.T_META.c.key, m.T_META.c.value)).all())
            vocab_fp = vocabulary_fingerprint(decls.intents.values(), decls.field_groups.values(), decls.concepts.values())
            report = SyncReport(vocabulary_changed=meta.get("vocabulary_fingerprint") != vocab_fp)
            both = {sid: source_and_endpoint_fingerprints(src) for sid, src in decls.sources.items()}
            wanted = {sid: fps[0] for sid, fps in both.items()}
            for sid in sorted(wanted):
                if sid not in current:
                    report.added.append(sid)
                elif current[sid][0] != wanted[sid]:
                    report.updated.append(sid)
                elif current[sid][1] != decls.owners[sid]:
                    report.reowned.append(sid)
                else:
                    report.unchanged.append(sid)
            report.removed = sorted(sid for sid in current if sid not in wanted and sid not in local)
            if not report.changed:
                report.fingerprint = meta.get("fingerprint")
                return report
            if report.vocabulary_changed:
                merged = Declarations(
                    sources=dict(decls.sources), owners=dict(decls.owners), intents=decls.intents,
                    field_groups=decls.field_groups, concepts=decls.concepts,
                )
                kept = Declarations()
                m.read_sources(conn, kept)
                kept_specs = m.read_adapter_specs(conn)
                for sid in local:
                    merged.sources[sid] = kept.sources[sid]
                    merged.owners[sid] = kept.owners[sid]
                    if sid in kept_specs:
                        merged.adapter_specs[sid] = kept_specs[sid]
                validate(merged)
                _delete_all(conn)
                writer = m.RowWriter(conn)
                writer.vocabulary(merged)
                for sid in sorted(merged.sources):
                    specs = merged.adapter_specs.get(sid)
                    fingerprint, endpoints = (None, None) if specs else both.get(sid, (None, None))
                    writer.source(merged.sources[sid], merged.owners[sid], specs, fingerprint, endpoints)
                    if progress is not None:
                        progress(1)
                writer.flush()
            else:
                stale = report.removed + report.updated
                if stale:
                    conn.execute(delete(m.T_SOURCES).where(m.T_SOURCES.c.id.in_(stale)))
                writer = m.RowWriter(conn)
                for sid in report.added + report.updated:
                    fingerprint, endpoints = both[sid]
                    writer.source(decls.sources[sid], decls.owners[sid], fingerprint=fingerprint,
                                  endpoint_fingerprints=endpoints)
                    if progress is not None:
                        progress(1)
                writer.flush()
                for sid in report.reowned:
                    owner = decls.owners[sid]
                    conn.execute(
                        update(m.T_SOURCES).where(m.T_SOURCES.c.id == sid)
                        .values(owner_kind=owner.kind, owner_name=owner.name, owner_version=owner.version)
                    )
            report.fingerprint = _finish_write(conn, vocab_fp)
            return report

    def replace(self, decls: Declarations, progress: Callable[[int], None] | None = None) -> SyncReport:
        """Replace the whole registry (``import``): vocabulary, plugin and local sources (``progress`` as in sync)."""
        validate(decls)
        with self._write() as conn, gc_paused():
            before = {row[0] for row in conn.execute(select(m.T_SOURCES.c.id))}
            _delete_all(conn)
            writer = m.RowWriter(conn)
            writer.vocabulary(decls)
            for sid in sorted(decls.sources):
                writer.source(decls.sources[sid], decls.owners[sid], decls.adapter_specs.get(sid))
                if progress is not None:
                    progress(1)
            writer.flush()
            vocab_fp = vocabulary_fingerprint(decls.intents.values(), decls.field_groups.values(), decls.concepts.values())
            fp = _finish_write(conn, vocab_fp)
        return SyncReport(
            added=sorted(set(decls.sources) - before), updated=sorted(set(decls.sources) & before),
            removed=sorted(before - set(decls.sources)), vocabulary_changed=True, fingerprint=fp,
        )

    def add_local(
        self, source: Source, label: str, adapter_specs: Mapping[str, Mapping[str, Any]] | None = None
    ) -> SyncReport:
        """Store a user's own source; ``registry sync`` keeps it.

        ``adapter_specs`` (endpoint id -> JSON object, validated by the caller) are the execution
        facts a plugin would keep in code; they are stored beside the endpoints.
        """
        specs = {eid: dict(spec) for eid, spec in (adapter_specs or {}).items()}
        unknown = sorted(set(specs) - {e.id for e in source.endpoints})
        if unknown:
            raise DeclarationError(
                f"local source file {label}", f"source {source.id!r}",
                f"adapter spec for unknown endpoint {unknown[0]!r}",
            )
        with self._write() as conn:
            decls = Declarations()
            m.read_vocabulary(conn, decls)
            row = conn.execute(
                select(m.T_SOURCES.c.owner_kind, m.T_SOURCES.c.owner_name, m.T_SOURCES.c.fingerprint)
                .where(m.T_SOURCES.c.id == source.id)
            ).first()
            if row is not None and row.owner_kind != "local":
                raise RegistryError(
                    f"source id {source.id!r} belongs to plugin {row.owner_name}; choose another id"
                )
            owner = Owner("local", label, "local")
            decls.sources[source.id] = source
            decls.owners[source.id] = owner
            validate(decls)
            if row is not None and row.fingerprint == source_fingerprint(source, specs) and row.owner_name == label:
                return SyncReport(unchanged=[source.id], fingerprint=self._meta_fp(conn))
            conn.execute(delete(m.T_SOURCES).where(m.T_SOURCES.c.id == source.id))
            writer = m.RowWriter(conn)
            writer.source(source, owner, specs)
            writer.flush()
            vocab_fp = vocabulary_fingerprint(decls.intents.values(), decls.field_groups.values(), decls.concepts.values())
            fp = _finish_write(conn, vocab_fp)
        return SyncReport(added=[] if row else [source.id], updated=[source.id] if row else [], fingerprint=fp)

    def add_locals(self, items: Sequence[LocalItem], all_or_nothing: bool = False, dry_run: bool = False) -> LocalBatch:
        """Store many local sources in one transaction (a catalogue of OpenAPI documents).

        Each is checked as :meth:`add_local` checks one; one that fails is reported in its outcome and
        the others are written, or, with ``all_or_nothing``, its error is raised and nothing is written.
        ``dry_run`` makes every check and reports the outcomes, writing nothing.
        """
        outcomes: list[LocalOutcome] = []
        with self._write() as conn:
            vocab = Declarations()
            m.read_vocabulary(conn, vocab)
            stored = {
                row.id: row for row in conn.execute(
                    select(m.T_SOURCES.c.id, m.T_SOURCES.c.owner_kind, m.T_SOURCES.c.owner_name,
                           m.T_SOURCES.c.fingerprint)
                )
            }
            writer = m.RowWriter(conn)
            replaced: list[str] = []
            given: dict[str, str] = {}  # source id -> the label that claimed it in this batch
            for item in items:
                source, label = item.source, item.label
                specs = {eid: dict(spec) for eid, spec in (item.adapter_specs or {}).items()}
                row = stored.get(source.id)
                try:
                    unknown = sorted(set(specs) - {e.id for e in source.endpoints})
                    if unknown:
                        raise DeclarationError(f"local source file {label}", f"source {source.id!r}",
                                               f"adapter spec for unknown endpoint {unknown[0]!r}")
                    if source.id in given:
                        raise RegistryError(f"{label}: source id {source.id!r} is already taken by {given[source.id]} "
                                            f"in this import; give one of them another id")
                    if row is not None and row.owner_kind != "local":
                        raise RegistryError(
                            f"{label}: source id {source.id!r} belongs to plugin {row.owner_name}; choose another id"
                        )
                    owner = Owner("local", label, "local")
                    validate(Declarations(
                        intents=vocab.intents, field_groups=vocab.field_groups, concepts=vocab.concepts,
                        sources={source.id: source}, owners={source.id: owner},
                    ))
                except (DeclarationError, RegistryError) as err:
                    if all_or_nothing:
                        raise
                    outcomes.append(LocalOutcome(source.id, label, "failed", str(err)))
                    continue
                given[source.id] = label
                if row is not None and row.fingerprint == source_fingerprint(source, specs) and row.owner_name == label:
                    outcomes.append(LocalOutcome(source.id, label, "unchanged"))
                    continue
                if row is not None:
                    replaced.append(source.id)
                writer.source(source, owner, specs)
                outcomes.append(LocalOutcome(source.id, label, "updated" if row is not None else "added"))
            if dry_run or not any(o.status in ("added", "updated") for o in outcomes):
                return LocalBatch(outcomes, self._meta_fp(conn))
            for start in range(0, len(replaced), 500):  # bounded IN lists (SQLite caps bound variables)
                conn.execute(delete(m.T_SOURCES).where(m.T_SOURCES.c.id.in_(replaced[start:start + 500])))
            writer.flush()
            vocab_fp = vocabulary_fingerprint(vocab.intents.values(), vocab.field_groups.values(), vocab.concepts.values())
            return LocalBatch(outcomes, _finish_write(conn, vocab_fp))

    def remove_local(self, source_id: str) -> SyncReport:
        """Delete a local source (a plugin's must be uninstalled instead) and record the new fingerprint."""
        with self._write() as conn:
            row = conn.execute(
                select(m.T_SOURCES.c.owner_kind, m.T_SOURCES.c.owner_name).where(m.T_SOURCES.c.id == source_id)
            ).first()
            if row is None:
                raise RegistryError(f"no source {clip(source_id)!r} in the registry")
            if row.owner_kind != "local":
                raise RegistryError(
                    f"source {source_id!r} belongs to plugin {row.owner_name}; uninstall the plugin and run "
                    f"schemarouter registry sync to remove it"
                )
            conn.execute(delete(m.T_SOURCES).where(m.T_SOURCES.c.id == source_id))
            meta = dict(conn.execute(select(m.T_META.c.key, m.T_META.c.value)).all())
            fp = _finish_write(conn, meta.get("vocabulary_fingerprint", ""))
        return SyncReport(removed=[source_id], fingerprint=fp)

    @staticmethod
    def _meta_fp(conn: Connection) -> str | None:
        return conn.execute(select(m.T_META.c.value).where(m.T_META.c.key == "fingerprint")).scalar()

    # ---------------------------------------------------------------- export / import
    def export(self) -> dict[str, Any]:
        """The whole registry, read as one snapshot, as an export document (with local adapter specs)."""
        decls = self.load()
        document = {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "fingerprint": decls.fingerprint,
            "intents": [i.model_dump(mode="json") for i in decls.intents.values()],
            "field_groups": {g.name: g.description for g in decls.field_groups.values()},
            "concepts": [c.model_dump(mode="json") for c in decls.concepts.values()],
            "sources": [decls.sources[sid].model_dump(mode="json", by_alias=True) for sid in sorted(decls.sources)],
            "owners": {
                sid: {"kind": o.kind, "name": o.name, "version": o.version}
                for sid, o in sorted(decls.owners.items())
            },
        }
        if decls.adapter_specs:  # only local sources have them; plugin-only exports are unchanged
            document["adapter_specs"] = {sid: decls.adapter_specs[sid] for sid in sorted(decls.adapter_specs)}
        return document

    def export_bytes(self) -> bytes:
        """The export document as indented UTF-8 JSON, ready to write to a file."""
        return dump_export(self.export())

    def import_file(self, path: str | Path) -> SyncReport:
        """Replace the whole registry with the contents of the export file at ``path``."""
        return self.replace(parse_export(path))


def dump_export(document: dict[str, Any]) -> bytes:
    """Encode an export document as indented UTF-8 JSON ending in a newline."""
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def parse_export(path: str | Path) -> Declarations:
    """Read and validate an export file into declarations, or raise ImportFileError."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise ImportFileError(f"cannot read {path}: {err.strerror}") from None
    try:
        doc = load_json(raw, name=str(path))  # bounded: nesting, size, binary input
    except UnsafeDocumentError as err:
        if err.problem.startswith("invalid JSON: "):
            where = f" at {err.where}" if err.where else ""
            raise ImportFileError(f"{path} is not valid JSON{where}: {err.problem.removeprefix('invalid JSON: ')}") from None
        raise ImportFileError(str(err)) from None
    if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT:
        raise ImportFileError(f"{path} is not a schemarouter registry export (expected format {EXPORT_FORMAT!r})")
    if doc.get("version") != EXPORT_VERSION:
        raise ImportFileError(f"{path} has export version {doc.get('version')!r}; this schemarouter reads {EXPORT_VERSION}")
    label = f"import file {path}"
    decls = Declarations()
    try:
        for item in _list(doc, "intents", path):
            intent = coerce(Intent, item, label, "intent")
            decls.intents[intent.name] = intent
        groups = doc.get("field_groups")
        if not isinstance(groups, dict):
            raise ImportFileError(f"{path}: 'field_groups' must be an object of name: description")
        for name, description in groups.items():
            group = coerce(FieldGroup, {"name": name, "description": description}, label, "field group")
            decls.field_groups[group.name] = group
        for item in _list(doc, "concepts", path):
            concept = coerce(DomainConcept, item, label, "concept")
            decls.concepts[concept.name] = concept
        owners = doc.get("owners") or {}
        if not isinstance(owners, dict):
            raise ImportFileError(f"{path}: 'owners' must be an object of source id: {{kind, name, version}}")
        for item in _list(doc, "sources", path):
            source = coerce(Source, item, label, "source")
            if source.id in decls.sources:
                raise ImportFileError(f"{path}: source {clip(source.id)!r} appears twice")
            decls.sources[source.id] = source
            decls.owners[source.id] = _owner(owners.get(source.id), source.id, path)
        decls.adapter_specs = _adapter_specs(doc, decls, path)
        validate(decls)
    except DeclarationError as err:
        raise ImportFileError(f"{path}: {err.item}: {err.problem}") from None
    expected = doc.get("fingerprint")
    vocab_fp = vocabulary_fingerprint(decls.intents.values(), decls.field_groups.values(), decls.concepts.values())
    actual = registry_fingerprint(
        vocab_fp, {sid: source_fingerprint(s, decls.adapter_specs.get(sid)) for sid, s in decls.sources.items()}
    )
    if expected is not None and expected != actual:
        raise ImportFileError(
            f"{path}: its fingerprint {expected} does not match its content ({actual}); the file was edited or "
            f"damaged (remove the 'fingerprint' key to import an edited file)"
        )
    return decls


def _owner(raw: Any, source_id: str, path: Path) -> Owner:
    if raw is None:
        return Owner("plugin", "imported", "")
    where = f"{path}: owners[{clip(source_id)!r}]"
    if not isinstance(raw, dict):
        raise ImportFileError(f"{where} must be an object {{kind, name, version}}")
    kind, name, version = raw.get("kind", "plugin"), raw.get("name", "imported"), raw.get("version", "")
    if kind not in ("plugin", "local"):
        raise ImportFileError(f"{where}: kind must be 'plugin' or 'local', not {clip(repr(kind), 40)}")
    if not isinstance(name, str) or not isinstance(version, str):
        raise ImportFileError(f"{where}: name and version must be text")
    return Owner(kind, name, version)


def _adapter_specs(doc: dict[str, Any], decls: Declarations, path: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """Validated adapter specs (as their canonical JSON): a bad one fails the import before any write."""
    specs = doc.get("adapter_specs") or {}
    if not isinstance(specs, dict):
        raise ImportFileError(f"{path}: 'adapter_specs' must be an object of source id: {{endpoint id: spec}}")
    validated: dict[str, dict[str, dict[str, Any]]] = {}
    for sid, by_endpoint in specs.items():
        if sid not in decls.sources:
            raise ImportFileError(f"{path}: adapter_specs names unknown source {clip(sid)!r}")
        if not isinstance(by_endpoint, dict) or not all(isinstance(v, dict) for v in by_endpoint.values()):
            raise ImportFileError(f"{path}: adapter_specs[{sid!r}] must map endpoint ids to objects")
        endpoints = {e.id for e in decls.sources[sid].endpoints}
        models: dict[str, AdapterSpec] = {}
        for eid, raw in by_endpoint.items():
            if eid not in endpoints:
                raise ImportFileError(f"{path}: adapter_specs[{sid!r}] names unknown endpoint {clip(eid)!r}")
            try:
                models[eid] = AdapterSpec.model_validate(raw)
            except ValidationError as exc:
                raise ImportFileError(
                    f"{path}: adapter_specs[{sid!r}][{eid!r}]: {describe_validation_error(exc, raw)}"
                ) from None
        try:
            check_adapter_specs(LocalSource(decls.sources[sid], models), f"import file {path}")
        except DeclarationError as err:
            raise ImportFileError(f"{path}: adapter_specs: {err.item}: {err.problem}") from None
        validated[sid] = {eid: spec.model_dump(mode="json") for eid, spec in models.items()}
    return validated


def _list(doc: dict[str, Any], key: str, path: Path) -> list[Any]:
    value = doc.get(key)
    if not isinstance(value, list):
        raise ImportFileError(f"{path}: {key!r} must be a list")
    return value


def _delete_all(conn: Connection) -> None:
    for table in reversed(m.INSERT_ORDER):
        conn.execute(delete(table))


def _finish_write(conn: Connection, vocab_fp: str) -> str:
    """Drop licenses nobody uses and record the new fingerprints."""
    used = select(m.T_SOURCES.c.license_pk).union(
        select(m.T_FIELDS.c.license_pk).where(m.T_FIELDS.c.license_pk.is_not(None))
    )
    conn.execute(delete(m.T_LICENSES).where(m.T_LICENSES.c.pk.not_in(used)))
    fps = dict(conn.execute(select(m.T_SOURCES.c.id, m.T_SOURCES.c.fingerprint)).all())
    fp = registry_fingerprint(vocab_fp, fps)
    values = {
        "format_version": str(EXPORT_VERSION),
        "fingerprint": fp,
        "vocabulary_fingerprint": vocab_fp,
        "synced_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    conn.execute(delete(m.T_META).where(m.T_META.c.key.in_(list(values))))
    conn.execute(m.T_META.insert(), [{"key": k, "value": v} for k, v in values.items()])
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_notify(:channel, :fp)"), {"channel": NOTIFY_CHANNEL, "fp": fp})
    return fp
