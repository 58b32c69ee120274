"""``schemarouter keys``: which API keys the installed sources read, which are set, where to get each.

Keys live only in environment variables (a declaration names the variable, ``auth.env``). This
command reads the same declarations the executor does (installed plugins, plus the registry's
local sources when the registry exists) and reports, per variable, whether it is set. A value is
never printed, not even in part.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import click
from rich.table import Table

from schemarouter.cli.options import (
    console,
    db_option,
    json_option,
    local_sources,
    open_registry,
    print_json,
    registry_exists,
)
from schemarouter.declarations import collect
from schemarouter.execution.adapter import auth_required
from schemarouter.execution.registry_adapters import collect_adapters
from schemarouter.models import Source
from schemarouter.plugins import plugin_manager


@dataclass
class KeyInfo:
    """One environment variable and the sources that read it."""

    env: str
    sources: list[str] = field(default_factory=list)
    required_by: list[str] = field(default_factory=list)
    sent_as: list[str] = field(default_factory=list)
    where: list[str] = field(default_factory=list)

    def is_set(self, environ: Mapping[str, str]) -> bool:
        """Whether the variable holds a non-blank value in ``environ``."""
        return bool((environ.get(self.env) or "").strip())

    def as_dict(self, environ: Mapping[str, str]) -> dict[str, Any]:
        """The variable's entry for ``keys --json``."""
        return {"env": self.env, "set": self.is_set(environ), "required": bool(self.required_by),
                "sources": self.sources, "required_by": self.required_by, "sent_as": self.sent_as,
                "where_to_get": self.where}


def declared_keys(sources: Mapping[str, Source], required: Mapping[str, bool]) -> list[KeyInfo]:
    """The key variables ``sources`` declare, sorted by name; ``required``: source id -> key must be set."""
    keys: dict[str, KeyInfo] = {}
    for source_id in sorted(sources):
        source = sources[source_id]
        if source.auth is None:
            continue
        info = keys.setdefault(source.auth.env, KeyInfo(source.auth.env))
        info.sources.append(source_id)
        if required.get(source_id, True):
            info.required_by.append(source_id)
        sent = f"{source.auth.location} {source.auth.name}"
        if sent not in info.sent_as:
            info.sent_as.append(sent)
        where = source.auth.key_url or source.homepage
        if where and where not in info.where:
            info.where.append(where)
    return [keys[name] for name in sorted(keys)]


@click.command()
@db_option
@json_option
def keys(db_url: str | None, as_json: bool) -> None:
    """List every API key the installed sources declare, whether it is set, and where to get it.

    Values are never shown. A required key that is unset makes that source's steps fail before
    any request; an optional one only lifts a rate limit. Set keys as environment variables.
    """
    sources: dict[str, Source] = dict(collect(plugin_manager()).sources)
    if db_url is not None or registry_exists(None):
        with open_registry(db_url, read_only=True) as reg:
            sources.update(local_sources(reg))
    adapters = collect_adapters()
    # A local source runs through the generic adapter, which needs its declared key.
    required = {sid: auth_required(adapters[sid]) if sid in adapters else True for sid in sources}
    found = declared_keys(sources, required)
    environ = os.environ
    if as_json:
        print_json([info.as_dict(environ) for info in found])
        return
    if not found:
        click.echo(f"no installed source declares a key ({len(sources)} sources)")
        return
    table = Table("variable", "set", "required", "sources", "sent as", "where to get it")
    for info in found:
        table.add_row(
            info.env, "yes" if info.is_set(environ) else "no",
            "yes" if info.required_by else "optional", ", ".join(info.sources), ", ".join(info.sent_as),
            ", ".join(info.where) or "-",
        )
    console().print(table)
    unset = [i.env for i in found if i.required_by and not i.is_set(environ)]
    done = sum(1 for i in found if i.is_set(environ))
    tail = f"; unset required: {', '.join(unset)} (those sources' steps fail before any request)" if unset else ""
    click.echo(f"{len(found)} keys declared, {done} set{tail}. Values are read only from the environment "
               f"and never shown.")
