"""``schemarouter sources check``: does each source still answer, accept its key and fit its declaration?

Offline (the default) the check requests replay the cassettes, so the command works anywhere;
``--live`` sends them to the real APIs with the keys that are set. The text output is plain and
stable so it can be pasted into a bug report; ``--json`` carries the same facts.
"""

from __future__ import annotations

import asyncio
import os
import sys
from contextlib import nullcontext

import click

from schemarouter import __version__
from schemarouter.checks import probe
from schemarouter.cli.options import db_option, json_option, open_registry, print_json
from schemarouter.errors import SchemaRouterError
from schemarouter.execution.adapter import Adapter
from schemarouter.execution.mcp_cassettes import mcp_replay
from schemarouter.execution.registry_adapters import collect_adapters, stored_adapters


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
    adapters: dict[str, Adapter | None] = {}
    for source in selected:
        if source.id in installed:
            adapters[source.id] = installed[source.id]
        elif source.id in decls.adapter_specs:  # the generic adapter of its protocol (HTTP, MCP, ...)
            adapters[source.id] = stored_adapters({source.id: decls.adapter_specs[source.id]})[source.id]
        else:
            adapters[source.id] = None
    recordings = recording_folders(cassettes)
    env: dict[str, str] = dict(os.environ)
    if not live:
        env = offline_env(env, [s.auth.env for s in selected if s.auth is not None])
    with nullcontext() if live else replay(cassettes, sources=selected), \
            nullcontext() if live else mcp_replay(recordings.values()):
        results = asyncio.run(probe.check_all(selected, adapters, env, recordings, offline=not live,
                                              timeout_s=timeout_s))
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
        click.echo(f"{len(results)} sources: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())))
    if any(r.status in probe.FAILING for r in results):
        sys.exit(1)
