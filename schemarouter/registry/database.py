"""Database URLs and engines: which database the registry lives in, and how to talk to it.

The default is a SQLite file in the user's data directory (``SCHEMAROUTER_HOME`` moves it);
``SCHEMAROUTER_DATABASE_URL`` or ``--db`` choose any supported SQLAlchemy URL. Connection
problems become one-line :class:`RegistryError` messages with the password hidden.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, exc
from sqlalchemy.engine import URL, make_url

from schemarouter.config import home, setting
from schemarouter.errors import RegistryError

# The table of registry-wide facts (fingerprints, format version): read with plain SQL by the paths that
# need only a fingerprint, so opening a registry to check its graph cache imports no ORM.
META_TABLE = "registry_meta"

DATABASE_URL_ENV = "SCHEMAROUTER_DATABASE_URL"
SUPPORTED = "sqlite:///PATH or postgresql+psycopg://USER@HOST:PORT/DATABASE"


def default_url() -> str:
    """``SCHEMAROUTER_DATABASE_URL``, else ``[registry] url`` of the config file, else the SQLite file."""
    configured = setting("registry", "url", env=DATABASE_URL_ENV)
    if configured:
        return str(configured)
    return f"sqlite:///{home() / 'registry.db'}"


def chosen_url(url: str | None) -> str | None:
    """The URL a user chose (``--db``, the variable or the config file), or None for the default file."""
    from schemarouter.config import setting

    return url or setting("registry", "url", env=DATABASE_URL_ENV)


def require_existing(url: str | None) -> None:
    """For read-only commands: a chosen SQLite file that does not exist is an error, not a new database.

    The default file is exempt (a fresh install has none yet and says "run registry sync").
    """
    chosen = chosen_url(url)
    if not chosen:
        return
    parsed = parse_url(chosen)
    database = parsed.database or ""
    if not parsed.drivername.startswith("sqlite") or database in ("", ":memory:") or database.startswith("file:"):
        return
    if not Path(database).expanduser().exists():
        raise RegistryError(
            f"no registry at {display(parsed)}: the file does not exist (check the path, or create it with: "
            f"schemarouter registry sync --db {display(parsed)})"
        )


def display(url: URL | str) -> str:
    """A URL safe to print: the password is masked."""
    try:
        parsed = url if isinstance(url, URL) else make_url(url)
    except exc.ArgumentError:
        return "<unparseable URL>"
    return parsed.render_as_string(hide_password=True)


def parse_url(url: str | None) -> URL:
    """Validate and normalize a registry URL."""
    raw = url or default_url()
    try:
        parsed = make_url(raw)
    except exc.ArgumentError:
        raise RegistryError(f"{raw!r} is not a database URL; use {SUPPORTED}") from None
    backend, _, driver = parsed.drivername.partition("+")
    if backend == "sqlite" and driver in ("", "pysqlite"):
        return parsed
    if backend in ("postgresql", "postgres") and driver in ("", "psycopg"):
        return parsed.set(drivername="postgresql+psycopg")
    raise RegistryError(
        f"unsupported database URL scheme {parsed.drivername!r} in {display(parsed)}; use {SUPPORTED}"
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # Let SQLAlchemy's "begin" event own transactions, so BEGIN IMMEDIATE is possible.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _sqlite_begin(conn: Any) -> None:
    mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
    conn.exec_driver_sql(f"BEGIN {mode}")


def make_engine(url: str | None = None) -> Engine:
    """An engine for the registry URL. SQLite files get their directory created."""
    parsed = parse_url(url)
    if parsed.drivername.startswith("sqlite"):
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            path = Path(database).expanduser()
            if path.exists() and path.is_dir():
                raise RegistryError(f"{display(parsed)} points at a directory, not a SQLite file")
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise RegistryError(f"cannot create the directory for {path}: {err.strerror}") from None
        engine = create_engine(parsed)
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(parsed, pool_pre_ping=True, connect_args={"connect_timeout": 10})


def describe_db_error(error: BaseException, url: URL | str) -> str:
    """One line explaining a DBAPI failure."""
    orig = getattr(error, "orig", None) or error
    text = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
    if isinstance(orig, sqlite3.DatabaseError) and "not a database" in text:
        return f"{display(url)} is not a SQLite database (the file is corrupt or of another kind)"
    if (isinstance(error, exc.OperationalError) and "connect" in text.lower()) or "connection" in text.lower():
        return f"cannot connect to {display(url)}: {text}"
    return f"database error on {display(url)}: {text}"


@contextmanager
def translate_db_errors(engine: Engine) -> Iterator[None]:
    """Turn DBAPI failures inside the block into one-line RegistryErrors."""
    try:
        yield
    except exc.DBAPIError as err:
        raise RegistryError(describe_db_error(err, engine.url)) from None
