"""``schemarouter db``: create or upgrade the registry schema, and show its revision."""

from __future__ import annotations

import click

from schemarouter.cli.options import db_option, json_option, print_json
from schemarouter.registry.database import display, make_engine, require_existing, translate_db_errors
from schemarouter.registry.migrations import current_revision, head_revision
from schemarouter.registry.migrations import upgrade as run_upgrade


@click.group()
def db() -> None:
    """Registry database schema (alembic migrations)."""


@db.command()
@db_option
def upgrade(db_url: str | None) -> None:
    """Create the registry schema, or upgrade it to this version's head."""
    engine = make_engine(db_url)
    with translate_db_errors(engine):
        with engine.connect() as conn:
            before = current_revision(conn)
        head = head_revision()
        if before == head:
            click.echo(f"{display(engine.url)} is already at head ({head})")
            return
        run_upgrade(engine)
    click.echo(f"upgraded {display(engine.url)} from {before or 'empty'} to {head}")


@db.command()
@db_option
@json_option
def current(db_url: str | None, as_json: bool) -> None:
    """Show the schema revision of the registry database and the newest one known."""
    require_existing(db_url)  # looking must not create an empty database
    engine = make_engine(db_url)
    with translate_db_errors(engine), engine.connect() as conn:
        rev = current_revision(conn)
    head = head_revision()
    if as_json:
        print_json({"url": display(engine.url), "current": rev, "head": head, "up_to_date": rev == head})
        return
    state = "up to date" if rev == head else ("empty" if rev is None else "behind head: run schemarouter db upgrade")
    click.echo(f"{display(engine.url)}: revision {rev or '(none)'}, head {head} ({state})")
