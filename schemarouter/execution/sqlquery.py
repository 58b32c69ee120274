"""One plan step as one SQL ``SELECT``: the planned columns, the question's values bound, a row cap.

Field projection is the column list: only the columns of the planned fields (and of the record's
identifier) are selected. Every value the question gives is a bound parameter of a SQLAlchemy Core
expression, typed by the parameter's declared type, so no value ever becomes SQL text; table and
column names are quoted by the dialect (reserved words and non-ASCII names included). Rows come back
as plain JSON-ready values, long texts clipped and binary data described, never dumped.
"""

from __future__ import annotations

import datetime as dt
import math
import uuid
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.sql import ColumnElement, Select
from sqlalchemy.types import TypeEngine

from schemarouter.execution.errors import InvalidStep
from schemarouter.models import Endpoint, ResponseField
from schemarouter.sources.sql import SHAPING, SqlOptions, SqlParam

MAX_TEXT = 20_000  # characters of one text value kept in a record
# reflected type names that hold text: compared as they are; any other column is cast to text first
_TEXT_TYPE_WORDS = ("CHAR", "TEXT", "CLOB", "STRING", "NAME")


def is_text_type(type_name: str | None) -> bool:
    """Whether a reflected column type (``VARCHAR(40)``, ``TEXT``) holds text."""
    upper = (type_name or "").upper()
    return any(word in upper for word in _TEXT_TYPE_WORDS)


def _bind_type(type_: str, value: Any) -> TypeEngine[Any]:
    if type_ == "integer":
        return sa.Integer()
    if type_ == "number":
        return sa.Float()
    if type_ == "boolean":
        return sa.Boolean()
    if type_ == "date":
        return sa.DateTime() if isinstance(value, dt.datetime) else sa.Date()
    return sa.String()


def coerce(value: Any, type_: str, where: str) -> Any:
    """A question value as the parameter's declared type; InvalidStep when it is not one."""
    try:
        if type_ == "integer":
            if isinstance(value, bool):
                raise ValueError
            number = float(value) if isinstance(value, float) else int(str(value).strip())
            if isinstance(number, float):
                if not number.is_integer():
                    raise ValueError
                number = int(number)
            return number
        if type_ == "number":
            if isinstance(value, bool):
                raise ValueError
            number = float(str(value).strip()) if not isinstance(value, (int, float)) else float(value)
            if not math.isfinite(number):
                raise ValueError
            return number
        if type_ == "boolean":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("true", "yes", "1"):
                return True
            if text in ("false", "no", "0"):
                return False
            raise ValueError
        if type_ == "date":
            if isinstance(value, (dt.date, dt.datetime)):
                return value
            text = str(value).strip()
            return dt.date.fromisoformat(text) if len(text) == 10 else dt.datetime.fromisoformat(text)
    except (TypeError, ValueError):
        shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:59] + "…"
        raise InvalidStep(f"{where} takes {'an' if type_ == 'integer' else 'a'} {type_}, not {shown}") from None
    if isinstance(value, (dict, list)):
        raise InvalidStep(f"{where} takes one text value")
    return str(value)


def _like_pattern(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def build_select(
    opts: SqlOptions, endpoint: Endpoint, fields: Sequence[ResponseField], params: Mapping[str, Any], where: str,
) -> Select[Any]:
    """``SELECT`` the columns of ``fields`` from the endpoint's table, filtered by ``params``, at most
    ``row_cap + 1`` rows (one more than the cap tells the caller that more rows match)."""
    selected = [opts.columns[f.name] for f in fields]
    given = {name: opts.params[name] for name, value in params.items() if value is not None and name in opts.params}
    unknown = [name for name, value in params.items() if value is not None and name not in opts.params]
    if unknown:
        raise InvalidStep(f"{where}: no parameter {unknown[0]!r}")
    filtered = {name: sp for name, sp in given.items() if sp.op not in SHAPING}
    sort, descending, limit = _shaping(opts, given, params, where)
    needed = list(dict.fromkeys([*selected, *(p.column for p in filtered.values()), *opts.order_by,
                                 *([sort] if sort else [])]))
    table = sa.table(opts.table, *(sa.column(c) for c in needed), schema=opts.db_schema)
    statement = sa.select(*(table.c[c] for c in selected))
    for name, sp in filtered.items():
        declared = endpoint.parameter(name)
        column: ColumnElement[Any] = table.c[sp.column]
        if not is_text_type(opts.types.get(sp.column)) and (sp.op == "contains" or declared.type == "string"):
            column = sa.cast(column, sa.Text())  # a UUID, enum or number compared with text
        value = params[name]
        label = f"{where}: parameter {name!r}"
        if sp.op == "contains":
            statement = statement.where(column.ilike(
                sa.bindparam(None, _like_pattern(str(coerce(value, "string", label))), type_=sa.String()), escape="\\"))
            continue
        if isinstance(value, (list, tuple)) and sp.op == "eq":
            values = [coerce(v, declared.type, label) for v in value][:1000]
            if not values:
                raise InvalidStep(f"{label}: an empty list of values")
            bind_type = _bind_type(declared.type, values[0])
            statement = statement.where(column.in_(sa.bindparam(None, values, expanding=True, type_=bind_type)))
            continue
        typed = coerce(value, declared.type, label)
        bound = sa.bindparam(None, typed, type_=_bind_type(declared.type, typed))
        if sp.op == "eq":
            statement = statement.where(column == bound)
        elif sp.op == "min":
            statement = statement.where(column >= bound)
        else:
            statement = statement.where(column <= bound)
    if sort:
        # rows without a value come last either way: "the highest band gap" is never a missing one
        ordered = table.c[sort].desc() if descending else table.c[sort].asc()
        statement = statement.order_by(ordered.nulls_last())
    if opts.order_by:
        statement = statement.order_by(*(table.c[c] for c in opts.order_by))
    return statement.limit(min(limit, opts.row_cap + 1) if limit else opts.row_cap + 1)


def _shaping(opts: SqlOptions, given: Mapping[str, SqlParam], params: Mapping[str, Any],
             where: str) -> tuple[str | None, bool, int | None]:
    """(the column to order by, whether highest first, the most rows to return) the step's answer-shaping
    parameters ask for; InvalidStep for a value they do not take."""
    sort, descending, limit = None, False, None
    for name, sp in given.items():
        label = f"{where}: parameter {name!r}"
        value = params[name]
        if sp.op == "sort":
            field = str(coerce(value, "string", label))
            if field not in opts.columns:
                raise InvalidStep(f"{label}: no field {field!r} to order by")
            sort = opts.columns[field]
        elif sp.op == "desc":
            descending = bool(coerce(value, "boolean", label))
        elif sp.op == "limit":
            limit = coerce(value, "integer", label)
            if limit < 1:
                raise InvalidStep(f"{label}: at least one row, not {limit}")
    return sort, descending, limit


def plain(value: Any) -> Any:
    """A database value as JSON-ready data: numbers, text (clipped), ISO dates; bytes only described."""
    if value is None or isinstance(value, (bool, int, str)):
        if isinstance(value, str) and len(value) > MAX_TEXT:
            return value[:MAX_TEXT - 1] + "…"
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Decimal):
        return float(value) if value.is_finite() else None
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return f"<{len(bytes(value))} bytes of binary data>"
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value[:1000]]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in list(value.items())[:1000]}
    return plain(str(value))


def size_of(value: Any) -> int:
    """A rough size in characters of a plain value (for the memory bound of one step)."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, (list, dict)):
        return len(repr(value))
    return 8
