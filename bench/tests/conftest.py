"""The benchmark's tests use the core suite's fixtures (databases, the CLI runner)."""

from tests.conftest import any_url, pg_url, run_cli, sqlite_url  # noqa: F401
