"""Read-only database connections: the only way schemarouter talks to a database source.

Every read runs in a transaction that cannot write and cannot run long:

* SQLite: the file is opened read-only (``mode=ro``; a missing file is an error, never created), with
  ``PRAGMA query_only`` on, and a progress handler interrupts a statement past its time limit;
* PostgreSQL: the session defaults to read-only transactions, each read starts with ``SET
  TRANSACTION READ ONLY`` and a ``statement_timeout``, and a connection attempt is bounded too.

Nothing is ever committed: a read ends with a rollback. Database errors become the executor's typed
step errors (:func:`step_error`) as one line, with no SQL parameters and no password in it.
SQLAlchemy is blocking; callers run :func:`read_rows` in a worker thread.
"""

from __future__ import annotations

import importlib.util
import math
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import create_engine
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.pool import QueuePool
from sqlalchemy.sql import Executable

from schemarouter.execution import errors as E
from schemarouter.execution.secrets import Secrets

CONNECT_TIMEOUT_S = 10.0
_PROGRESS_STEPS = 2_000  # SQLite virtual-machine steps between two looks at the clock
# Postgres error classes (SQLSTATE) of a server or connection that went away, and of a cancelled statement
_GONE_STATES = ("08", "57P01", "57P02", "57P03")
_CANCELLED = "57014"
_SQLITE_GONE = ("unable to open database file", "disk i/o error", "file is not a database",
                "database disk image is malformed", "database is locked")


def driver_url(url: URL) -> URL:
    """``url`` with a Postgres driver that is installed (psycopg 3 where no driver is named)."""
    bare = url.get_backend_name() == "postgresql" and "+" not in url.drivername
    if bare and importlib.util.find_spec("psycopg2") is None and importlib.util.find_spec("psycopg") is not None:
        return url.set(drivername="postgresql+psycopg")
    return url


def sqlite_file(url: URL) -> Path | None:
    """The database file of a SQLite URL; None for an in-memory database."""
    database = url.database or ""
    if database in ("", ":memory:") or database.startswith("file::memory:"):
        return None
    return Path(database)


def open_engine(url: URL, timeout_s: float = CONNECT_TIMEOUT_S) -> Engine:
    """An engine that can only read: SQLite opened read-only, Postgres sessions read-only by default."""
    backend = url.get_backend_name()
    if backend == "sqlite":
        path = sqlite_file(url)
        if path is None:
            raise E.InvalidStep("an in-memory SQLite database holds nothing to read")
        resolved = path.resolve()
        uri = f"file:{quote(str(resolved), safe='/')}?mode=ro"

        def connect() -> sqlite3.Connection:
            conn = sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=min(timeout_s, 5.0))
            conn.execute("PRAGMA query_only = ON")
            return conn

        return create_engine(URL.create("sqlite", database=str(resolved)), creator=connect, poolclass=QueuePool,
                             pool_size=4, max_overflow=4)
    if backend == "postgresql":
        return create_engine(
            driver_url(url), pool_size=4, max_overflow=4, pool_pre_ping=True,
            connect_args={"connect_timeout": max(1, math.ceil(timeout_s)),
                          "options": "-c default_transaction_read_only=on"},
        )
    raise E.InvalidStep(f"database URL: {backend!r} is not supported (sqlite, postgresql)")


def read_rows(engine: Engine, statement: Executable, cap: int, timeout_s: float) -> list[tuple[Any, ...]]:
    """Run ``statement`` in a read-only transaction within ``timeout_s``; at most ``cap`` rows are read."""
    with engine.connect() as conn, conn.begin() as transaction:
        restore = _bound(conn, timeout_s)
        try:
            result = conn.execute(statement)
            rows = [tuple(row) for row in result.fetchmany(cap)]
            result.close()
        finally:
            restore()
        transaction.rollback()  # a read commits nothing
    return rows


def _bound(conn: Connection, timeout_s: float) -> Callable[[], None]:
    """Make the open transaction read-only and time-limited; returns what undoes the connection-level part."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SET TRANSACTION READ ONLY")
        conn.exec_driver_sql(f"SET LOCAL statement_timeout = {max(1, int(timeout_s * 1000))}")
        return lambda: None
    raw: Any = conn.connection.dbapi_connection
    deadline = time.monotonic() + timeout_s
    raw.set_progress_handler(lambda: 1 if time.monotonic() > deadline else 0, _PROGRESS_STEPS)
    return lambda: raw.set_progress_handler(None, 0)


def first_line(exc: BaseException) -> str:
    """The driver's own message, first line only (no SQL, no parameters, no connection string)."""
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).strip().splitlines()
    return text[0].strip() if text else type(orig).__name__


def step_error(exc: BaseException, where: str, timeout_s: float, secrets: Secrets | None = None) -> E.StepError:
    """A database error as the executor's step error: unreachable, too slow, or a failed query."""
    message = first_line(exc)
    if secrets is not None:
        message = secrets.redact(message)
    lowered = message.lower()
    state = getattr(getattr(exc, "orig", None), "sqlstate", None) or ""
    if state == _CANCELLED or lowered == "interrupted" or "statement timeout" in lowered:
        return E.StepTimeout(f"{where}: the query took longer than {timeout_s:g} s and was stopped")
    gone = (
        (isinstance(exc, DBAPIError) and exc.connection_invalidated)
        or state.startswith(_GONE_STATES)
        or any(text in lowered for text in _SQLITE_GONE)
        or ("connection" in lowered and not state)  # psycopg: "connection failed: ..." carries no SQLSTATE
    )
    if gone:
        return E.NetworkError(f"{where}: the database cannot be reached ({message})")
    if isinstance(exc, SQLAlchemyError):
        return E.QueryFailed(f"{where}: the database refused the query ({message})")
    return E.QueryFailed(f"{where}: {type(exc).__name__}: {message}")
