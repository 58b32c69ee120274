"""Read a database's schema with SQLAlchemy's inspector: tables and views, columns and their types,
primary, foreign and unique keys, indexes and comments, into plain data the mapper works from.

Reflection asks for everything at once (``get_multi_*``: a few queries for 2,000 tables, not
thousands); when one broken object makes that fail (a view over a dropped table), each object is
asked alone and the broken one is reported, not the whole database refused. A column type
SQLAlchemy does not know is kept as text and reported. Comments come from the database where it has
them (Postgres ``COMMENT ON``) and, for SQLite, from the ``--`` comments of the ``CREATE`` statement
it keeps (:mod:`~schemarouter.sqlsource.comments`). Nothing here writes: the inspector only reads
the catalog.
"""

from __future__ import annotations

import contextlib
import re
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.engine import Engine, Inspector
from sqlalchemy.engine.reflection import ObjectKind
from sqlalchemy.exc import SQLAlchemyError

from schemarouter.execution.sqlconnect import first_line
from schemarouter.models import ValueType
from schemarouter.sqlsource.comments import sqlite_column_comments
from schemarouter.sqlsource.errors import SqlImportError, close_match
from schemarouter.sqlsource.report import SqlImportReport

MAX_OBJECTS = 5_000  # tables and views mapped from one schema; the rest are reported
_UNKNOWN_TYPE = re.compile(r"Did not recognize type '([^']+)' of column '([^']+)'")


@dataclass
class Column:
    """One column as reflected."""

    name: str
    type_name: str  # as the database names it (``VARCHAR(40)``, ``DOUBLE PRECISION``)
    value_type: ValueType
    nullable: bool = True
    comment: str = ""
    binary: bool = False
    known: bool = True  # False: a type SQLAlchemy does not know (read as text)
    enum: list[str] | None = None


@dataclass
class ForeignKey:
    """``columns`` of this table refer to ``target_columns`` of ``target``."""

    columns: list[str]
    target: str
    target_schema: str | None
    target_columns: list[str]


@dataclass
class Table:
    """A table or view with what the mapper needs of it."""

    name: str
    kind: Literal["table", "view"]
    columns: list[Column] = field(default_factory=list)
    comment: str = ""
    primary_key: list[str] = field(default_factory=list)
    foreign_keys: list[ForeignKey] = field(default_factory=list)
    unique: set[str] = field(default_factory=set)  # columns that alone are unique
    indexed: set[str] = field(default_factory=set)  # columns that lead an index

    def column(self, name: str) -> Column | None:
        """The column called ``name``, if the table has one."""
        return next((c for c in self.columns if c.name == name), None)


@dataclass
class Reflection:
    """What one schema of a database holds."""

    dialect: str
    schema: str | None
    tables: list[Table]


def value_type(type_: Any) -> tuple[ValueType, bool]:
    """The declaration type of a SQLAlchemy column type, and whether it is binary data."""
    if isinstance(type_, sa.Boolean):
        return "boolean", False
    if isinstance(type_, sa.Integer):
        return "integer", False
    if isinstance(type_, (sa.Numeric, sa.Float)):
        return "number", False
    if isinstance(type_, (sa.Date, sa.DateTime)):
        return "date", False
    if isinstance(type_, sa.JSON):
        return "object", False
    if isinstance(type_, sa.ARRAY):
        return "array", False
    if isinstance(type_, sa.LargeBinary):
        return "string", True
    return "string", False


def type_name(type_: Any, dialect: sa.Dialect, unknown: str | None) -> str:
    """The type as the database writes it; the unknown name SQLAlchemy warned about for one it lacks."""
    if unknown:
        return unknown.upper()
    try:
        return str(type_.compile(dialect=dialect))
    except Exception:  # NullType and other types with no DDL form
        return type(type_).__name__.upper()


def reflect(
    engine: Engine, schema: str | None, only: Sequence[str], excluded: Callable[[str], bool],
    report: SqlImportReport, started: float, budget_s: float,
) -> Reflection:
    """Reflect the tables and views of ``schema`` (all, or those ``only`` names) that ``excluded`` keeps."""
    inspector: Inspector = sa.inspect(engine)
    tables = set(inspector.get_table_names(schema=schema))
    views = set(inspector.get_view_names(schema=schema))
    with contextlib.suppress(NotImplementedError):  # Postgres materialized views read like views; SQLite has none
        views |= set(inspector.get_materialized_view_names(schema=schema))
    names = sorted(tables | views)
    if only:
        missing = [p for p in only if not any(fnmatchcase(n, p) for n in names)]
        if missing:
            raise SqlImportError("--table", missing[0], f"no table or view matches{close_match(missing[0], names)}")
        names = [n for n in names if any(fnmatchcase(n, pattern) for pattern in only)]
    for name in [n for n in names if excluded(n)]:
        report.excluded.append(name)
    names = [n for n in names if not excluded(n)]
    if len(names) > MAX_OBJECTS:
        for name in names[MAX_OBJECTS:]:
            report.add(name, "over the object limit", f"only the first {MAX_OBJECTS:,} tables and views are mapped")
        names = names[:MAX_OBJECTS]
    report.tables = sum(1 for n in names if n in tables)
    report.views = sum(1 for n in names if n in views)
    kinds: dict[str, Literal["table", "view"]] = {n: ("view" if n in views and n not in tables else "table") for n in names}
    columns, unknown = _columns(inspector, schema, names, report)
    result: list[Table] = []
    ddl_comments = _sqlite_comments(engine, schema) if engine.dialect.name == "sqlite" else {}
    table_names = [n for n in names if kinds[n] == "table" and n in columns]
    keys = _keys(inspector, schema, table_names, report)
    comments = _table_comments(inspector, schema, [n for n in names if n in columns])
    for name in names:
        if name not in columns:
            continue
        if time.monotonic() - started > budget_s:
            report.add(name, "over the time budget", f"reflection stopped after {budget_s:g} s; import fewer tables (--table)")
            continue
        table = Table(name, kinds[name], comment=comments.get(name, "") or ddl_comments.get(name, {}).get("", ""))
        from_ddl = ddl_comments.get(name, {})
        for raw in columns[name]:
            vtype, binary = value_type(raw["type"])
            missing_type = unknown.get((name, raw["name"]))
            known = missing_type is None
            enum = [str(v) for v in getattr(raw["type"], "enums", None) or []] or None
            table.columns.append(Column(
                name=str(raw["name"]), type_name=type_name(raw["type"], engine.dialect, missing_type),
                value_type=vtype, nullable=bool(raw.get("nullable", True)),
                comment=str(raw.get("comment") or from_ddl.get(str(raw["name"]), "") or ""),
                binary=binary, known=known, enum=enum,
            ))
        pk, fks, unique, indexed = keys.get(name, ([], [], set(), set()))
        table.primary_key, table.foreign_keys, table.unique, table.indexed = pk, fks, unique, indexed
        result.append(table)
    return Reflection(engine.dialect.name, schema, result)


def _columns(
    inspector: Inspector, schema: str | None, names: list[str], report: SqlImportReport,
) -> tuple[dict[str, list[dict[str, Any]]], dict[tuple[str, str], str]]:
    """Columns by table name (a table or view that cannot be read is reported and left out), and the
    types SQLAlchemy did not recognize by (table, column)."""
    out: dict[str, list[dict[str, Any]]] = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            multi = inspector.get_multi_columns(schema=schema, filter_names=names, kind=ObjectKind.ANY)
            out = {key[1]: [dict(c) for c in cols] for key, cols in multi.items()}
        except SQLAlchemyError:
            for name in names:  # one broken object (a view over a dropped table) must not sink the rest
                try:
                    out[name] = [dict(c) for c in inspector.get_columns(name, schema=schema)]
                except SQLAlchemyError as err:
                    report.add(name, "cannot be read", first_line(err))
    unknown: dict[tuple[str, str], str] = {}
    by_column: dict[str, str] = {}
    for item in caught:
        found = _UNKNOWN_TYPE.search(str(item.message))
        if found:
            by_column[found.group(2)] = found.group(1)
    for name, cols in out.items():
        for col in cols:
            if isinstance(col["type"], sa.types.NullType) and str(col["name"]) in by_column:
                unknown[(name, str(col["name"]))] = by_column[str(col["name"])]
    for name in names:
        if name in out and not out[name]:
            report.add(name, "no columns", "nothing to select")
            del out[name]
    return out, unknown


def _keys(
    inspector: Inspector, schema: str | None, names: list[str], report: SqlImportReport,
) -> dict[str, tuple[list[str], list[ForeignKey], set[str], set[str]]]:
    """Primary key, foreign keys, single-column unique keys and leading index columns of each table."""
    if not names:
        return {}
    try:
        pks = {k[1]: v for k, v in inspector.get_multi_pk_constraint(schema=schema, filter_names=names).items()}
        fks = {k[1]: v for k, v in inspector.get_multi_foreign_keys(schema=schema, filter_names=names).items()}
        idx = {k[1]: v for k, v in inspector.get_multi_indexes(schema=schema, filter_names=names).items()}
        uqs = {k[1]: v for k, v in inspector.get_multi_unique_constraints(schema=schema, filter_names=names).items()}
    except (SQLAlchemyError, NotImplementedError) as err:
        report.notes.append(f"keys and indexes could not be read ({first_line(err)}); no links or key filters")
        return {}
    out: dict[str, tuple[list[str], list[ForeignKey], set[str], set[str]]] = {}
    for name in names:
        pk_info = pks.get(name)
        pk = [str(c) for c in pk_info["constrained_columns"] or []] if pk_info else []
        foreign = [
            ForeignKey([str(c) for c in fk["constrained_columns"]], str(fk["referred_table"]),
                       fk.get("referred_schema"), [str(c) for c in fk["referred_columns"]])
            for fk in fks.get(name) or [] if fk.get("referred_table")
        ]
        unique = {str(u["column_names"][0]) for u in uqs.get(name) or [] if len(u["column_names"]) == 1}
        indexed: set[str] = set()
        for index in idx.get(name) or []:
            cols = [c for c in index.get("column_names") or [] if c]
            if len(cols) == 1 and index.get("unique"):
                unique.add(str(cols[0]))
            if cols:
                indexed.add(str(cols[0]))
        if len(pk) == 1:
            unique.add(pk[0])
        out[name] = (pk, foreign, unique, indexed)
    return out


def _table_comments(inspector: Inspector, schema: str | None, names: list[str]) -> dict[str, str]:
    if not names or not inspector.dialect.supports_comments:
        return {}
    try:
        found = inspector.get_multi_table_comment(schema=schema, filter_names=names, kind=ObjectKind.ANY)
    except (SQLAlchemyError, NotImplementedError):
        return {}
    return {k[1]: str(v.get("text") or "") for k, v in found.items()}


def _sqlite_comments(engine: Engine, schema: str | None) -> dict[str, dict[str, str]]:
    """Table -> column -> the ``--`` comment of its line in the stored ``CREATE`` statement ("" for the table)."""
    master = '"{}".sqlite_master'.format(schema.replace('"', '""')) if schema else "sqlite_master"
    try:
        with engine.connect() as conn:
            rows = conn.exec_driver_sql(f"SELECT name, sql FROM {master} WHERE type IN ('table', 'view')").fetchall()
    except SQLAlchemyError:
        return {}
    return {str(name): sqlite_column_comments(str(sql or "")) for name, sql in rows}
