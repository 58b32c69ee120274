"""``schemarouter source``: the user's own (local) sources, declared in YAML or imported from OpenAPI, an MCP
server or a SQL database.

Local sources live in the registry beside plugin sources; ``registry sync`` keeps them. Every
command validates its input completely before it opens a write transaction, so an error
leaves the registry as it was.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.table import Table

from schemarouter.checks.declarations import DeclarationWarning, check_sources, enforce
from schemarouter.cli.options import console, db_option, json_option, open_registry, print_json, strict_option
from schemarouter.errors import SchemaRouterError
from schemarouter.registry import Registry, SyncReport
from schemarouter.registry.local import add_local_source, check_local_source
from schemarouter.sources.local import LocalSource, label_for, load_local_source_file
from schemarouter.sources.mcp import McpServer

if TYPE_CHECKING:
    from schemarouter.openapi.report import ImportReport
    from schemarouter.sqlsource.report import SqlImportReport


@click.group()
def source() -> None:
    """Your own sources, without writing a plugin: add a YAML file, import an OpenAPI document, an MCP server or a database."""


@source.command()
@click.argument("file", type=click.Path(dir_okay=False))
@db_option
@json_option
@strict_option
def add(file: str, db_url: str | None, as_json: bool, strict: bool) -> None:
    """Add (or update) a local source from a YAML FILE with the Source schema.

    Each endpoint may carry an ``adapter:`` block (records, locations, fixed, unit_from, notes)
    telling the generic HTTP adapter how to call it. See docs/private-sources.md. Declaration
    warnings (units, license id, a name another source has) are printed; --strict refuses them.
    """
    local = load_local_source_file(file)
    with open_registry(db_url) as reg:
        found = _warnings(reg, local, strict)
        report = add_local_source(reg, local, label_for(file))
    _print_report(report, local.source.id, file, as_json, found)


@source.command()
@click.argument("source_id")
@db_option
@json_option
def remove(source_id: str, db_url: str | None, as_json: bool) -> None:
    """Remove the local source SOURCE_ID (plugin sources go away by uninstalling the plugin)."""
    with open_registry(db_url, read_only=True) as reg:
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
    with open_registry(db_url, read_only=True) as reg:
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
@click.argument("specs", nargs=-1, required=True, type=click.Path())
@click.option("--id", "source_id", help="Source id to store it under (lower_snake_case); one document only. "
                                        "Default: the overlay's id, else the file name.")
@click.option("--overlay", type=click.Path(dir_okay=False),
              help="YAML overlay: what OpenAPI cannot say (for a catalogue: every document without a "
                   "NAME.overlay.yaml beside it).")
@click.option("--all-or-nothing", is_flag=True, help="A catalogue: if any document fails, write none.")
@click.option("--dry-run", is_flag=True, help="Validate and report; write nothing.")
@click.option("--write-yaml", type=click.Path(dir_okay=False), help="Also write the source as YAML (for source add).")
@db_option
@json_option
@strict_option
def import_openapi(
    specs: tuple[str, ...], source_id: str | None, overlay: str | None, all_or_nothing: bool, dry_run: bool,
    write_yaml: str | None, db_url: str | None, as_json: bool, strict: bool,
) -> None:
    """Turn OpenAPI 3.0/3.1 or Swagger 2.0 documents (JSON or YAML) into local sources.

    SPECS is one document, or several documents and folders (a catalogue: every JSON and YAML file
    under a folder), all mapped in this process and stored in one registry transaction. Each gets its
    id from its overlay's `id`, else its file name; a document that fails is reported and the others
    are stored (--all-or-nothing: none is). Exit 3 when some documents failed.

    --dry-run maps and checks everything against the registry (vocabulary, ids) but writes nothing.

    GET operations (and POSTs that only search or list) become read endpoints, other POST, PUT,
    PATCH and DELETE operations write endpoints that run only with `run --allow-writes SOURCE`.
    Query, path and JSON body parameters become parameters, response schema properties fields.
    Source type, license, concepts, aliases, field groups and units come from the --overlay
    (units also from x-unit, or a numeric field's name or description, as the report notes).
    The report (printed on success and on refusal, in --json too) lists every construct that
    was not mapped, and notes.
    """
    from schemarouter.checks.units import check_known
    from schemarouter.openapi import import_openapi as run_import
    from schemarouter.openapi.yamlout import local_source_yaml

    if len(specs) > 1 or Path(specs[0]).is_dir():
        from schemarouter.cli.catalogue import import_catalogue

        if source_id or write_yaml:
            raise click.UsageError("--id and --write-yaml name one document's source; a catalogue's ids come "
                                   "from overlays (id:) or file names")
        import_catalogue(specs, overlay, all_or_nothing, dry_run, db_url, as_json, strict)
        return
    spec = specs[0]
    result = None
    report = None
    try:
        result = run_import(spec, source_id, overlay, unit_known=check_known)
        source_id = result.local.source.id
        with open_registry(db_url) as reg:
            found = _warnings(reg, result.local, strict)
            if dry_run:  # the registry's checks too (vocabulary, plugin-owned ids), without writing
                check_local_source(reg, result.local, label_for(spec))
            else:
                report = add_local_source(reg, result.local, label_for(spec))
    except SchemaRouterError as err:
        # The refusal is one line on stderr (cli.main prints it); what was mapped so far goes to stdout.
        partial = getattr(err, "report", None) or (result.report if result is not None else None)
        if as_json:
            print_json({"error": str(err), "report": partial.as_dict() if partial is not None else None})
        elif partial is not None and partial.openapi_version:  # an overlay refused before the document was read: no summary
            _echo_import_report(partial)
        raise
    if write_yaml:
        Path(write_yaml).write_text(local_source_yaml(result.local), encoding="utf-8")
    if as_json:
        data = result.report.as_dict()
        data["registry"] = report.as_dict() if report else None
        data["warnings"] = [w.as_dict() for w in found]
        print_json(data)
        return
    _echo_warnings(found)
    _echo_import_report(result.report)
    if report is not None:
        _print_report(report, source_id, spec, False)
    else:
        click.echo("dry run: nothing written")


@source.command(name="import-mcp", context_settings={"ignore_unknown_options": True})
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@click.option("--id", "source_id", required=True, help="Source id to store it under (lower_snake_case).")
@click.option("--url", help="A streamable HTTP MCP server's URL (instead of -- COMMAND [ARGS...]).")
@click.option("--overlay", type=click.Path(dir_okay=False), help="YAML overlay: what the server cannot say.")
@click.option("--env", "env_names", multiple=True, metavar="NAME",
              help="Environment variable handed to a stdio server (its name is stored, never its value).")
@click.option("--cwd", type=click.Path(file_okay=False), help="Working directory of a stdio server.")
@click.option("--sample", "sample_calls", multiple=True, metavar="TOOL=JSON",
              help="Call this read tool once with these JSON arguments: fields for a tool without an outputSchema.")
@click.option("--samples", type=click.Path(dir_okay=False),
              help="Recorded MCP calls (*.mcp.yaml): fields for tools without an outputSchema; --sample results "
                   "are added to it.")
@click.option("--timeout", "timeout_s", type=float, default=30.0, show_default=True,
              help="Seconds the server may take to start and to answer each request.")
@click.option("--dry-run", is_flag=True, help="Validate and report; write nothing.")
@click.option("--write-yaml", type=click.Path(dir_okay=False), help="Also write the source as YAML (for source add).")
@db_option
@json_option
@strict_option
def import_mcp(
    command: tuple[str, ...], source_id: str, url: str | None, overlay: str | None, env_names: tuple[str, ...],
    cwd: str | None, sample_calls: tuple[str, ...], samples: str | None, timeout_s: float, dry_run: bool,
    write_yaml: str | None, db_url: str | None, as_json: bool, strict: bool,
) -> None:
    """Turn the tools of an MCP server into a local source: -- COMMAND [ARGS...] (stdio) or --url URL.

    Connects with the official MCP client and lists the tools: each becomes an endpoint, its
    inputSchema properties parameters, its outputSchema properties fields (nested ones joined as
    import-openapi joins them), its description and annotations the endpoint's text. Tools whose
    annotations say they change data (readOnlyHint: false, destructiveHint) become write endpoints,
    called only with `run --allow-writes SOURCE`. A tool without an outputSchema takes fields from the
    overlay, --samples or --sample; the report names those tools. Units, source type, license and
    concepts come from the --overlay, as for import-openapi. The command line or URL is stored, and
    of secrets only the names of environment variables.
    """
    from schemarouter.execution.mcp_cassettes import Interaction, write_recording
    from schemarouter.mcpimport import import_mcp as run_import
    from schemarouter.openapi.yamlout import local_source_yaml

    server = _mcp_server(command, url, env_names, cwd)
    calls = _sample_calls(sample_calls)
    label = f"mcp: {server.label()}"
    result = None
    report = None
    try:
        result = run_import(server, source_id, overlay, samples=samples, sample_calls=calls, timeout_s=timeout_s)
        with open_registry(db_url) as reg:
            found = _warnings(reg, result.local, strict)
            if dry_run:
                check_local_source(reg, result.local, label)
            else:
                report = add_local_source(reg, result.local, label)
    except SchemaRouterError as err:
        partial = getattr(err, "report", None) or (result.report if result is not None else None)
        if as_json:
            print_json({"error": str(err), "report": partial.as_dict() if partial is not None else None})
        elif partial is not None and partial.openapi_version:  # an overlay refused before the document was read: no summary
            _echo_import_report(partial)
        raise
    if samples and result.samples:
        write_recording(Path(samples), [Interaction(source_id, tool, args, raw)
                                        for tool, (args, raw) in result.samples.items()])
    if write_yaml:
        Path(write_yaml).write_text(local_source_yaml(result.local), encoding="utf-8")
    if as_json:
        data = result.report.as_dict()
        data["registry"] = report.as_dict() if report else None
        data["warnings"] = [w.as_dict() for w in found]
        print_json(data)
        return
    _echo_warnings(found)
    _echo_import_report(result.report)
    if report is not None:
        _print_report(report, source_id, server.label(), False)
    else:
        click.echo("dry run: nothing written")


@source.command(name="import-sql")
@click.argument("url")
@click.option("--id", "source_id", required=True, help="Source id to store it under (lower_snake_case).")
@click.option("--overlay", type=click.Path(dir_okay=False), help="YAML overlay: title, source type, license, units...")
@click.option("--schema", "db_schema", metavar="S", help="The database schema to read (default: the default one).")
@click.option("--table", "tables", multiple=True, metavar="T",
              help="Import only this table or view (repeatable; shell patterns such as 'lab_*').")
@click.option("--password-env", metavar="NAME",
              help="The environment variable the password is read from at run time (default: ID_PASSWORD "
                   "when the URL has one; the overlay's auth_env).")
@click.option("--dry-run", is_flag=True, help="Reflect, map and check; write nothing.")
@click.option("--write-yaml", type=click.Path(dir_okay=False), help="Also write the source as YAML (for source add).")
@db_option
@json_option
@strict_option
def import_sql(
    url: str, source_id: str, overlay: str | None, db_schema: str | None, tables: tuple[str, ...],
    password_env: str | None, dry_run: bool, write_yaml: str | None, db_url: str | None, as_json: bool, strict: bool,
) -> None:
    """Turn a SQLite or PostgreSQL database (a SQLAlchemy URL) into a local source.

    \b
    Tables and views become endpoints, columns response fields, key, indexed, text and numeric
    columns filter parameters, and foreign keys links (a chain can go from a sample's name to its
    measurements). Source type, license and units come from the --overlay (units also from column
    comments). Queries run read-only, with every value bound, a row cap and a time limit.
    The URL's password is never stored or printed: the source reads it from --password-env.
    """
    from schemarouter.openapi.yamlout import local_source_yaml
    from schemarouter.sources.sql import shown_url
    from schemarouter.sqlsource import Vocabulary
    from schemarouter.sqlsource import import_sql as run_import

    result = None
    report = None
    try:
        with open_registry(db_url) as reg:
            current = reg.load()
            vocabulary = Vocabulary(frozenset(current.concepts), frozenset(current.field_groups))
            result = run_import(url, source_id, overlay, schema=db_schema, tables=tables,
                                password_env=password_env, vocabulary=vocabulary)
            found = _warnings(reg, result.local, strict)
            label = shown_url(result.local.source.endpoints[0].base_url)
            if dry_run:
                check_local_source(reg, result.local, label)
            else:
                report = add_local_source(reg, result.local, label)
    except SchemaRouterError as err:
        partial = getattr(err, "report", None) or (result.report if result is not None else None)
        if as_json:
            print_json({"error": str(err), "report": partial.as_dict() if partial is not None else None})
        elif partial is not None:
            _echo_sql_report(partial)
        raise
    if write_yaml:
        Path(write_yaml).write_text(local_source_yaml(result.local), encoding="utf-8")
    if as_json:
        data = result.report.as_dict()
        data["registry"] = report.as_dict() if report else None
        data["warnings"] = [w.as_dict() for w in found]
        print_json(data)
        return
    _echo_warnings(found)
    _echo_sql_report(result.report)
    if report is not None:
        _print_report(report, source_id, result.report.url, False)
    else:
        click.echo("dry run: nothing written")


def _echo_sql_report(report: SqlImportReport) -> None:
    click.echo(report.summary())
    for item in report.unmapped:
        click.echo(f"  not mapped: {item.line()}")
    if report.excluded:
        click.echo(f"  left out by the overlay: {', '.join(report.excluded[:20])}"
                   + (f" (+{len(report.excluded) - 20} more)" if len(report.excluded) > 20 else ""))
    for note in report.notes:
        click.echo(f"  note: {note}")


def _mcp_server(command: tuple[str, ...], url: str | None, env_names: tuple[str, ...], cwd: str | None) -> McpServer:
    """The server to import from the command line, or a usage error saying what is missing or extra."""
    from pydantic import ValidationError

    if bool(command) == bool(url):
        raise click.UsageError("give either --url URL or -- COMMAND [ARGS...] (a stdio server), not both or neither")
    argv = list(command)
    if argv and os.sep in argv[0] and not os.path.isabs(argv[0]):
        argv[0] = os.path.abspath(argv[0])  # stored: a relative path would depend on where `run` is started
    try:
        return McpServer(command=argv or None, url=url, env=list(env_names), cwd=os.path.abspath(cwd) if cwd else None)
    except ValidationError as exc:
        raise click.UsageError(str(exc.errors()[0].get("msg", "invalid server")).removeprefix("Value error, ")) from None


def _sample_calls(items: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """``TOOL=JSON`` options as tool -> arguments."""
    calls: dict[str, dict[str, Any]] = {}
    for item in items:
        tool, sep, text = item.partition("=")
        try:
            arguments = json.loads(text) if sep else {}
        except ValueError:
            raise click.UsageError(f"--sample {item}: the arguments are not JSON") from None
        if not tool or not isinstance(arguments, dict):
            raise click.UsageError(f"--sample {item}: expected TOOL=JSON-OBJECT")
        calls[tool] = arguments
    return calls


def _echo_import_report(report: ImportReport) -> None:
    click.echo(report.summary())
    schema_line = getattr(report, "schema_line", None)
    if schema_line is not None and schema_line():
        click.echo(f"  {schema_line()}")
    for item in report.unmapped:
        click.echo(f"  not mapped: {item.line()}")
    for note in report.notes:
        click.echo(f"  note: {note}")


def _warnings(reg: Registry, local: LocalSource, strict: bool) -> list[DeclarationWarning]:
    """The declaration warnings of one local source, names shared with any registry source included."""
    others = {sid: src for sid, src in reg.load().sources.items() if sid != local.source.id}
    unit_from = {(eid, name) for eid, spec in local.adapter_specs.items() for name in spec.unit_from}
    found = check_sources({**others, local.source.id: local.source}, unit_from={local.source.id: unit_from},
                          only=[local.source.id])
    enforce(found, strict)
    return found


def _echo_warnings(found: list[DeclarationWarning]) -> None:
    for item in found:
        click.echo(f"warning: {item.line()}", err=True)


def _print_report(report: SyncReport, source_id: str, file: str, as_json: bool,
                  found: list[DeclarationWarning] | None = None) -> None:
    if as_json:
        print_json({**report.as_dict(), "warnings": [w.as_dict() for w in found or []]})
        return
    _echo_warnings(found or [])
    if report.unchanged:
        click.echo(f"local source {source_id} unchanged (from {file})")
    else:
        verb = "added" if report.added else "updated"
        click.echo(f"{verb} local source {source_id} from {file} (fingerprint {report.fingerprint})")
