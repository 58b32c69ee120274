"""``schemarouter registry``: sync installed plugins into the registry and inspect it."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.table import Table

from schemarouter.checks.declarations import check_sources, enforce, summary
from schemarouter.cli import graph_cmd
from schemarouter.cli.options import (
    console,
    db_option,
    json_option,
    local_sources,
    local_unit_from,
    open_registry,
    plugin_unit_from,
    print_json,
    registry_exists,
    strict_option,
)
from schemarouter.cli.progress import progress
from schemarouter.declarations import collect
from schemarouter.errors import SchemaRouterError
from schemarouter.models import Source
from schemarouter.plugins import plugin_manager
from schemarouter.registry import display


@click.group()
def registry() -> None:
    """The registry of sources, endpoints, parameters and fields (SQLite or Postgres)."""


@registry.command()
@db_option
@json_option
@strict_option
def sync(db_url: str | None, as_json: bool, strict: bool) -> None:
    """Write every installed plugin's declarations into the registry, in one transaction.

    Idempotent: a second sync changes nothing and says so. Sources of uninstalled plugins
    are removed; local sources (schemarouter source add) are kept. A bad declaration aborts
    the sync and leaves the registry as it was. Declaration warnings (units, license ids,
    names two sources share) are counted; schemarouter registry check lists them.
    """
    decls = collect(plugin_manager())
    with open_registry(db_url) as reg:
        local = local_sources(reg)
        found = check_sources({**local, **decls.sources}, unit_from=plugin_unit_from(decls.sources),
                              only=decls.sources)
        enforce(found, strict)
        with progress("sources", len(decls.sources)) as advance:
            report = reg.sync(decls, advance)
    if as_json:
        print_json({**report.as_dict(), "warnings": [w.as_dict() for w in found]})
        return
    click.echo(report.summary())
    if found:
        click.echo(f"warning: {summary(found)}; list them: schemarouter registry check", err=True)


@registry.command()
@db_option
@json_option
@strict_option
def check(db_url: str | None, as_json: bool, strict: bool) -> None:
    """List the declaration warnings of the installed plugins and the registry's local sources.

    Numeric fields without a unit, units pint does not know (with the nearest known spelling),
    license ids that are not SPDX ids or LicenseRef-..., names two sources share. Writes nothing;
    --strict exits 1 when there is any warning.
    """
    decls = collect(plugin_manager())
    local: dict[str, Source] = {}
    unit_from: dict[str, set[tuple[str, str]]] = {}
    if registry_exists(db_url):
        with open_registry(db_url) as reg:
            local = local_sources(reg)
            unit_from = {sid: local_unit_from(reg, sid) for sid in local}
    found = check_sources({**local, **decls.sources}, unit_from={**plugin_unit_from(decls.sources), **unit_from})
    if as_json:
        print_json({"warnings": [w.as_dict() for w in found]})
    else:
        for item in found:
            click.echo(f"warning: {item.line()}")
        click.echo(summary(found) if found else f"no declaration warnings ({len(decls.sources) + len(local)} sources)")
    if strict and found:
        sys.exit(1)


@registry.command(name="list")
@db_option
@json_option
def list_(db_url: str | None, as_json: bool) -> None:
    """List the sources in the registry."""
    with open_registry(db_url, read_only=True) as reg:
        rows = reg.list_sources()
    if as_json:
        print_json(rows)
        return
    if not rows:
        click.echo("the registry has no sources; run: schemarouter registry sync")
        return
    table = Table("source", "title", "type", "endpoints", "fields", "from")
    for r in rows:
        owner = r["owner"]
        origin = f"{owner['name']} {owner['version']}" if owner["kind"] == "plugin" else "local"
        table.add_row(r["id"], r["title"], r["source_type"], str(r["endpoints"]), str(r["fields"]), origin)
    console().print(table)


@registry.command()
@click.argument("source_id")
@db_option
@json_option
def show(source_id: str, db_url: str | None, as_json: bool) -> None:
    """Show one source with its endpoints, parameters and fields."""
    with open_registry(db_url, read_only=True) as reg:
        source, owner = reg.source(source_id)
    if as_json:
        print_json(source.model_dump(mode="json", by_alias=True))
        return
    out = console()
    out.print(f"[bold]{source.id}[/bold]: {source.title} ({source.source_type.value}, {source.domain})")
    out.print(f"license: {source.license.id} — {source.license.attribution or source.license.name}")
    if source.auth:
        out.print(f"auth: ${source.auth.env} sent as {source.auth.location} {source.auth.name}")
    out.print(f"from: {owner.label}")
    for ep in source.endpoints:
        out.print(f"\n[bold]{ep.id}[/bold] {ep.method} {ep.base_url}{ep.path}  intents: {', '.join(ep.intents)}")
        params = Table("parameter", "type", "required", "concept")
        for p in ep.parameters:
            params.add_row(p.name, p.type, "yes" if p.required else "", p.concept or "")
        out.print(params)
        fields = Table("field", "type", "unit", "group", "concepts", "path")
        for f in ep.fields:
            name = f"{f.name} (id)" if f.identifier else f.name
            fields.add_row(name, f.type, f.unit or "", f.group, ", ".join(f.concepts), f.path)
        out.print(fields)


@registry.command()
@db_option
@json_option
def stats(db_url: str | None, as_json: bool) -> None:
    """Counts of everything in the registry, and its fingerprint."""
    with open_registry(db_url, read_only=True) as reg:
        data = reg.stats()
        url = display(reg.engine.url)
    if as_json:
        print_json({"url": url, **data})
        return
    c = data["counts"]
    click.echo(f"registry {url}")
    click.echo(
        f"{c['sources']} sources / {c['endpoints']} endpoints / {c['parameters']} parameters / {c['fields']} fields"
    )
    click.echo(
        f"{c['intents']} intents, {c['field_groups']} field groups, {c['concepts']} concepts, {c['licenses']} licenses"
    )
    click.echo(
        f"aliases: {c['source_aliases']} source, {c['field_aliases']} field, {c['concept_aliases']} concept"
    )
    by_type = ", ".join(f"{k} {v}" for k, v in data["fields_by_source_type"].items())
    click.echo(f"fields by source type: {by_type or '-'}")
    click.echo(f"fingerprint {data['fingerprint'] or '(never synced)'}, synced at {data['synced_at'] or '-'}")


@registry.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@db_option
def export(file: str, db_url: str | None) -> None:
    """Write the whole registry as one frozen JSON document (FILE, or - for stdout)."""
    with open_registry(db_url, read_only=True) as reg:
        data = reg.export_bytes()
    if file == "-":
        sys.stdout.buffer.write(data)
        return
    try:
        Path(file).write_bytes(data)
    except OSError as err:
        raise SchemaRouterError(f"cannot write {file}: {err.strerror}") from None
    click.echo(f"exported the registry to {file} ({len(data)} bytes)")


@registry.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False))
@db_option
@json_option
def import_(file: str, db_url: str | None, as_json: bool) -> None:
    """Replace the registry's contents with an export FILE (validated before anything is written)."""
    from schemarouter.registry import parse_export

    decls = parse_export(file)
    with open_registry(db_url) as reg, progress("sources", len(decls.sources)) as advance:
        report = reg.replace(decls, advance)
    if as_json:
        print_json(report.as_dict())
    else:
        click.echo(f"imported {file}: {len(decls.sources)} sources (fingerprint {report.fingerprint})")


registry.add_command(graph_cmd.graph)
