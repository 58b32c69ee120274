"""Helpers for the database-source tests: the example lab database on SQLite and on Postgres, and what
proves that nothing was written to it.

The lab database is docs/examples/halcyon_lab.sql (SQLite, shipped built as halcyon_lab.sqlite) and
docs/examples/halcyon_lab_postgres.sql; the Postgres one is loaded into the fresh database the
``pg_url`` fixture makes for each test.
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import sqlalchemy as sa

from tests.sr_cli import EXAMPLES

LAB_SQLITE = EXAMPLES / "halcyon_lab.sqlite"
LAB_SQLITE_SCRIPT = EXAMPLES / "halcyon_lab.sql"
LAB_POSTGRES_SCRIPT = EXAMPLES / "halcyon_lab_postgres.sql"
LAB_OVERLAY = EXAMPLES / "halcyon_lab_overlay.yaml"
QUESTION = "What is the band gap of sample HX-0042 in the Halcyon lab database?"
INJECTION = "x'; DROP TABLE samples; --"


def lab_sqlite(directory: Path) -> str:
    """A copy of the shipped lab database in ``directory``; its SQLAlchemy URL."""
    target = directory / "halcyon_lab.sqlite"
    shutil.copyfile(LAB_SQLITE, target)
    return f"sqlite:///{target}"


def load_postgres(url: str, script: Path | str = LAB_POSTGRES_SCRIPT) -> str:
    """Run ``script`` (a file, or SQL text) in the Postgres database at ``url``; the URL."""
    text = script.read_text(encoding="utf-8") if isinstance(script, Path) else script
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql(text)
    finally:
        engine.dispose()
    return url


def sqlite_script(path: Path, script: str) -> str:
    """A new SQLite file at ``path`` built by ``script``; its URL."""
    conn = sqlite3.connect(path)
    try:
        conn.executescript(script)
        conn.commit()
    finally:
        conn.close()
    return f"sqlite:///{path}"


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def postgres_digest(url: str) -> str:
    """Every row of every table and view of the public schema, and the list of them, as one digest: any
    write, drop or change shows."""
    engine = sa.create_engine(url)
    digest = hashlib.sha256()
    try:
        with engine.connect() as conn:
            tables = conn.exec_driver_sql(
                "SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = 'public' "
                "ORDER BY table_name").fetchall()
            digest.update(repr(tables).encode())
            for name, _kind in tables:
                rows = conn.exec_driver_sql(f'SELECT * FROM "{name}" ORDER BY 1').fetchall()
                digest.update(repr((name, rows)).encode())
    finally:
        engine.dispose()
    return digest.hexdigest()
