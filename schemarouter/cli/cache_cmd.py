"""``schemarouter cache stats|clear``: inspect and empty the response cache of live runs."""

from __future__ import annotations

import click
from rich.table import Table

from schemarouter.cli.options import console, json_option, print_json
from schemarouter.execution.cache import StepCache, cache_settings


def _cache() -> StepCache:
    settings = cache_settings()
    if settings.backend != "sqlite":  # the shared Redis cache the config file names
        from schemarouter.execution.redis_cache import RedisStepCache

        return RedisStepCache(settings.backend, settings.default_ttl)
    return StepCache(settings.path, settings.default_ttl)


@click.group("cache")
def cache() -> None:
    """The response cache of live runs (under the data directory; SCHEMAROUTER_CACHE_DIR moves it).

    \b
    Each source's responses are reused for its declared cache_ttl (default: a day); run --no-cache
    skips the cache for one run, SCHEMAROUTER_CACHE=0 for every run. Offline replay never uses it.
    """


@cache.command("stats")
@json_option
def stats(as_json: bool) -> None:
    """Entries, hits, misses and writes per source, and the cache file's size."""
    found = _cache().stats()
    if as_json:
        print_json({"path": found.path, "bytes": found.bytes, "entries": found.entries,
                    "sources": {k: vars(v) for k, v in sorted(found.sources.items())}})
        return
    out = console()
    out.print(f"cache {found.path}: {found.entries} entries, {found.bytes:,} bytes")
    if not found.sources:
        return
    table = Table("source", "entries", "expired", "hits", "misses", "writes")
    for name, s in sorted(found.sources.items()):
        table.add_row(name, str(s.entries), str(s.expired), str(s.hits), str(s.misses), str(s.writes))
    out.print(table)


@cache.command("clear")
@click.option("--source", metavar="ID", help="Only this source's entries.")
@click.option("--expired", is_flag=True, help="Only entries past their TTL.")
def clear(source: str | None, expired: bool) -> None:
    """Delete cached responses (all of them, one source's, or only expired ones)."""
    removed = _cache().clear(source, expired_only=expired)
    click.echo(f"removed {removed} cached response(s)" + (f" of {source}" if source else ""))
