"""Map declaration models to table rows and back.

Writes go through :class:`RowWriter`, which gives every row its primary key itself (the
caller holds the registry's write lock, so keys cannot collide) and batches rows per table for
``executemany``. Reads rebuild the models from whole tables at once, which keeps a registry of
thousands of sources fast to load.
"""

from __future__ import annotations

import gc
import json
import sys
from collections import defaultdict
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any

from sqlalchemy import Connection, Table, Text, cast, func, select

from schemarouter.declarations import Declarations, Owner
from schemarouter.models import (
    Auth,
    DomainConcept,
    Endpoint,
    Feed,
    FieldGroup,
    Intent,
    License,
    Parameter,
    Projection,
    ResponseField,
    Source,
    SourceType,
    ValuePattern,
)
from schemarouter.registry import orm
from schemarouter.registry.fingerprint import (
    digest,
    license_fingerprint,
    source_and_endpoint_fingerprints,
    source_fingerprint,
)

T_LICENSES: Table = orm.SqlLicense.__table__  # type: ignore[assignment]
T_SOURCES: Table = orm.SqlSource.__table__  # type: ignore[assignment]
T_SOURCE_ALIASES: Table = orm.SqlSourceAlias.__table__  # type: ignore[assignment]
T_ENDPOINTS: Table = orm.SqlEndpoint.__table__  # type: ignore[assignment]
T_PARAMETERS: Table = orm.SqlParameter.__table__  # type: ignore[assignment]
T_FIELDS: Table = orm.SqlField.__table__  # type: ignore[assignment]
T_FIELD_GROUPS: Table = orm.SqlFieldGroup.__table__  # type: ignore[assignment]
T_CONCEPTS: Table = orm.SqlConcept.__table__  # type: ignore[assignment]
T_CONCEPT_ALIASES: Table = orm.SqlConceptAlias.__table__  # type: ignore[assignment]
T_CONCEPT_PATTERNS: Table = orm.SqlConceptPattern.__table__  # type: ignore[assignment]
T_FIELD_CONCEPTS: Table = orm.SqlFieldConcept.__table__  # type: ignore[assignment]
T_FIELD_ALIASES: Table = orm.SqlFieldAlias.__table__  # type: ignore[assignment]
T_INTENTS: Table = orm.SqlIntent.__table__  # type: ignore[assignment]
T_INTENT_GROUPS: Table = orm.SqlIntentGroup.__table__  # type: ignore[assignment]
T_ENDPOINT_INTENTS: Table = orm.SqlEndpointIntent.__table__  # type: ignore[assignment]
T_META: Table = orm.SqlRegistryMeta.__table__  # type: ignore[assignment]

# Parents before children: the order inserts must follow.
INSERT_ORDER: tuple[Table, ...] = (
    T_FIELD_GROUPS, T_CONCEPTS, T_CONCEPT_ALIASES, T_CONCEPT_PATTERNS, T_INTENTS, T_INTENT_GROUPS, T_LICENSES,
    T_SOURCES, T_SOURCE_ALIASES, T_ENDPOINTS, T_ENDPOINT_INTENTS, T_PARAMETERS, T_FIELDS,
    T_FIELD_CONCEPTS, T_FIELD_ALIASES,
)


def normalize_alias(text: str) -> str:
    """The form aliases are indexed and looked up by."""
    return " ".join(text.casefold().replace("_", " ").replace("-", " ").split())


class RowWriter:
    """Collects rows for many sources and inserts them table by table."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.rows: dict[Table, list[dict[str, Any]]] = defaultdict(list)
        self._next: dict[Table, int] = {}
        self._licenses: dict[str, int] = {
            fp: pk for fp, pk in connection.execute(select(T_LICENSES.c.fingerprint, T_LICENSES.c.pk))
        }

    def _pk(self, table: Table) -> int:
        if table not in self._next:
            current = self.connection.execute(select(func.max(table.c.pk))).scalar()
            self._next[table] = (current or 0) + 1
        value = self._next[table]
        self._next[table] = value + 1
        return value

    def license(self, lic: License | None) -> int | None:
        """Queue a row for a license not yet stored (deduplicated by fingerprint); return its pk, or None."""
        if lic is None:
            return None
        fp = license_fingerprint(lic)
        if fp not in self._licenses:
            pk = self._pk(T_LICENSES)
            self._licenses[fp] = pk
            self.rows[T_LICENSES].append(
                {"pk": pk, "fingerprint": fp, "license_id": lic.id, "name": lic.name, "url": lic.url,
                 "attribution": lic.attribution, "verified": lic.verified}
            )
        return self._licenses[fp]

    def vocabulary(self, decls: Declarations) -> None:
        """Queue rows for field groups, concepts with their aliases, and intents with their field groups."""
        for group in decls.field_groups.values():
            self.rows[T_FIELD_GROUPS].append({"name": group.name, "description": group.description})
        for concept in decls.concepts.values():
            self.rows[T_CONCEPTS].append({"name": concept.name, "description": concept.description})
            for pos, alias in enumerate(concept.aliases):
                self.rows[T_CONCEPT_ALIASES].append(
                    {"pk": self._pk(T_CONCEPT_ALIASES), "concept": concept.name, "alias": alias,
                     "normalized": normalize_alias(alias), "position": pos}
                )
            for pos, pattern in enumerate(concept.patterns):
                self.rows[T_CONCEPT_PATTERNS].append(
                    {"pk": self._pk(T_CONCEPT_PATTERNS), "concept": concept.name, "regex": pattern.regex,
                     "needs": list(pattern.needs), "position": pos}
                )
        for pos, intent in enumerate(decls.intents.values()):
            self.rows[T_INTENTS].append(
                {"name": intent.name, "position": pos, "description": intent.description,
                 "domains": list(intent.domains), "keywords": list(intent.keywords)}
            )
            for gpos, group_name in enumerate(intent.field_groups):
                self.rows[T_INTENT_GROUPS].append({"intent": intent.name, "group_name": group_name, "position": gpos})

    def source(
        self, source: Source, owner: Owner, adapter_specs: Mapping[str, Mapping[str, Any]] | None = None,
        fingerprint: str | None = None, endpoint_fingerprints: list[str] | None = None,
    ) -> None:
        """Queue a source's rows; ``adapter_specs`` (endpoint id -> JSON object) only for local sources;
        ``fingerprint`` (and ``endpoint_fingerprints``, in endpoint order) when the caller already computed
        it (a sync compares every source's first)."""
        specs = adapter_specs or {}
        if fingerprint is None and not specs:
            # a plugin source's fingerprint and its endpoints' from one dump (an import, a sync's rewrite)
            fingerprint, endpoint_fingerprints = source_and_endpoint_fingerprints(source)
        self.rows[T_SOURCES].append(
            {"id": source.id, "title": source.title, "domain": source.domain,
             "description": source.description, "homepage": source.homepage,
             "source_type": source.source_type.value, "license_pk": self.license(source.license),
             "auth": source.auth.model_dump(by_alias=True) if source.auth else None,
             "priority": source.priority, "cache_ttl": source.cache_ttl,
             "feeds": [f.model_dump(by_alias=True) for f in source.feeds] or None, "owner_kind": owner.kind, "owner_name": owner.name,
             "owner_version": owner.version, "fingerprint": fingerprint or source_fingerprint(source, specs)}
        )
        for pos, alias in enumerate(source.aliases):
            self.rows[T_SOURCE_ALIASES].append(
                {"pk": self._pk(T_SOURCE_ALIASES), "source_id": source.id, "alias": alias,
                 "normalized": normalize_alias(alias), "position": pos}
            )
        for epos, endpoint in enumerate(source.endpoints):
            self._endpoint(source.id, epos, endpoint, specs.get(endpoint.id),
                           endpoint_fingerprints[epos] if endpoint_fingerprints is not None else None)

    def _endpoint(
        self, source_id: str, position: int, endpoint: Endpoint, adapter_spec: Mapping[str, Any] | None = None,
        fingerprint: str | None = None,
    ) -> None:
        epk = self._pk(T_ENDPOINTS)
        self.rows[T_ENDPOINTS].append(
            {"pk": epk, "source_id": source_id, "id": endpoint.id, "position": position,
             "method": endpoint.method, "access": endpoint.access, "scope": endpoint.scope, "base_url": endpoint.base_url,
             "path": endpoint.path, "summary": endpoint.summary, "description": endpoint.description,
             "tags": list(endpoint.tags) or None,
             "projection_param": endpoint.projection.param if endpoint.projection else None,
             "projection_style": endpoint.projection.style if endpoint.projection else None,
             "fingerprint": fingerprint or digest(endpoint),
             "adapter_spec": json.dumps(dict(adapter_spec), sort_keys=True) if adapter_spec is not None else None}
        )
        for ipos, intent in enumerate(endpoint.intents):
            self.rows[T_ENDPOINT_INTENTS].append({"endpoint_pk": epk, "intent": intent, "position": ipos})
        for ppos, param in enumerate(endpoint.parameters):
            self.rows[T_PARAMETERS].append(
                {"pk": self._pk(T_PARAMETERS), "endpoint_pk": epk, "name": param.name, "position": ppos,
                 "type": param.type, "required": param.required, "concept": param.concept,
                 "description": param.description, "example_json": _json_text(param.example),
                 "default_json": _json_text(param.default), "enum_labels": param.enum_labels,
                 "enum": param.enum, "format": param.format, "pattern": param.pattern}
            )
        for fpos, fld in enumerate(endpoint.fields):
            fpk = self._pk(T_FIELDS)
            self.rows[T_FIELDS].append(
                {"pk": fpk, "endpoint_pk": epk, "name": fld.name, "position": fpos, "path": fld.path,
                 "type": fld.type, "unit": fld.unit, "group_name": fld.group, "identifier": fld.identifier,
                 "description": fld.description,
                 "source_type": fld.source_type.value if fld.source_type else None,
                 "license_pk": self.license(fld.license)}
            )
            for cpos, concept in enumerate(fld.concepts):
                self.rows[T_FIELD_CONCEPTS].append({"field_pk": fpk, "concept": concept, "position": cpos})
            for apos, alias in enumerate(fld.aliases):
                self.rows[T_FIELD_ALIASES].append(
                    {"pk": self._pk(T_FIELD_ALIASES), "field_pk": fpk, "alias": alias,
                     "normalized": normalize_alias(alias), "position": apos}
                )

    def flush(self) -> None:
        """Insert every queued row, table by table in INSERT_ORDER (parents first), and clear the queue."""
        for table in INSERT_ORDER:
            rows = self.rows.pop(table, None)
            if rows:
                insert_many(self.connection, table, rows)


def _json_text(value: Any) -> str:
    # most parameters declare no example or default: their "null" needs no encoder call
    return "null" if value is None else json.dumps(value)


def insert_many(connection: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows`` (dicts with the same keys) with one DBAPI ``executemany``.

    ``connection.execute(table.insert(), rows)`` spends most of a large sync building each row's
    parameters inside SQLAlchemy (half a million rows at 10,000 sources). Here the statement is
    compiled once by SQLAlchemy and each value passes only through its column type's own bind
    processor (JSON text, booleans), the very conversion Core applies, so the stored rows are the same.
    Where the statement needs a value the rows do not give (a column default), Core inserts them.
    """
    columns = list(rows[0])
    dialect = connection.dialect
    compiled = table.insert().compile(dialect=dialect, column_keys=columns)
    positional = compiled.positiontup
    names = list(positional) if positional is not None else list(compiled.binds)
    if set(names) != set(columns) or any(len(row) != len(columns) for row in rows):
        connection.execute(table.insert(), rows)
        return
    # only a few columns (JSON, booleans) have a processor: the others' values pass as they are
    converted = [
        (i, proc) for i, name in enumerate(names)
        if (proc := table.c[name].type.dialect_impl(dialect).bind_processor(dialect)) is not None
    ]
    take = itemgetter(*names)
    values: list[tuple[Any, ...]]
    if len(names) == 1:
        values = [(got,) for got in map(take, rows)]
    elif not converted:
        values = list(map(take, rows))  # most tables (fields, aliases, concepts): each row's tuple as it is
    else:
        # most such values are None (no enum, no tags): each column's None is converted once
        nones = [proc(None) for _i, proc in converted]
        values = []
        for row in rows:
            items = list(take(row))
            for (i, proc), none in zip(converted, nones, strict=True):
                value = items[i]
                items[i] = none if value is None else proc(value)
            values.append(tuple(items))
    if dialect.name == "postgresql":
        _copy(connection, table, names, values)
        return
    params: list[Any] = values if positional is not None else [dict(zip(names, v, strict=True)) for v in values]
    connection.exec_driver_sql(str(compiled), params)


def _copy(connection: Connection, table: Table, names: list[str], values: list[tuple[Any, ...]]) -> None:
    """Postgres: the rows through ``COPY ... FROM STDIN`` (psycopg), several times faster than row-by-row
    inserts, on the connection's own transaction (a failed sync still leaves nothing behind)."""
    prepare = connection.dialect.identifier_preparer
    columns = ", ".join(prepare.quote(name) for name in names)
    driver = connection.connection.driver_connection
    assert driver is not None
    with driver.cursor() as cursor, cursor.copy(f"COPY {prepare.format_table(table)} ({columns}) FROM STDIN") as copy:
        for row in values:
            copy.write_row(row)


def _license(row: Any) -> License:
    return License.model_construct(id=row.license_id, name=row.name, url=row.url, attribution=row.attribution,
                                   verified=row.verified)


def read_vocabulary(connection: Connection, decls: Declarations) -> None:
    """Load field groups, concepts (with aliases) and intents (with field groups) into ``decls``."""
    for row in connection.execute(select(T_FIELD_GROUPS).order_by(T_FIELD_GROUPS.c.name)):
        decls.field_groups[row.name] = FieldGroup(name=row.name, description=row.description)
    aliases: dict[str, list[str]] = defaultdict(list)
    for row in connection.execute(select(T_CONCEPT_ALIASES).order_by(T_CONCEPT_ALIASES.c.position)):
        aliases[row.concept].append(row.alias)
    patterns: dict[str, list[ValuePattern]] = defaultdict(list)
    for row in connection.execute(select(T_CONCEPT_PATTERNS).order_by(T_CONCEPT_PATTERNS.c.position)):
        patterns[row.concept].append(ValuePattern(regex=row.regex, needs=list(row.needs or [])))
    for row in connection.execute(select(T_CONCEPTS).order_by(T_CONCEPTS.c.name)):
        decls.concepts[row.name] = DomainConcept(
            name=row.name, description=row.description, aliases=aliases.get(row.name, []),
            patterns=patterns.get(row.name, []),
        )
    groups: dict[str, list[str]] = defaultdict(list)
    for row in connection.execute(select(T_INTENT_GROUPS).order_by(T_INTENT_GROUPS.c.position)):
        groups[row.intent].append(row.group_name)
    for row in connection.execute(select(T_INTENTS).order_by(T_INTENTS.c.position)):
        decls.intents[row.name] = Intent(
            name=row.name, description=row.description, domains=row.domains,
            field_groups=groups.get(row.name, []), keywords=row.keywords,
        )


# One fields-set object per (model, keyword set) instead of one per model: read_sources always passes
# the same keywords, models are frozen, and model_copy copies the set before changing it. With interned
# strings (field names, types, groups, descriptions repeat across sources) this keeps a 10,000-source
# registry's models about a third smaller.
_FIELDS_SETS: dict[tuple[type, frozenset[str]], set[str]] = {}


# one empty list for every loaded field without concepts or aliases (declarations are frozen and
# nothing appends to a model's lists): a list object per field would cost megabytes at 10,000 sources
_EMPTY: list[str] = []


def _construct(cls: Any, **values: Any) -> Any:
    """``cls.model_construct(**values)`` (stored rows were validated when written), with an instance
    dictionary that shares its keys with every other model of ``cls``.

    ``model_construct`` hands each model a dictionary of its own, keys and all (about 460 bytes for a
    response field); setting the attributes one by one, in declaration order, lets CPython keep one
    key table per class and only the values per model (about 100 bytes). At 10,000 sources that is
    tens of megabytes. Defaults of omitted fields are filled as ``model_construct`` fills them.
    """
    names = frozenset(values)
    shared = _FIELDS_SETS.get((cls, names))
    if shared is None:
        shared = _FIELDS_SETS[(cls, names)] = set(names)
    model = cls.__new__(cls)
    model._fill(shared, (values[name] if name in values else spec.get_default(call_default_factory=True)
                         for name, spec in cls.__pydantic_fields__.items()))
    return model


def _i(value: Any) -> Any:
    return sys.intern(value) if type(value) is str else value


def _json_column(text: str | None) -> Any:
    """A JSON column's value from its text (read with ``CAST(... AS TEXT)``); SQL NULL is None, as the
    column type reads it."""
    return None if text is None else json.loads(text)


def read_sources(connection: Connection, decls: Declarations, only: str | None = None,
                 among: Sequence[str] | None = None) -> None:
    """Rebuild Source models (all, one id, or the ids ``among``) with their owners (cyclic GC paused:
    reading creates hundreds of thousands of long-lived objects and no garbage cycles)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        _read_sources(connection, decls, [only] if only is not None else among)
    finally:
        if enabled:
            gc.enable()


def source_ids(connection: Connection) -> list[str]:
    """Every source's id, in the order the registry keeps them (``read_sources`` reads them in)."""
    return [sid for (sid,) in connection.execute(select(T_SOURCES.c.id).order_by(T_SOURCES.c.id))]


def _read_sources(connection: Connection, decls: Declarations, ids: Sequence[str] | None = None) -> None:
    """Rebuild Source models (all, or those of ``ids``) with their owners.

    Rows were validated when they were written, so models are built without re-validating
    (``model_construct``): loading 10,000 sources is then dominated by reading rows.
    """

    def where(stmt: Any, column: Any) -> Any:
        return stmt.where(column.in_(ids)) if ids is not None else stmt

    licenses = {row.pk: _license(row) for row in connection.execute(select(T_LICENSES))}
    # some sources: the keys of their endpoints (and fields) narrow the queries below, as subqueries (a
    # batch's keys would be thousands of bound values); all sources: every row is read. Either way rows
    # are streamed rather than held (at 10,000 sources the rows of a table alone are megabytes)
    endpoint_keys = select(T_ENDPOINTS.c.pk).where(T_ENDPOINTS.c.source_id.in_(ids)) if ids is not None else None
    field_keys = (select(T_FIELDS.c.pk).where(T_FIELDS.c.endpoint_pk.in_(endpoint_keys))
                  if endpoint_keys is not None else None)
    by_endpoint_params: dict[int, list[Parameter]] = defaultdict(list)
    by_endpoint_intents: dict[int, list[str]] = defaultdict(list)
    by_endpoint_fields: dict[int, list[Any]] = defaultdict(list)
    field_concepts: dict[int, list[str]] = defaultdict(list)
    field_aliases: dict[int, list[str]] = defaultdict(list)

    def in_endpoints(stmt: Any, column: Any) -> Any:
        return stmt.where(column.in_(endpoint_keys)) if endpoint_keys is not None else stmt

    # Declarations are frozen, so endpoints that declare the same parameter (page, limit, language:
    # most of a registry's parameters repeat) share one model: tens of megabytes at 10,000 sources.
    # The JSON columns are read as their text, which keys the sharing and is parsed only for a parameter
    # not seen before (at 10,000 sources about a hundred distinct ones among 64,000 rows: parsing and
    # re-serializing every row's enum was a fifth of the registry's load time).
    p = T_PARAMETERS.c
    enum_text, labels_text = cast(p.enum, Text).label("enum_text"), cast(p.enum_labels, Text).label("labels_text")
    same_parameter: dict[tuple[Any, ...], Parameter] = {}
    for (endpoint_pk, *content) in connection.execute(
        in_endpoints(
            select(p.endpoint_pk, p.name, p.type, p.required, p.concept, p.description, p.example_json,
                   p.default_json, enum_text, labels_text, p.format, p.pattern),
            p.endpoint_pk,
        ).order_by(p.position)
    ):
        key = tuple(content)
        parameter = same_parameter.get(key)
        if parameter is None:
            name, type_, required, concept, description, example, default, enum, labels, format_, pattern = content
            parameter = same_parameter[key] = _construct(
                Parameter, name=_i(name), type=_i(type_), required=required, concept=_i(concept),
                description=_i(description), example=json.loads(example), default=json.loads(default),
                enum=_json_column(enum), enum_labels=_json_column(labels), format=_i(format_), pattern=pattern,
            )
        by_endpoint_params[endpoint_pk].append(parameter)
    for row in connection.execute(
        in_endpoints(select(T_ENDPOINT_INTENTS), T_ENDPOINT_INTENTS.c.endpoint_pk)
        .order_by(T_ENDPOINT_INTENTS.c.position)
    ):
        by_endpoint_intents[row.endpoint_pk].append(_i(row.intent))
    fields_query = in_endpoints(select(T_FIELDS), T_FIELDS.c.endpoint_pk).order_by(T_FIELDS.c.position)

    def in_fields(stmt: Any, column: Any) -> Any:
        return stmt.where(column.in_(field_keys)) if field_keys is not None else stmt

    # two columns, unpacked: a quarter of a million alias rows at 10,000 sources
    fc, fa = T_FIELD_CONCEPTS.c, T_FIELD_ALIASES.c
    for field_pk, concept in connection.execute(
        in_fields(select(fc.field_pk, fc.concept), fc.field_pk).order_by(fc.position)
    ):
        field_concepts[field_pk].append(_i(concept))
    for field_pk, alias in connection.execute(in_fields(select(fa.field_pk, fa.alias), fa.field_pk).order_by(fa.position)):
        field_aliases[field_pk].append(_i(alias))
    # As parameters: endpoints that return the same field (an API's list and detail endpoints, a
    # catalogue's shared schemas) share one frozen model, its concept and alias lists with it.
    same_field: dict[tuple[Any, ...], ResponseField] = {}
    # streamed (not held: at 10,000 sources ~100,000 rows) once concepts and aliases are read
    for row in connection.execute(fields_query):
        concepts, aliases = field_concepts.get(row.pk, _EMPTY), field_aliases.get(row.pk, _EMPTY)
        key = (row.name, row.path, row.type, row.unit, row.group_name, row.identifier, tuple(concepts),
               tuple(aliases), row.description, row.source_type, row.license_pk)
        response_field = same_field.get(key)
        if response_field is None:
            response_field = same_field[key] = _construct(
                ResponseField, name=_i(row.name), path=_i(row.path), type=_i(row.type), unit=_i(row.unit),
                group=_i(row.group_name), identifier=row.identifier, concepts=concepts, aliases=aliases,
                description=_i(row.description), source_type=SourceType(row.source_type) if row.source_type else None,
                license=licenses.get(row.license_pk) if row.license_pk else None,
            )
        by_endpoint_fields[row.endpoint_pk].append(response_field)
    del field_concepts, field_aliases, same_parameter, same_field  # read into the models: freed before endpoints are
    endpoints: dict[str, list[Endpoint]] = defaultdict(list)
    for row in connection.execute(
        where(select(T_ENDPOINTS), T_ENDPOINTS.c.source_id).order_by(T_ENDPOINTS.c.position)
    ):
        projection = (
            _construct(Projection, param=row.projection_param, style=row.projection_style)
            if row.projection_param
            else None
        )
        endpoints[row.source_id].append(
            _construct(
                Endpoint, id=_i(row.id), method=_i(row.method), access=_i(row.access), scope=_i(row.scope), base_url=_i(row.base_url),
                path=_i(row.path), summary=_i(row.summary), description=_i(row.description),
                tags=row.tags or [], intents=by_endpoint_intents.get(row.pk, []),
                projection=projection, parameters=by_endpoint_params.get(row.pk, []),
                fields=by_endpoint_fields.get(row.pk, []),
            )
        )
    source_aliases: dict[str, list[str]] = defaultdict(list)
    for row in connection.execute(
        where(select(T_SOURCE_ALIASES), T_SOURCE_ALIASES.c.source_id).order_by(T_SOURCE_ALIASES.c.position)
    ):
        source_aliases[row.source_id].append(row.alias)
    for row in connection.execute(where(select(T_SOURCES), T_SOURCES.c.id).order_by(T_SOURCES.c.id)):
        decls.sources[row.id] = _construct(
            Source, id=row.id, title=row.title, aliases=source_aliases.get(row.id, []), domain=row.domain,
            description=row.description, homepage=row.homepage, source_type=SourceType(row.source_type),
            license=licenses[row.license_pk], auth=Auth.model_validate(row.auth) if row.auth else None,
            priority=row.priority, cache_ttl=row.cache_ttl, endpoints=endpoints.get(row.id, []),
            feeds=[Feed.model_validate(f) for f in row.feeds or ()],
        )
        decls.owners[row.id] = Owner(row.owner_kind, row.owner_name, row.owner_version)


def read_adapter_specs(connection: Connection, only: str | None = None) -> dict[str, dict[str, dict[str, Any]]]:
    """Stored adapter specs: source id -> endpoint id -> spec (endpoints without one are left out)."""
    stmt = select(T_ENDPOINTS.c.source_id, T_ENDPOINTS.c.id, T_ENDPOINTS.c.adapter_spec).where(
        T_ENDPOINTS.c.adapter_spec.is_not(None)
    )
    if only is not None:
        stmt = stmt.where(T_ENDPOINTS.c.source_id == only)
    specs: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for source_id, endpoint_id, text in connection.execute(stmt.order_by(T_ENDPOINTS.c.position)):
        specs[source_id][endpoint_id] = json.loads(text)
    return dict(specs)
