"""``sources check --live`` for a database source: one cheap read per endpoint, and schema drift.

An HTTP source is checked with one request (:mod:`schemarouter.checks.probe`); a database source is
checked table by table, since a table can change alone. For each endpoint the table's columns are
reflected again and compared with what the import stored (a column gone, a type changed, a column
added), then ``SELECT`` the declared columns that are still there ``LIMIT 1`` runs read-only with the
time limit real runs have. Each endpoint gets a line with the probe's statuses: ``ok``, ``drift``
(a declared column gone or its type changed; the table gone), ``no_records`` (an empty table),
``unreachable``, ``missing_key``, ``error`` (a view that no longer runs).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import NoSuchTableError, SQLAlchemyError

from schemarouter.checks.probe import DRIFT, ERROR, MISSING_KEY, NO_RECORDS, OK, UNREACHABLE, SourceCheck
from schemarouter.errors import SchemaRouterError
from schemarouter.execution import errors as E
from schemarouter.execution.secrets import Secrets
from schemarouter.execution.sql import connection_url
from schemarouter.execution.sqlconnect import first_line, open_engine, read_rows, step_error
from schemarouter.models import Endpoint, Source
from schemarouter.sources.spec import AdapterSpec
from schemarouter.sources.sql import SqlOptions, sql_options


def _normal(type_name: str) -> str:
    return " ".join(type_name.upper().split())


def _current_columns(engine: Engine, opts: SqlOptions) -> dict[str, str]:
    """The table's columns now: name -> type as the database writes it."""
    inspector = sa.inspect(engine)
    out: dict[str, str] = {}
    for col in inspector.get_columns(opts.table, schema=opts.db_schema):
        try:
            out[str(col["name"])] = str(col["type"].compile(dialect=engine.dialect))
        except Exception:  # a type with no DDL form (one SQLAlchemy does not know)
            out[str(col["name"])] = type(col["type"]).__name__.upper()
    return out


def check_endpoint(
    source: Source, endpoint: Endpoint, opts: SqlOptions, engine: Engine, timeout_s: float,
) -> SourceCheck:
    """Compare one endpoint's table with its stored columns and read one row (blocking: run it in a thread)."""
    result = SourceCheck(source.id, endpoint.id, OK, key_env=source.auth.env if source.auth else None,
                         params_from="schema", declared=len(opts.columns))
    result.auth = "ok" if source.auth else "none"
    try:
        current = _current_columns(engine, opts)
    except NoSuchTableError:
        result.status, result.reachable = DRIFT, True
        result.message = f"{opts.kind} {opts.qualified} is gone"
        result.missing = sorted(opts.columns)
        return result
    except SQLAlchemyError as err:
        return _failed(result, step_error(err, f"{opts.qualified}", timeout_s))
    result.reachable = True
    by_column = {column: name for name, column in opts.columns.items()}
    result.missing = sorted(name for name, column in opts.columns.items() if column not in current)
    result.undeclared = sorted(c for c in current if c not in by_column)
    changed = [f"{by_column[c]}: {opts.types[c]} -> {current[c]}" for c in sorted(by_column)
               if c in current and c in opts.types and _normal(opts.types[c]) != _normal(current[c])]
    result.type_changes = changed
    present = [c for c in opts.columns.values() if c in current]
    table = sa.table(opts.table, *(sa.column(c) for c in present), schema=opts.db_schema)
    statement = sa.select(*(table.c[c] for c in present)).limit(1)
    result.request = f"SELECT {len(present)} column(s) FROM {opts.qualified} LIMIT 1"
    try:
        rows = read_rows(engine, statement, 1, timeout_s) if present else []
    except SQLAlchemyError as err:
        return _failed(result, step_error(err, opts.qualified, timeout_s))
    result.records = len(rows)
    parts = [f"{len(rows)} row(s), {len(present)}/{len(opts.columns)} declared columns present"]
    if result.missing:
        parts.append(f"gone: {', '.join(result.missing)}")
    if changed:
        parts.append(f"type changed: {'; '.join(changed)}")
    if result.undeclared:
        parts.append(f"new columns: {', '.join(result.undeclared[:8])}")
    result.message = "; ".join(parts)
    if result.missing or changed:
        result.status = DRIFT
    elif not rows:
        result.status = NO_RECORDS
    return result


def _failed(result: SourceCheck, err: E.StepError) -> SourceCheck:
    if isinstance(err, (E.NetworkError, E.StepTimeout)):
        result.status, result.reachable = UNREACHABLE, False
    else:
        result.status, result.reachable = ERROR, True
    result.message = f"{err.kind}: {err}"
    return result


async def check_sql_source(
    source: Source, specs: Mapping[str, Any], env: Mapping[str, str], timeout_s: float,
) -> list[SourceCheck]:
    """One line per read endpoint of a database source; every failure ends as a status."""
    secrets = Secrets.from_sources([source], env)
    lines: list[SourceCheck] = []
    engines: dict[Any, Engine] = {}
    try:
        for endpoint in [e for e in source.endpoints if e.access == "read"]:
            try:
                spec = AdapterSpec.model_validate(specs.get(endpoint.id) or {})
                opts = sql_options(spec.options, f"{source.id}.{endpoint.id}")
                url = connection_url(source, endpoint.base_url, env)
            except E.MissingCredentials as err:
                lines.append(SourceCheck(source.id, endpoint.id, MISSING_KEY, f"set {err.env} to check it",
                                         auth="missing", key_env=err.env))
                continue
            except (SchemaRouterError, E.StepError) as err:
                lines.append(SourceCheck(source.id, endpoint.id, ERROR, first_line(err)))
                continue
            engine = engines.get(url)
            if engine is None:
                engine = engines[url] = open_engine(url, timeout_s)
            line = await asyncio.to_thread(check_endpoint, source, endpoint, opts, engine, min(timeout_s, opts.timeout_s))
            line.message = secrets.redact(line.message)
            lines.append(line)
    finally:
        for engine in engines.values():
            engine.dispose()
    return lines
