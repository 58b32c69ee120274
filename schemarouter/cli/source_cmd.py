"""``schemarouter source``: the user's own (local) sources, declared in YAML or imported from OpenAPI.

Local sources live in the registry beside plugin sources; ``registry sync`` keeps them. Every
command validates its input completely before it opens a write transaction, so an error
leaves the registry as it was.
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from schemarouter.cli.options import console, db_option, json_option, open_registry, print_json
from schemarouter.local_sources import add_local_source, check_local_source, label_for, load_local_source_file
from schemarouter.registry import SyncReport


@click.group()
def source() -> None:
    """Your own sources, without writing a plugin: add a YAML file, import an OpenAPI document."""


@source.command()
@click.argument("file", type=click.Path(dir_okay=False))
@db_option
@json_option
def add(file: str, db_url: str | None, as_json: bool) -> None:
    """Add (or update) a local source from a YAML FILE with the Source schema.

    Each endpoint may carry an ``adapter:`` block (records, locations, fixed, unit_from, notes)
    telling the generic HTTP adapter how to call it. See docs/private-sources.md.
    """
    local = load_local_source_file(file)
    with open_registry(db_url) as reg:
        report = add_local_source(reg, local, label_for(file))
    _print_report(report, local.source.id, file, as_json)


@source.command()
@click.argument("source_id")
@db_option
@json_option
def remove(source_id: str, db_url: str | None, as_json: bool) -> None:
    """Remove the local source SOURCE_ID (plugin sources go away by uninstalling the plugin)."""
    with open_registry(db_url) as reg:
        report = reg.remove_local(source_id)
    if as_json:
        print_json(report.as_dict())
    else:
        click.echo(f"removed local source {source_id} (fingerprint {report.fingerprint})")


@source.command(name="list")
@db_option
@json_option
def list_(db_url: str | None, as_json: bool) -> None:
    """List the local sources in the registry."""
    with open_registry(db_url) as reg:
        rows = [r for r in reg.list_sources() if r["owner"]["kind"] == "local"]
        for row in rows:
            row["adapter_specs"] = sorted(reg.adapter_specs(row["id"]))
    if as_json:
        print_json(rows)
        return
    if not rows:
        click.echo("no local sources; add one with: schemarouter source add FILE.yaml")
        return
    table = Table("source", "title", "type", "endpoints", "fields", "from")
    for r in rows:
        table.add_row(r["id"], r["title"], r["source_type"], str(r["endpoints"]), str(r["fields"]),
                      r["owner"]["name"])
    console().print(table)


@source.command(name="import-openapi")
@click.argument("spec", type=click.Path(dir_okay=False))
@click.option("--id", "source_id", required=True, help="Source id to store it under (lower_snake_case).")
@click.option("--overlay", type=click.Path(dir_okay=False), help="YAML overlay: what OpenAPI cannot say.")
@click.option("--dry-run", is_flag=True, help="Validate and report; write nothing.")
@click.option("--write-yaml", type=click.Path(dir_okay=False), help="Also write the source as YAML (for source add).")
@db_option
@json_option
def import_openapi(
    spec: str, source_id: str, overlay: str | None, dry_run: bool, write_yaml: str | None,
    db_url: str | None, as_json: bool,
) -> None:
    """Turn an OpenAPI 3.0/3.1 document (JSON or YAML) into a local source.

    --dry-run maps and checks everything against the registry (vocabulary, ids) but writes nothing.

    GET operations become endpoints, query and path parameters become parameters, response
    schema properties become fields. Units, source type, license, concepts, aliases and field
    groups come from the --overlay. The report lists every construct that was not mapped.
    """
    from schemarouter.openapi import import_openapi as run_import
    from schemarouter.openapi.yamlout import local_source_yaml

    result = run_import(spec, source_id, overlay)
    report = None
    with open_registry(db_url) as reg:
        if dry_run:  # the registry's checks too (vocabulary, plugin-owned ids), without writing
            check_local_source(reg, result.local, label_for(spec))
        else:
            report = add_local_source(reg, result.local, label_for(spec))
    if write_yaml:
        Path(write_yaml).write_text(local_source_yaml(result.local), encoding="utf-8")
    if as_json:
        data = result.report.as_dict()
        data["registry"] = report.as_dict() if report else None
        print_json(data)
        return
    click.echo(result.report.summary())
    for line in result.report.unmapped_lines():
        click.echo(f"  not mapped: {line}")
    if report is not None:
        _print_report(report, source_id, spec, False)
    else:
        click.echo("dry run: nothing written")


def _print_report(report: SyncReport, source_id: str, file: str, as_json: bool) -> None:
    if as_json:
        print_json(report.as_dict())
        return
    if report.unchanged:
        click.echo(f"local source {source_id} unchanged (from {file})")
    else:
        verb = "added" if report.added else "updated"
        click.echo(f"{verb} local source {source_id} from {file} (fingerprint {report.fingerprint})")
