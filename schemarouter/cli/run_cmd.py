"""``schemarouter run QUESTION``: plan, execute, and show attributed values.

Planning uses the router (``schemarouter.router``); ``--plan FILE`` executes a saved plan
(``schemarouter plan --json`` output) instead, and ``--jsonl FILE`` runs a batch of questions. What
this command shares with ``ask`` and ``plan`` is in :mod:`schemarouter.cli.running`.
"""

from __future__ import annotations

import json

import click

from schemarouter.cli import exit_codes
from schemarouter.cli.batch import open_output, read_batch
from schemarouter.cli.options import db_option, json_option, print_json
from schemarouter.cli.progress import progress
from schemarouter.cli.running import echo_result, execute, make_router, offline_options
from schemarouter.execution.limits import ExecutionLimits, resolve_limits


def _run_batch(path: str, output: str | None, db_url: str | None, mode: str, offline: bool, cassettes: str | None,
               cache: bool, fallback: bool, limits: ExecutionLimits | None = None,
               allow_writes: tuple[str, ...] = ()) -> int:
    rows = read_batch(path)
    router = make_router(db_url)
    statuses: list[str] = []
    out = open_output(output)
    try:
        with progress("questions", len(rows)) as advance:
            for row in rows:
                _plan, result = execute(row["query"], db_url, mode, None, offline, cassettes, cache, fallback, router,
                                        limits, allow_writes)
                document = {"id": row.get("id"), **result.to_json(offline)}
                out.write(json.dumps(document, ensure_ascii=False) + "\n")
                out.flush()
                statuses.append(result.status)
                advance(1)
    finally:
        if output:
            out.close()
    if output:
        click.echo(f"wrote {len(statuses)} result(s) to {output}", err=True)
    return exit_codes.for_batch(statuses)


@click.command("run", epilog=exit_codes.HELP)
@click.argument("question", required=False)
@db_option
@json_option
@offline_options
@click.option("--jsonl", "jsonl", type=click.Path(dir_okay=False, allow_dash=True), default=None, metavar="FILE",
              help='Run every {"id", "query"} line of FILE ("question" works for "query"; - for stdin); '
                   'write one JSON result per line.')
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="With --jsonl: write to FILE.")
@click.option("--allow-writes", "allow_writes", multiple=True, metavar="SOURCE",
              help="Let write endpoints (POST/PUT/PATCH/DELETE that change data) of SOURCE run (repeatable; "
                   "also SCHEMAROUTER_ALLOW_WRITES=src1,src2). Without it a write step fails, nothing is sent.")
def run(question: str | None, db_url: str | None, as_json: bool, mode: str, plan_file: str | None, offline: bool,
        cassettes: str | None, no_cache: bool, no_fallback: bool, timeout: float | None, deadline: float | None,
        jsonl: str | None, output: str | None, allow_writes: tuple[str, ...]) -> None:
    """Plan QUESTION, fetch the planned fields, and print values with unit, source, provenance and license.

    Live results are cached (per-source TTL; --no-cache skips it); a step that fails for a reason of its
    source's (no key, network, 5xx, timeout) is answered by an equivalent source where one exists
    (--no-fallback turns that off).
    """
    limits = resolve_limits(timeout=timeout, deadline=deadline)
    if jsonl is not None:
        if question or plan_file:
            raise click.UsageError("--jsonl runs the questions in FILE: give no QUESTION or --plan with it")
        raise click.exceptions.Exit(_run_batch(jsonl, output, db_url, mode, offline, cassettes, not no_cache,
                                               not no_fallback, limits, allow_writes))
    _plan, result = execute(question, db_url, mode, plan_file, offline, cassettes, not no_cache, not no_fallback,
                            limits=limits, allow_writes=allow_writes)
    if as_json:
        print_json(result.to_json(offline))
    else:
        echo_result(result, offline)
    raise click.exceptions.Exit(exit_codes.for_status(result.status))
