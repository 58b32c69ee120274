"""Options and output helpers shared by the command modules."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import click
from rich.console import Console

from schemarouter.models import Source
from schemarouter.registry import Registry

F = TypeVar("F", bound=Callable[..., Any])


def db_option(func: F) -> F:
    """Add the ``--db`` registry URL option to a command."""
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
    """Add the ``--json`` output flag to a command."""
    return click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")(func)


def strict_option(func: F) -> F:
    """Add the ``--strict`` flag that turns declaration warnings into errors."""
    return click.option(
        "--strict", is_flag=True,
        help="Declaration warnings (unit, license id, shared name) are errors: nothing is written.",
    )(func)


def registry_exists(db_url: str | None) -> bool:
    """Whether the registry database is there to read (a SQLite file exists; a server is assumed to)."""
    from pathlib import Path

    from schemarouter.registry.database import default_url, parse_url

    parsed = parse_url(db_url or default_url())
    database = parsed.database or ""
    if parsed.drivername.startswith("sqlite") and database and database != ":memory:" and not database.startswith("file:"):
        return Path(database).expanduser().is_file()
    return True


def local_sources(reg: Registry) -> dict[str, Source]:
    """The registry's local sources (schemarouter source add / import-openapi), by id."""
    return {row["id"]: reg.source(row["id"])[0] for row in reg.list_sources() if row["owner"]["kind"] == "local"}


def local_unit_from(reg: Registry, source_id: str) -> set[tuple[str, str]]:
    """(endpoint, field) pairs whose unit comes with each record, from a local source's adapter specs."""
    return {(eid, name) for eid, spec in reg.adapter_specs(source_id).items() for name in spec.get("unit_from") or {}}


def plugin_unit_from(source_ids: Iterable[str]) -> dict[str, set[tuple[str, str]]]:
    """(endpoint, field) pairs whose unit comes with each record, from the installed plugins' adapters
    (an ``AdapterSpec.unit_from``, such as a measured value whose unit is another field of its record)."""
    from schemarouter.execution.registry_adapters import collect_adapters

    wanted = set(source_ids)
    found: dict[str, set[tuple[str, str]]] = {}
    for source_id, adapter in collect_adapters().items():
        specs = getattr(adapter, "specs", None)
        if source_id not in wanted or not isinstance(specs, Mapping):
            continue
        found[source_id] = {(eid, name) for eid, spec in specs.items() for name in getattr(spec, "unit_from", {}) or {}}
    return found


def open_registry(db_url: str | None, *, read_only: bool = False) -> Registry:
    """Open the registry; ``read_only`` commands refuse a chosen SQLite file that does not exist."""
    if read_only:
        from schemarouter.registry.database import require_existing

        require_existing(db_url)
    return Registry.open(db_url)


def print_json(data: Any) -> None:
    """Print data as indented JSON, non-ASCII kept as written."""
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def console() -> Console:
    """Rich console; when output is piped, wide enough that tables do not wrap mid-name."""
    import sys

    return Console(soft_wrap=False, width=None if sys.stdout.isatty() else 200)
