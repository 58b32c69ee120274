"""Alembic environment for the schemarouter registry.

schemarouter runs migrations in code (``schemarouter db upgrade``) and hands this script an
open connection. Run by the ``alembic`` command (for example ``alembic revision
--autogenerate`` while developing), it reads the URL from ``-x url=...``, then
``SCHEMAROUTER_DATABASE_URL``, then the default registry file.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from schemarouter.registry.database import make_engine
from schemarouter.registry.orm import Base

config = context.config
target_metadata = Base.metadata


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.get_x_argument(as_dictionary=True).get("url")
    engine = make_engine(url)
    with engine.begin() as connection:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()


def run_migrations_offline() -> None:
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
