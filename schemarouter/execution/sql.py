"""SqlAdapter: run a database source's plan steps as read-only, bound, capped ``SELECT`` statements.

The generic adapter of ``protocol: sql`` (:mod:`schemarouter.execution.protocols`), made per source
per run from the adapter specs ``schemarouter source import-sql`` stored. One step is one
statement (:mod:`~schemarouter.execution.sqlquery`) run in a read-only transaction with a time
limit (:mod:`~schemarouter.execution.sqlconnect`) in a worker thread, since SQLAlchemy blocks. The
password, when the source declares one (``auth: {env: NAME, in: connection}``), comes from the
environment when the connection is made and appears nowhere else. Records are keyed by field
path, so the executor projects, casts and attributes them like any HTTP source's; the engines a
run opened are disposed by :meth:`SqlAdapter.aclose` when it ends.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import URL, Engine
from sqlalchemy.exc import SQLAlchemyError

from schemarouter.errors import SchemaRouterError
from schemarouter.execution import errors as E
from schemarouter.execution.adapter import FetchResult, StepCall
from schemarouter.execution.secrets import Secrets
from schemarouter.execution.sqlconnect import open_engine, read_rows, step_error
from schemarouter.execution.sqlquery import build_select, plain, size_of
from schemarouter.models import Source
from schemarouter.sources.spec import AdapterSpec
from schemarouter.sources.sql import SqlOptions, parse_db_url, shown_url, sql_options

# A worker thread that outlives its statement's time limit by this much is given up on (the
# database's own limit normally stops it first).
GRACE_S = 5.0


def connection_url(source: Source, base_url: str, env: Mapping[str, str]) -> URL:
    """The URL to connect with: the stored one plus the password from the variable the source names."""
    try:
        url = parse_db_url(base_url)
    except SchemaRouterError as err:
        raise E.InvalidStep(f"{source.id}: {err}") from None
    auth = source.auth
    if auth is not None and auth.location == "connection":
        password = env.get(auth.env) or None
        if password is not None:
            from schemarouter.execution.offline import PLACEHOLDER_KEY

            if password == PLACEHOLDER_KEY:  # an offline run's stand-in for an unset variable is no password
                password = None
        if password is None:
            raise E.MissingCredentials(source.id, auth.env)
        url = url.set(password=password)
    return url


class SqlAdapter:
    """Runs the endpoints of one database source; endpoint id -> its AdapterSpec (``protocol: sql``)."""

    def __init__(self, specs: Mapping[str, AdapterSpec]) -> None:
        self.specs = dict(specs)
        self.options: dict[str, SqlOptions] = {}
        for endpoint_id, spec in self.specs.items():
            try:
                self.options[endpoint_id] = sql_options(spec.options, f"endpoint {endpoint_id!r}")
            except SchemaRouterError as err:
                raise E.InvalidStep(f"{err}; re-import the database: schemarouter source import-sql") from None
        self._engines: dict[URL, Engine] = {}

    def engine(self, url: URL, timeout_s: float) -> Engine:
        """The run's engine for ``url`` (made on first use; pooled connections shared by the run's steps)."""
        engine = self._engines.get(url)
        if engine is None:
            engine = self._engines[url] = open_engine(url, timeout_s)
        return engine

    async def fetch(self, call: StepCall) -> FetchResult:
        """One read-only ``SELECT`` of the planned columns with the question's values bound."""
        source, endpoint = call.source, call.endpoint
        where = f"{source.id}.{endpoint.id}"
        opts = self.options.get(endpoint.id)
        if opts is None:
            raise E.InvalidStep(f"{where}: no SQL settings are stored for this endpoint")
        url = connection_url(source, endpoint.base_url, call.env)
        statement = build_select(opts, endpoint, call.fields, call.params, where)
        timeout_s = min(opts.timeout_s, call.config.timeout_s)
        secrets = Secrets.from_sources([source], call.env)
        try:
            engine = self.engine(url, timeout_s)
            compiled = statement.compile(dialect=engine.dialect, compile_kwargs={"render_postcompile": True})
        except SQLAlchemyError as err:
            raise step_error(err, where, timeout_s, secrets) from None
        request = secrets.redact(
            f"{shown_url(endpoint.base_url)}: {' '.join(str(compiled).split())} {_shown(list(compiled.params.values()))}")
        async with call.limits.semaphore(source.id):
            try:
                rows = await asyncio.wait_for(
                    asyncio.to_thread(read_rows, engine, statement, opts.row_cap + 1, timeout_s), timeout_s + GRACE_S)
            except TimeoutError:
                raise E.StepTimeout(f"{where}: the database did not answer within {timeout_s:g} s") from None
            except SQLAlchemyError as err:
                raise step_error(err, where, timeout_s, secrets) from None
        if not rows:
            raise E.NoRecords(f"{where}: no rows in {opts.qualified} for {_described(call.params)}")
        records, note = self._records(rows, call, opts.row_cap, call.config.max_bytes)
        return FetchResult(records=records, request=request + note, unit_from=self.specs[endpoint.id].unit_from)

    @staticmethod
    def _records(rows: list[tuple[Any, ...]], call: StepCall, cap: int, max_chars: int) -> tuple[list[Any], str]:
        """Rows as records keyed by field path, within the row cap and the size bound; a note when cut."""
        paths = [f.path for f in call.fields]
        records: list[Any] = []
        used = 0
        for row in rows[:cap]:
            record = {path: plain(value) for path, value in zip(paths, row, strict=True)}
            used += sum(size_of(v) for v in record.values())
            if used > max_chars and records:
                return records, f" (first {len(records)} rows: the size limit was reached)"
            records.append(record)
        note = f" (first {cap} rows: the row cap; more rows match)" if len(rows) > cap else ""
        return records, note

    async def aclose(self) -> None:
        """Dispose the engines this run opened (their pooled connections are closed)."""
        engines, self._engines = list(self._engines.values()), {}
        for engine in engines:
            await asyncio.to_thread(engine.dispose)


def _shown(values: list[Any]) -> str:
    """The bound values, in the order of the placeholders they fill."""
    shown = [v.isoformat() if hasattr(v, "isoformat") else v for v in values]
    return f"with {shown!r}" if shown else ""


def _described(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in params.items() if v is not None) or "the query"
