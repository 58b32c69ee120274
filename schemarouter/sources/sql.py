"""A database source's settings: what the generic SQL adapter needs beyond the declaration.

A table or view imported by ``schemarouter source import-sql`` is an endpoint whose ``base_url`` is
the database's SQLAlchemy URL without its password, and whose adapter spec says ``protocol: sql``
with :class:`SqlOptions` as its ``options``: the table, the column behind each field, the column and
operator behind each parameter, the row cap and time limit. The importer writes them, the adapter
and ``sources check`` read them, and ``source add`` checks a hand-edited file against its endpoint
(:func:`check_sql_spec`). URL handling that must never leak a password lives here too, below every
user of it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from schemarouter.errors import SchemaRouterError

PROTOCOL = "sql"
DIALECTS = ("sqlite", "postgresql")  # the engines the adapter runs read-only (and CI tests)
DEFAULT_ROW_CAP = 200
MAX_ROW_CAP = 100_000
DEFAULT_TIMEOUT_S = 10.0
# query parameters of a URL that carry a credential: dropped from what is stored, like the password
_CREDENTIAL_QUERY = frozenset({"password", "passwd", "pwd", "sslpassword", "token", "secret"})

# eq: column = value (a list: IN); contains: a case-insensitive substring; min/max: >= / <=; and three
# that shape the answer rather than filter it: sort (the value names the field to order rows by), desc
# (true: that order reversed, highest or latest first) and limit (at most this many rows)
Operator = Literal["eq", "contains", "min", "max", "sort", "desc", "limit"]
SHAPING = frozenset({"sort", "desc", "limit"})  # operators of no column of their own


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class SqlParam(_Frozen):
    """The column a parameter filters and how (no column for an operator that shapes the answer)."""

    column: str = ""
    op: Operator = "eq"


class SqlOptions(_Frozen):
    """An SQL endpoint's adapter options (``AdapterSpec.options`` of ``protocol: sql``)."""

    db_schema: str | None = Field(default=None, alias="schema")
    table: str = Field(min_length=1)
    kind: Literal["table", "view"] = "table"
    columns: dict[str, str]  # field name -> column name (every declared field)
    types: dict[str, str] = Field(default_factory=dict)  # column -> type as reflected (drift checks)
    params: dict[str, SqlParam] = Field(default_factory=dict)  # parameter name -> its column and operator
    order_by: list[str] = Field(default_factory=list)  # the primary key: rows come in a stable order
    row_cap: int = Field(default=DEFAULT_ROW_CAP, ge=1, le=MAX_ROW_CAP)
    timeout_s: float = Field(default=DEFAULT_TIMEOUT_S, gt=0, le=3600)

    def as_options(self) -> dict[str, Any]:
        """The JSON stored in the adapter spec."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)

    @property
    def qualified(self) -> str:
        """``schema.table`` (or the table) as people write it, for messages."""
        return f"{self.db_schema}.{self.table}" if self.db_schema else self.table


def sql_options(options: dict[str, Any], where: str) -> SqlOptions:
    """Validate stored or declared options; a SchemaRouterError naming ``where`` otherwise."""
    try:
        return SqlOptions.model_validate(options)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "options"
        raise SchemaRouterError(f"{where}: options.{loc}: {first['msg']}") from None


def parse_db_url(text: str) -> URL:
    """A SQLAlchemy URL, or one line saying why it is not one (never echoing a password)."""
    try:
        url = make_url(text.strip())
    except (ArgumentError, ValueError):
        raise SchemaRouterError(
            "not a database URL; write it as SQLAlchemy does: sqlite:///path/to/lab.db or "
            "postgresql+psycopg://user@host:5432/dbname"
        ) from None
    if url.get_backend_name() not in DIALECTS:
        raise SchemaRouterError(
            f"database URL: {url.get_backend_name()!r} is not supported; import-sql reads "
            f"{' and '.join(DIALECTS)} databases"
        )
    return url


def without_secrets(url: URL) -> tuple[URL, bool, list[str]]:
    """The URL with no password and no credential query parameters; whether it had a password, and
    the names of the query parameters dropped."""
    dropped = [name for name in url.query if name.lower() in _CREDENTIAL_QUERY]
    kept = {k: v for k, v in url.query.items() if k.lower() not in _CREDENTIAL_QUERY}
    # URL.set() cannot clear a field (None means "unchanged"): build the URL anew
    clean = URL.create(url.drivername, url.username, None, url.host, url.port, url.database, kept)
    return clean, url.password is not None, dropped


def stored_url(url: URL) -> str:
    """The text stored as an endpoint's ``base_url``: the URL without any secret."""
    return without_secrets(url)[0].render_as_string(hide_password=False)


def shown_url(url: URL | str) -> str:
    """A URL to print: its password (if any) masked."""
    parsed = make_url(url) if isinstance(url, str) else url
    return parsed.render_as_string(hide_password=True)


def check_sql_spec(endpoint: Any, options: dict[str, Any], where: str) -> SqlOptions:
    """Options that fit ``endpoint`` (an :class:`~schemarouter.models.Endpoint`): a column for every
    declared field, a declared parameter for every filter and a filter for every parameter."""
    opts = sql_options(options, where)
    try:
        url = parse_db_url(endpoint.base_url)
    except SchemaRouterError as err:
        raise SchemaRouterError(f"{where}: base_url: {err}") from None
    if url.password is not None:
        raise SchemaRouterError(f"{where}: base_url holds a password; name its environment variable in auth instead")
    fields = {f.name for f in endpoint.fields}
    missing = sorted(fields - set(opts.columns))
    if missing:
        raise SchemaRouterError(f"{where}: options.columns: no column for field {missing[0]!r}")
    stray = sorted(set(opts.columns) - fields)
    if stray:
        raise SchemaRouterError(f"{where}: options.columns: {stray[0]!r} is not a field of the endpoint")
    params = {p.name for p in endpoint.parameters}
    for name in sorted(params ^ set(opts.params)):
        side = "no filter for parameter" if name in params else "a filter for an undeclared parameter"
        raise SchemaRouterError(f"{where}: options.params: {side} {name!r}")
    if endpoint.access != "read":
        raise SchemaRouterError(f"{where}: a database endpoint only reads (access: read)")
    return opts
