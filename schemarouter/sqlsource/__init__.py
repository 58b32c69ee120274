"""Import a SQL database (SQLite, PostgreSQL) as a local source (``schemarouter source import-sql``).

Small modules, one job each: :mod:`.reflect` reads the schema with SQLAlchemy (tables, views, keys,
types, comments), :mod:`.comments` reads what comments say (units, groups, concepts), :mod:`.mapper`
turns tables into endpoints, columns into fields and filters and foreign keys into links,
:mod:`.overlay` reads what a schema cannot say, :mod:`.report` lists what was not mapped. The
database is only read (its catalog); nothing here writes to it or to the registry. The URL's
password is used to connect and then dropped: the source stores the URL without it and the name of
the environment variable to read it from at run time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from schemarouter.declarations import coerce
from schemarouter.errors import SchemaRouterError
from schemarouter.execution.sqlconnect import driver_url, first_line, open_engine, sqlite_file
from schemarouter.models import Source
from schemarouter.sources.local import LocalSource, check_adapter_specs
from schemarouter.sources.sql import parse_db_url, shown_url, stored_url, without_secrets
from schemarouter.sqlsource.errors import SqlImportError
from schemarouter.sqlsource.mapper import SqlMapper, Vocabulary
from schemarouter.sqlsource.overlay import SqlOverlay, load_sql_overlay
from schemarouter.sqlsource.reflect import reflect
from schemarouter.sqlsource.report import SqlImportReport

DEFAULT_DOMAIN = "general"
BUDGET_S = 120.0  # reflection stops taking new tables after this long (the report says so)


@dataclass(frozen=True)
class SqlImportResult:
    """The local source an import produced and the report of what it mapped."""

    local: LocalSource
    report: SqlImportReport


def password_env_for(source_id: str) -> str:
    """The default variable a database source's password is read from: ``LABDB_PASSWORD`` for ``labdb``."""
    return f"{source_id.upper()}_PASSWORD"


def import_sql(
    url: str, source_id: str, overlay: str | Path | None = None, *, schema: str | None = None,
    tables: tuple[str, ...] | list[str] = (), password_env: str | None = None,
    vocabulary: Vocabulary | None = None, budget_s: float = BUDGET_S,
) -> SqlImportResult:
    """Reflect the database at ``url`` (with ``overlay``) into a validated local source and a report;
    write nothing anywhere. ``tables``: only these tables and views (shell patterns)."""
    started = time.monotonic()
    parsed = parse_db_url(url)
    shown = shown_url(parsed)
    report = SqlImportReport(url=shown, source_id=source_id, dialect=parsed.get_backend_name(), schema=schema)
    try:
        ov = load_sql_overlay(overlay)
        overlay_file = str(overlay) if overlay is not None else "overlay"
        connect = _connectable(parsed, shown)
        clean, had_password, dropped = without_secrets(connect)
        env_name = password_env or ov.auth_env
        if had_password:
            env_name = env_name or password_env_for(source_id)
            report.notes.append(f"the password is not stored: the source reads it from ${env_name} when it runs")
        for name in dropped:
            report.notes.append(f"URL parameter {name!r} holds a credential; it is not stored")
        report.password_env = env_name
        engine = open_engine(connect, timeout_s=15.0)
        try:
            excluded = _excluder(ov)
            reflection = reflect(engine, schema, list(tables), excluded, report, started, budget_s)
        except SQLAlchemyError as err:
            raise SqlImportError(shown, "", f"cannot read the schema ({first_line(err)})") from None
        finally:
            engine.dispose()
        if not reflection.tables:
            raise SqlImportError(shown, schema or "", "no table or view to import"
                                 + (" (every one is excluded)" if report.excluded else ""))
        mapper = SqlMapper(reflection, ov, overlay_file, report, stored_url(clean), vocabulary)
        mapped = mapper.map()
        if not mapped.endpoints:
            raise SqlImportError(shown, "", "every table is excluded; nothing to import")
        data = _source(source_id, ov, overlay_file, shown, reflection.dialect, parsed, env_name, report)
        data["endpoints"] = mapped.endpoints
        data["feeds"] = mapped.feeds
        owner = shown + (f" with overlay {overlay_file}" if overlay is not None else "")
        source = coerce(Source, data, owner, "source")
        local = LocalSource(source, mapped.specs)
        check_adapter_specs(local, owner)
    except SchemaRouterError as err:
        err.report = report  # type: ignore[attr-defined]  # the CLI prints it with the refusal
        raise
    report.endpoints = len(source.endpoints)
    report.endpoint_ids = [e.id for e in source.endpoints]
    report.parameters = sum(len(e.parameters) for e in source.endpoints)
    report.fields = sum(len(e.fields) for e in source.endpoints)
    report.links = len(source.feeds)
    report.seconds = time.monotonic() - started
    return SqlImportResult(local, report)


def _connectable(url: URL, shown: str) -> URL:
    """The URL to reflect with: a SQLite file must exist (it is never created), Postgres gets its driver."""
    if url.get_backend_name() == "sqlite":
        path = sqlite_file(url)
        if path is None:
            raise SqlImportError(shown, "", "an in-memory SQLite database holds nothing to import; give a file")
        if not path.is_file():
            raise SqlImportError(shown, "", f"no SQLite database file at {path}")
        return url.set(database=str(path.resolve()))
    return driver_url(url)


def _excluder(ov: SqlOverlay) -> Any:
    patterns = list(ov.exclude)

    def excluded(name: str) -> bool:
        return any(fnmatchcase(name, p) for p in patterns)

    return excluded


def _source(
    source_id: str, ov: SqlOverlay, overlay_file: str, shown: str, dialect: str, url: URL,
    env_name: str | None, report: SqlImportReport,
) -> dict[str, Any]:
    where = overlay_file if overlay_file != "overlay" else shown
    if ov.source_type is None:
        raise SqlImportError(where, "source_type", "a database cannot say where its values come from; give "
                             "source_type in the overlay (calculated, experimental, literature, curated, regulatory or web)")
    if ov.license is None:
        raise SqlImportError(where, "license", "a database states no license; give license (id, name, url, "
                             "attribution) in the overlay")
    name = Path(url.database or "").stem if dialect == "sqlite" else (url.database or source_id)
    description = ov.description or (
        f"{'SQLite' if dialect == 'sqlite' else 'PostgreSQL'} database {name}: {report.tables} tables, "
        f"{report.views} views.")
    return {
        "id": source_id, "title": (ov.title or name or source_id)[:200], "aliases": ov.aliases,
        "domain": ov.domain or DEFAULT_DOMAIN, "description": description.strip()[:4000], "homepage": ov.homepage,
        "source_type": ov.source_type, "license": ov.license,
        "auth": {"env": env_name, "in": "connection", "name": "password"} if env_name else None,
        "priority": ov.priority if ov.priority is not None else 5, "cache_ttl": ov.cache_ttl,
    }


__all__ = ["SqlImportError", "SqlImportReport", "SqlImportResult", "SqlOverlay", "Vocabulary", "import_sql"]
