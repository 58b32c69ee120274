"""``schemarouter sources check``: does each source still answer, accept its key and fit its declaration?

Offline (the default) the check requests replay the cassettes, so the command works anywhere;
``--live`` sends them to the real APIs with the keys that are set. The text output is plain and
stable so it can be pasted into a bug report; ``--json`` carries the same facts.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Mapping
from contextlib import nullcontext
from typing import Any

import click

from schemarouter import __version__
from schemarouter.checks import probe
from schemarouter.cli.options import db_option, json_option, open_registry, print_json
from schemarouter.errors import SchemaRouterError
from schemarouter.execution.adapter import Adapter
from schemarouter.execution.mcp_cassettes import mcp_replay
from schemarouter.execution.registry_adapters import collect_adapters, stored_adapters
from schemarouter.models import Source
from schemarouter.sources import sql


@click.group()
def sources() -> None:
    """Check the registry's sources against the APIs (or their recordings)."""


@sources.command()
@click.argument("source_ids", nargs=-1, metavar="[SOURCE]...")
@click.option("--live", is_flag=True, help="Send the requests to the real APIs (keys from the environment).")
@click.option("--cassettes", metavar="DIR", type=click.Path(file_okay=False),
              help="Recordings to replay, and to take check requests from: a folder of <source id>/*.yaml (default: $SCHEMAROUTER_CASSETTES, else the recordings the installed plugins ship).")
@click.option("--timeout", "timeout_s", type=click.FloatRange(min=1), default=60.0, show_default=True,
              help="Seconds one source's check may take.")
@db_option
@json_option
def check(source_ids: tuple[str, ...], live: bool, cassettes: str | None, timeout_s: float,
          db_url: str | None, as_json: bool) -> None:
    """Send one small request per SOURCE (default: every source) and report what came back.

    \b
    Per source: reachable, key accepted, and whether the answer still matches the declaration
    (declared fields missing, undeclared keys, units that changed where the response states one).
    A missing key is reported for its source; the others are still checked. Exit status 1 when
    any source is drift, auth_failed, http_error, unreachable or error.
    """
    from schemarouter.execution.offline import offline_env, recording_folders, replay

    with open_registry(db_url, read_only=True) as reg:
        decls = reg.load()
    if not decls.sources:
        raise SchemaRouterError("the registry has no sources; run: schemarouter registry sync")
    unknown = [s for s in source_ids if s not in decls.sources]
    if unknown:
        import difflib

        close = difflib.get_close_matches(unknown[0], list(decls.sources), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise SchemaRouterError(f"no source {unknown[0]!r} in the registry{hint}")
    selected = [decls.sources[s] for s in (source_ids or sorted(decls.sources))]
    installed = collect_adapters()
    # a database source is checked table by table (checks.sqlcheck), the others with one request each
    databases = {s.id for s in selected if s.id not in installed and _is_database(decls.adapter_specs.get(s.id))}
    stored = stored_adapters({sid: specs for sid, specs in decls.adapter_specs.items()
                              if sid in {s.id for s in selected} and sid not in databases})
    adapters: dict[str, Adapter | None] = {}
    for source in selected:
        adapters[source.id] = installed.get(source.id) or stored.get(source.id)
    recordings = recording_folders(cassettes)
    env: dict[str, str] = dict(os.environ)
    if not live:
        env = offline_env(env, [s.auth.env for s in selected if s.auth is not None])
    requested = [s for s in selected if s.id not in databases]
    with nullcontext() if live else replay(cassettes, sources=requested, projection="any"), \
            nullcontext() if live else mcp_replay(recordings.values()):
        checked = asyncio.run(probe.check_all(requested, adapters, env, recordings, offline=not live,
                                              timeout_s=timeout_s))
    by_source = {r.source: [r] for r in checked}
    for source in [s for s in selected if s.id in databases]:
        by_source[source.id] = asyncio.run(_check_database(source, decls.adapter_specs[source.id], env, live, timeout_s))
    results = [r for s in selected for r in by_source.get(s.id, [])]
    mode = "live" if live else "offline"
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    if as_json:
        print_json({"schemarouter": __version__, "mode": mode, "cassettes": None if live else (cassettes or "the plugins' recordings"),
                    "counts": dict(sorted(counts.items())), "sources": [r.as_dict() for r in results]})
    else:
        origin = "live APIs" if live else f"recordings in {cassettes}" if cassettes else "the plugins' recordings"
        click.echo(f"schemarouter {__version__} sources check, {mode} ({origin})")
        for r in results:
            click.echo(r.line())
        tables = f" ({len(results)} checks: a database is checked per table)" if databases and live else ""
        click.echo(f"{len(selected)} sources{tables}: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())))
    if any(r.status in probe.FAILING for r in results):
        sys.exit(1)


def _is_database(specs: Mapping[str, Any] | None) -> bool:
    return bool(specs) and any((raw or {}).get("protocol") == sql.PROTOCOL for raw in (specs or {}).values())


async def _check_database(source: Source, specs: Mapping[str, Any], env: Mapping[str, str], live: bool,
                          timeout_s: float) -> list[probe.SourceCheck]:
    """A database source: one line per endpoint, live; offline it is not read (no recording stands in for it)."""
    if not live:
        return [probe.SourceCheck(source.id, None, probe.SKIPPED, "a database source: check it with --live "
                                  "(one read-only SELECT ... LIMIT 1 per table)",
                                  key_env=source.auth.env if source.auth else None)]
    from schemarouter.checks.sqlcheck import check_sql_source

    return await check_sql_source(source, specs, env, timeout_s)
