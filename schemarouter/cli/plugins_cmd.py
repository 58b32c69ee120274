"""``schemarouter plugins``: which plugins are installed and what each registers."""

from __future__ import annotations

import click
from rich.table import Table

from schemarouter.cli.options import console, json_option, print_json
from schemarouter.declarations import summarize
from schemarouter.plugins import plugin_manager


@click.command()
@json_option
def plugins(as_json: bool) -> None:
    """List installed plugins with their version and what each registers.

    SCHEMAROUTER_LOAD_PLUGINS (comma list of plugin or distribution names) restricts which
    installed plugins load.
    """
    summaries = summarize(plugin_manager())
    if as_json:
        print_json([s.as_dict() for s in summaries])
        return
    table = Table("plugin", "distribution", "version", "registers")
    for s in summaries:
        parts = []
        for label, items in [("sources", s.sources), ("intents", s.intents), ("field groups", s.field_groups),
                             ("concepts", s.concepts), ("adapters", s.adapters),
                             ("understanders", s.understanders), ("commands", s.commands)]:
            if items:
                shown = ", ".join(items[:6]) + (", …" if len(items) > 6 else "")
                parts.append(f"{len(items)} {label}: {shown}")
        table.add_row(s.info.name, s.info.distribution, s.info.version, "\n".join(parts) or "-")
    console().print(table)
