"""Alembic, configured in code, so an installed wheel can create and upgrade a registry.

The migration scripts live in the repository's top-level ``alembic/`` folder; wheels carry
them as the ``schemarouter._alembic`` package. Policy when a registry is opened:

* an empty database is created at head;
* a SQLite file behind head is upgraded in place;
* a Postgres database behind head is an error naming the exact ``schemarouter db upgrade``
  command, unless ``SCHEMAROUTER_AUTO_MIGRATE=1`` (several routers may share it; the operator
  decides when its schema changes);
* a database ahead of head (made by a newer schemarouter) is an error.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect

from schemarouter.errors import MigrationRequired, RegistryError
from schemarouter.registry.database import display

AUTO_MIGRATE_ENV = "SCHEMAROUTER_AUTO_MIGRATE"


def script_location() -> Path:
    """Where the migration environment is: inside the wheel, or the source checkout."""
    try:
        packaged = Path(str(files("schemarouter").joinpath("_alembic")))
        if (packaged / "env.py").is_file():
            return packaged
    except ModuleNotFoundError:  # pragma: no cover - schemarouter itself is importable here
        pass
    checkout = Path(__file__).resolve().parents[2] / "alembic"
    if (checkout / "env.py").is_file():
        return checkout
    raise RegistryError("the schemarouter installation has no migration scripts (alembic/ is missing)")


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(script_location()))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    heads = ScriptDirectory.from_config(alembic_config()).get_heads()
    if len(heads) != 1:
        raise RegistryError(f"migration scripts have {len(heads)} heads; expected exactly one")
    return heads[0]


def current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), revision)


def ensure_schema(engine: Engine) -> None:
    """Apply the open policy described in the module docstring."""
    with engine.connect() as connection:
        current = current_revision(connection)
        tables = set(inspect(connection).get_table_names())
    head = head_revision()
    if current == head:
        return
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
    upgrade(engine)
