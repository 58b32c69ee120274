"""Shared fixtures: registries on SQLite and on the real local Postgres, and a CLI runner.

Postgres tests create a fresh database per test and drop it afterwards. When the server is
unreachable they skip, except under CI (``CI=true``), where they fail.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

REPO = Path(__file__).resolve().parents[1]
POSTGRES_ADMIN_URL = os.environ.get(
    "SCHEMAROUTER_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


def _postgres_or_skip() -> None:
    try:
        engine = create_engine(POSTGRES_ADMIN_URL, connect_args={"connect_timeout": 3})
        with engine.connect():
            pass
        engine.dispose()
    except Exception as exc:  # pragma: no cover - depends on the machine
        if os.environ.get("CI") == "true":
            pytest.fail(f"Postgres at {POSTGRES_ADMIN_URL} is unreachable under CI: {exc}")
        pytest.skip(f"Postgres unreachable: {exc}")


@pytest.fixture
def pg_url() -> Iterator[str]:
    """URL of a fresh, empty Postgres database that is dropped after the test."""
    _postgres_or_skip()
    name = f"sr_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(POSTGRES_ADMIN_URL).set(database=name).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(
                text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :n AND pid <> pg_backend_pid()"),
                {"n": name},
            )
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        admin.dispose()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'registry.db'}"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def any_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each test using this runs once on SQLite and once on Postgres."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'registry.db'}"
    return request.getfixturevalue("pg_url")


@dataclass
class CliResult:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def run_cli(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Run the real ``schemarouter`` command in a subprocess with an isolated home."""

    def run(*args: str, env: dict[str, str] | None = None, input: str | None = None) -> CliResult:
        full_env = {k: v for k, v in os.environ.items() if not k.startswith("SCHEMAROUTER_")}
        full_env["SCHEMAROUTER_HOME"] = str(tmp_path / "home")
        full_env.update(env or {})
        proc = subprocess.run(
            [sys.executable, "-m", "schemarouter", *args],
            capture_output=True, text=True, env=full_env, input=input, timeout=300, cwd=tmp_path,
        )
        return CliResult(proc.returncode, proc.stdout, proc.stderr)

    return run
