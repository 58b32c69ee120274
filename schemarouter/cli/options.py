"""Options and output helpers shared by the command modules."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import click
from rich.console import Console

from schemarouter.registry import Registry

F = TypeVar("F", bound=Callable[..., Any])


def db_option(func: F) -> F:
    return click.option(
        "--db",
        "db_url",
        metavar="URL",
        envvar="SCHEMAROUTER_DATABASE_URL",
        show_envvar=True,
        help="Registry database URL (default: a SQLite file in the user data directory, "
        "or under SCHEMAROUTER_HOME).",
    )(func)


def json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")(func)


def open_registry(db_url: str | None) -> Registry:
    return Registry.open(db_url)


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def console() -> Console:
    """Rich console; when output is piped, wide enough that tables do not wrap mid-name."""
    import sys

    return Console(soft_wrap=False, width=None if sys.stdout.isatty() else 200)
