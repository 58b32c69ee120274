"""Alembic, configured in code, so an installed wheel can create and upgrade a registry.

The migration scripts ship inside this package (``db_migrations/``, package data), so a checkout
and an installed wheel find them in the same place. Policy when a registry is opened:

* an empty database is created at head;
* a SQLite file behind head is upgraded in place;
* a Postgres database behind head is an error naming the exact ``schemarouter db upgrade``
  command, unless ``SCHEMAROUTER_AUTO_MIGRATE=1`` (several routers may share it; the operator
  decides when its schema changes);
* a database ahead of head (made by a newer schemarouter) is an error.

Several processes may open one empty registry at once (two ``registry sync`` on a new
database): creation and upgrade run in one transaction that first takes a lock — a
transaction-level advisory lock on Postgres, ``BEGIN IMMEDIATE`` on SQLite — and the revision is
read again under it, so exactly one process migrates and the others find the schema at head.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, exc, inspect, text

from schemarouter.errors import MigrationRequired, RegistryError
from schemarouter.registry.database import display

if TYPE_CHECKING:
    from alembic.config import Config

# alembic is imported where it migrates, reports or checks, not to open a registry at head (the common
# case, every command): its import was a tenth of a second of every command's start.

AUTO_MIGRATE_ENV = "SCHEMAROUTER_AUTO_MIGRATE"


def script_location() -> Path:
    """Where the migration environment is: the ``db_migrations`` folder of this package."""
    packaged = Path(str(files("schemarouter.registry").joinpath("db_migrations")))
    if (packaged / "env.py").is_file():
        return packaged
    raise RegistryError("the schemarouter installation has no migration scripts (schemarouter/registry/db_migrations/ is missing)")


def alembic_config(connection: Connection | None = None) -> Config:
    """An in-code alembic Config for the migration scripts, bound to ``connection`` when one is given."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(script_location()))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The single head revision of the migration scripts; more than one head is a RegistryError."""
    from alembic.script import ScriptDirectory

    heads = ScriptDirectory.from_config(alembic_config()).get_heads()
    if len(heads) != 1:
        raise RegistryError(f"migration scripts have {len(heads)} heads; expected exactly one")
    return heads[0]


def current_revision(connection: Connection) -> str | None:
    """The revision stamped in the database behind ``connection``, or None when it has none."""
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


_REVISION = re.compile(r"^revision\s*(?::[^=\n]+)?=\s*['\"]([^'\"]+)['\"]", re.MULTILINE)
_DOWN_REVISION = re.compile(r"^down_revision\s*(?::[^=\n]+)?=(.*)$", re.MULTILINE)


@cache
def declared_head() -> str | None:
    """The head revision read from the migration scripts' own ``revision`` and ``down_revision`` lines,
    without importing alembic (a test checks it is alembic's :func:`head_revision`); None where the
    scripts do not name exactly one head that way (then alembic is asked)."""
    revisions: set[str] = set()
    replaced: set[str] = set()
    for path in sorted((script_location() / "versions").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        found = _REVISION.search(source)
        down = _DOWN_REVISION.search(source)
        if found is None or down is None:
            return None
        revisions.add(found.group(1))
        replaced.update(re.findall(r"['\"]([^'\"]+)['\"]", down.group(1)))
    heads = revisions - replaced
    return heads.pop() if len(heads) == 1 else None


def stamped_revision(connection: Connection) -> str | None:
    """The revision stamped in the database, read with plain SQL (what :func:`current_revision` reads,
    without alembic's import); None when it has none."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    rows = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    return rows[0] if len(rows) == 1 else None


# Arbitrary constant shared by every schemarouter process: the key of the schema lock on Postgres.
_SCHEMA_LOCK_KEY = 7_362_081_443
# SQLite reports "database is locked" at once, without waiting, when two transactions that both read
# first then both try to write would deadlock; a fresh attempt then succeeds.
_SQLITE_ATTEMPTS = 5


@contextmanager
def _schema_lock(engine: Engine) -> Iterator[Connection]:
    """A transaction holding the registry's schema lock: one creator or migrator at a time."""
    with engine.connect() as connection:
        connection = connection.execution_options(sqlite_begin="IMMEDIATE")
        with connection.begin():
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _SCHEMA_LOCK_KEY})
            yield connection


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Upgrade to ``revision`` under the schema lock."""
    from alembic import command

    with _schema_lock(engine) as connection:
        command.upgrade(alembic_config(connection), revision)


def ensure_schema(engine: Engine) -> None:
    """Apply the open policy described in the module docstring."""
    head = declared_head()
    with engine.connect() as connection:
        if head is not None and stamped_revision(connection) == head:
            return  # the common case: no lock taken, no alembic imported
    for attempt in range(_SQLITE_ATTEMPTS):
        try:
            with _schema_lock(engine) as connection:
                _ensure_locked(engine, connection)
            return
        except exc.OperationalError as err:
            locked = engine.dialect.name == "sqlite" and "database is locked" in str(err.orig)
            if not locked or attempt == _SQLITE_ATTEMPTS - 1:
                raise
            time.sleep(0.05 * (attempt + 1))


def _ensure_locked(engine: Engine, connection: Connection) -> None:
    current = current_revision(connection)
    head = head_revision()
    if current == head:
        return  # another process created or upgraded it while this one waited for the lock
    from alembic.script import ScriptDirectory

    tables = set(inspect(connection).get_table_names())
    script = ScriptDirectory.from_config(alembic_config())
    if current is not None and current not in {rev.revision for rev in script.walk_revisions()}:
        raise RegistryError(
            f"{display(engine.url)} is at schema revision {current}, which this schemarouter does not know "
            f"(newest known: {head}); upgrade schemarouter"
        )
    if current is None and tables - {"alembic_version"}:
        raise RegistryError(
            f"{display(engine.url)} already holds tables that schemarouter did not create "
            f"({', '.join(sorted(tables)[:5])}); use an empty database"
        )
    fresh = current is None
    auto = os.environ.get(AUTO_MIGRATE_ENV) == "1"
    if not fresh and engine.dialect.name != "sqlite" and not auto:
        raise MigrationRequired(
            f"the registry at {display(engine.url)} is at schema revision {current}, behind {head}; "
            f"run: schemarouter db upgrade --db '{display(engine.url)}' "
            f"(or set {AUTO_MIGRATE_ENV}=1)"
        )
    from alembic import command

    command.upgrade(alembic_config(connection), "head")
