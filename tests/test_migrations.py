"""Alembic owns the schema: one head, sequential ids, ORM == migrations, and the open policy."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text

from schemarouter.declarations import Declarations
from schemarouter.errors import MigrationRequired, RegistryError
from schemarouter.registry import Registry
from schemarouter.registry.database import make_engine
from schemarouter.registry.migrations import alembic_config, current_revision, head_revision, upgrade
from schemarouter.registry.orm import Base


def _script() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config())


def test_exactly_one_head_and_sequential_revision_ids() -> None:
    script = _script()
    assert len(script.get_heads()) == 1
    revisions = list(reversed(list(script.walk_revisions())))
    ids = [rev.revision for rev in revisions]
    assert ids == [f"{n:04d}" for n in range(1, len(ids) + 1)]
    for rev in revisions:
        assert re.fullmatch(rf"{rev.revision}_[a-z0-9_]+\.py", Path(rev.path).name)


def test_upgrade_from_empty_matches_the_orm(any_url: str) -> None:
    engine = make_engine(any_url)
    upgrade(engine)
    with engine.connect() as conn:
        assert current_revision(conn) == head_revision()
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        diff = compare_metadata(context, Base.metadata)
    assert diff == [], f"ORM and migrations disagree: {diff}"
    engine.dispose()


def test_every_migration_downgrades_to_empty(sqlite_url: str) -> None:
    from alembic import command

    engine = make_engine(sqlite_url)
    upgrade(engine)
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "base")
    with engine.connect() as conn:
        tables = conn.execute(text("SELECT name FROM sqlite_master WHERE type='table'")).scalars().all()
    assert set(tables) <= {"alembic_version"}


def test_empty_database_is_created_at_head_on_open(any_url: str) -> None:
    Registry.open(any_url).close()
    engine = make_engine(any_url)
    with engine.connect() as conn:
        assert current_revision(conn) == head_revision()
    engine.dispose()


def _previous_revision() -> str:
    head = _script().get_revision(head_revision())
    if head.down_revision is None:
        pytest.skip("only one migration exists; nothing is behind head yet")
    return str(head.down_revision)


def test_sqlite_behind_head_is_upgraded_on_open(sqlite_url: str) -> None:
    previous = _previous_revision()
    upgrade(make_engine(sqlite_url), previous)
    Registry.open(sqlite_url).close()
    with make_engine(sqlite_url).connect() as conn:
        assert current_revision(conn) == head_revision()


@pytest.mark.postgres
def test_postgres_behind_head_names_the_upgrade_command(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    previous = _previous_revision()
    upgrade(make_engine(pg_url), previous)
    monkeypatch.delenv("SCHEMAROUTER_AUTO_MIGRATE", raising=False)
    with pytest.raises(MigrationRequired) as info:
        Registry.open(pg_url)
    assert "schemarouter db upgrade --db" in str(info.value)
    monkeypatch.setenv("SCHEMAROUTER_AUTO_MIGRATE", "1")
    Registry.open(pg_url).close()
    with make_engine(pg_url).connect() as conn:
        assert current_revision(conn) == head_revision()


def test_database_from_a_newer_schemarouter_is_refused(sqlite_url: str) -> None:
    Registry.open(sqlite_url).close()
    engine = make_engine(sqlite_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(RegistryError, match="revision 9999, which this schemarouter does not know"):
        Registry.open(sqlite_url)


def test_foreign_tables_are_not_taken_over(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE customers (id INTEGER)"))
    with pytest.raises(RegistryError, match="already holds tables that schemarouter did not create"):
        Registry.open(sqlite_url)


def test_the_head_read_from_the_scripts_is_alembics(any_url: str) -> None:
    """Opening a registry at head compares a revision read with plain SQL to the head read from the
    scripts' own lines, without importing alembic: both must be what alembic says."""
    from schemarouter.registry.migrations import declared_head, stamped_revision

    assert declared_head() == head_revision()
    engine = make_engine(any_url)
    try:
        with engine.connect() as conn:
            assert stamped_revision(conn) is None  # nothing stamped yet
        Registry.open(any_url).close()
        with engine.connect() as conn:
            assert stamped_revision(conn) == current_revision(conn) == head_revision()
    finally:
        engine.dispose()


def test_reading_a_registrys_fingerprint_imports_no_orm(sqlite_url: str) -> None:
    import subprocess
    import sys

    with Registry.open(sqlite_url) as registry:
        registry.sync(Declarations())
        want = registry.fingerprint()
    assert want
    probe = ("import sys; from schemarouter.registry import Registry; "
             f"r = Registry.open({sqlite_url!r}); fp = r.fingerprint(); "
             "print(fp, 'sqlalchemy.orm' in sys.modules); r.load(); print('sqlalchemy.orm' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [want, "False", "True"], "the ORM loads with the first read of rows"


def test_opening_a_registry_at_head_imports_no_alembic(sqlite_url: str) -> None:
    import subprocess
    import sys

    Registry.open(sqlite_url).close()  # created at head
    probe = ("import sys; from schemarouter.registry import Registry; "
             f"Registry.open({sqlite_url!r}).close(); print('alembic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
