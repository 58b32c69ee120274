"""Tables and views become endpoints, columns fields, key and typed columns filter parameters, and
foreign keys links.

For each table or view:

* one endpoint (``/samples``) whose fields are its columns: type from the column type; unit, group,
  concepts, aliases and description from the overlay, else the column's comment; primary and foreign
  key columns in the ``identity`` group, the primary key the record's identifier;
* parameters a user can look rows up by: ``eq`` on primary-key, unique, indexed, foreign-key, boolean
  and enum columns (a generic name is qualified by the table: ``name`` of ``samples`` is
  ``sample_name``), ``contains`` (case-insensitive) on other text columns, ``min``/``max`` ranges on
  numbers and ``from``/``to`` on dates;
* for each single-column foreign key to another imported table, a second endpoint that reads the
  rows of one parent (``/samples/{sample_id}/measurements``, the key required), and links (``feeds``)
  from the parent's key field to the child's key parameters and back. The router binds only
  required parameters to earlier steps, so the endpoint with the key required is what lets a plan go
  from a sample's name to its measurements.

A column ``unit`` beside a column ``value`` (or ``X_unit`` beside ``X``) gives that column's unit per
row (``unit_from``). Everything a budget or the declaration model cannot hold is reported.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from schemarouter.openapi.overlay import FieldOverlay
from schemarouter.sources.spec import AdapterSpec
from schemarouter.sources.sql import PROTOCOL
from schemarouter.sqlsource.comments import read_comment
from schemarouter.sqlsource.errors import SqlImportError, close_match
from schemarouter.sqlsource.naming import (
    GENERIC_COLUMNS,
    ascii_words,
    human,
    path_segment,
    singular,
    slug,
    unique,
)
from schemarouter.sqlsource.overlay import SqlOverlay, TableOverlay
from schemarouter.sqlsource.reflect import Column, Reflection, Table
from schemarouter.sqlsource.report import SqlImportReport
from schemarouter.unit_names import unit_in_name

MAX_FIELDS = 400  # fields of one endpoint; further columns are reported
MAX_PARAMS = 48  # filter parameters of one endpoint, keys first
DEFAULT_GROUP = "content"
KEY_GROUP = "identity"
_UNIT_COLUMNS = ("unit", "units")


@dataclass
class Vocabulary:
    """The registry's concepts and field groups: a comment naming another is reported, not declared."""

    concepts: frozenset[str]
    groups: frozenset[str]


@dataclass
class _Param:
    name: str
    column: str
    op: str
    type: str
    description: str
    required: bool = False
    enum: list[str] | None = None


@dataclass
class _Mapped:
    """One table's endpoint as built, before the source is validated."""

    table: Table
    endpoint_id: str
    path: str
    fields: list[dict[str, Any]]
    field_of: dict[str, str]  # column -> field name
    params: list[_Param]
    param_of: dict[str, str]  # column -> its eq parameter
    options: dict[str, Any]
    unit_from: dict[str, str]
    overlay: TableOverlay
    summary: str
    description: str
    intents: list[str]


@dataclass
class MappedSource:
    """The endpoints, adapter specs and links an import produced."""

    endpoints: list[dict[str, Any]] = field(default_factory=list)
    specs: dict[str, AdapterSpec] = field(default_factory=dict)
    feeds: list[dict[str, str]] = field(default_factory=list)


class SqlMapper:
    """Maps a reflected schema, with the overlay, to endpoint dictionaries and SQL adapter specs."""

    def __init__(
        self, reflection: Reflection, overlay: SqlOverlay, overlay_file: str, report: SqlImportReport,
        base_url: str, vocabulary: Vocabulary | None = None,
    ) -> None:
        self.reflection = reflection
        self.overlay = overlay
        self.overlay_file = overlay_file
        self.report = report
        self.base_url = base_url
        self.vocabulary = vocabulary
        # column name -> the units tables' comments give it: a view's column of that name, which has
        # no comment of its own, takes the unit when there is exactly one
        self._table_units: dict[str, set[str]] = {}
        for table in reflection.tables:
            if table.kind == "table":
                for col in table.columns:
                    unit = read_comment(col.comment).unit if col.comment else None
                    if unit:
                        self._table_units.setdefault(col.name, set()).add(unit)

    # ------------------------------------------------------------------ the whole schema
    def map(self) -> MappedSource:
        """Every table's endpoint, then the foreign-key endpoints and links."""
        self._check_table_names()
        taken: set[str] = set()
        mapped: dict[str, _Mapped] = {}
        for table in self.reflection.tables:
            ov = self.overlay.tables.get(table.name) or self._overlay_by_id(table) or TableOverlay()
            if ov.exclude:
                self.report.excluded.append(table.name)
                continue
            mapped[table.name] = self._table(table, ov, taken)
        self._check_field_names(mapped.values())
        out = MappedSource()
        for m in mapped.values():
            self._emit(out, m, m.endpoint_id, m.path, m.params, m.summary)
        keyed: dict[str, tuple[str, _Mapped, str]] = {}  # parent table -> (its record-by-key endpoint, parent, key)
        for m in mapped.values():
            self._foreign_keys(out, m, mapped, taken, keyed)
        for endpoint_id, parent, key in keyed.values():
            self._by_key(out, endpoint_id, parent, key)
        return out

    def _overlay_by_id(self, table: Table) -> TableOverlay | None:
        return self.overlay.tables.get(slug(table.name, "table"))

    def _check_table_names(self) -> None:
        names = [t.name for t in self.reflection.tables]
        ids = [slug(n, "table") for n in names]
        for key in self.overlay.tables:
            if key not in names and key not in ids and key not in self.report.excluded:
                raise SqlImportError(self.overlay_file, f"tables.{key}", f"no table or view {key!r} in the import"
                                     + close_match(key, names))

    def _check_field_names(self, mapped: Iterable[_Mapped]) -> None:
        everything = {f["name"] for m in mapped for f in m.fields} | {
            n for m in mapped for n in m.field_of.values()}
        for name, fo in self.overlay.fields.items():
            if fo.path is not None:
                raise SqlImportError(self.overlay_file, f"fields.{name}.path",
                                     "a database field reads its column; it has no path to declare")
            if name not in everything:
                raise SqlImportError(self.overlay_file, f"fields.{name}",
                                     f"no field {name!r} in the import" + close_match(name, sorted(everything)))

    # ------------------------------------------------------------------ one table
    def _table(self, table: Table, ov: TableOverlay, taken: set[str]) -> _Mapped:
        endpoint_id = unique(ov.id or slug(table.name, "table"), taken)
        where = f"tables.{table.name}"
        columns = table.columns
        if len(columns) > MAX_FIELDS:
            for col in columns[MAX_FIELDS:]:
                self.report.add(f"{table.name}.{col.name}", "over the field limit",
                                f"an endpoint keeps its first {MAX_FIELDS} columns")
            columns = columns[:MAX_FIELDS]
        field_of: dict[str, str] = {}
        names: set[str] = set()
        for i, col in enumerate(columns):
            field_of[col.name] = unique(slug(col.name, f"column_{i + 1}", 120), names, 120)
        known = set(field_of.values())
        for name, fo in ov.fields.items():
            if fo.path is not None:
                raise SqlImportError(self.overlay_file, f"{where}.fields.{name}.path",
                                     "a database field reads its column; it has no path to declare")
            if name not in known:
                raise SqlImportError(self.overlay_file, f"{where}.fields.{name}",
                                     f"no field {name!r} in {table.name}" + close_match(name, sorted(known)))
        for name in ov.drop_fields:
            if name not in known:
                raise SqlImportError(self.overlay_file, f"{where}.drop_fields",
                                     f"no field {name!r} in {table.name}" + close_match(name, sorted(known)))
        keys = set(table.primary_key) | {c for fk in table.foreign_keys for c in fk.columns}
        identifier_col = table.primary_key[0] if len(table.primary_key) == 1 else None
        if ov.identifier is not None:
            by_field = {v: k for k, v in field_of.items()}
            if ov.identifier not in by_field:
                raise SqlImportError(self.overlay_file, f"{where}.identifier",
                                     f"no field {ov.identifier!r} in {table.name}" + close_match(ov.identifier, sorted(known)))
            identifier_col = by_field[ov.identifier]
        if identifier_col is None:
            why = "a view has no primary key" if table.kind == "view" else (
                "its primary key has several columns" if table.primary_key else "it has no primary key")
            self.report.notes.append(f"{table.name}: no identifier ({why}); records are not named; "
                                     f"set tables.{table.name}.identifier in the overlay to name one")
        fields: list[dict[str, Any]] = []
        kept: dict[str, str] = {}
        for col in columns:
            name = field_of[col.name]
            if name in ov.drop_fields:
                continue
            declared = self._field(table, col, name, ov, col.name == identifier_col, col.name in keys)
            kept[col.name] = declared["name"]  # the overlay may rename it; records are keyed by that name
            fields.append(declared)
        if not fields:
            raise SqlImportError(self.overlay_file, f"{where}.drop_fields", f"every field of {table.name} is dropped")
        unit_from = self._unit_from(table, kept, fields, ov)
        units = {col: f["unit"] for col, f in zip(kept, fields, strict=True) if f["unit"]}
        params = self._params(table, kept, ov, where, units)
        param_of = {p.column: p.name for p in params if p.op == "eq"}
        kind = "View" if table.kind == "view" else "Table"
        summary = f"{kind} {table.name}" + (f": {table.comment}" if table.comment else "")
        options: dict[str, Any] = {
            "table": table.name, "kind": table.kind,
            "columns": {name: col for col, name in kept.items()},
            "types": {c.name: c.type_name for c in columns},
            "order_by": list(table.primary_key) if table.kind == "table" else [],
        }
        if self.reflection.schema:
            options["schema"] = self.reflection.schema
        row_cap = ov.row_cap or self.overlay.row_cap
        timeout_s = ov.timeout_s or self.overlay.timeout_s
        if row_cap is not None:
            options["row_cap"] = row_cap
        if timeout_s is not None:
            options["timeout_s"] = timeout_s
        return _Mapped(
            table=table, endpoint_id=endpoint_id, path="/" + path_segment(table.name), fields=fields,
            field_of=kept, params=params, param_of=param_of, options=options, unit_from=unit_from, overlay=ov,
            summary=summary[:400], description=(ov.description or table.comment or "")[:4000],
            intents=ov.intents if ov.intents is not None else list(self.overlay.intents),
        )

    def _field(self, table: Table, col: Column, name: str, ov: TableOverlay, is_id: bool, is_key: bool) -> dict[str, Any]:
        fo = _merge(self.overlay.fields.get(name), ov.fields.get(name))
        facts = read_comment(col.comment) if col.comment else None
        place = f"{table.name}.{col.name}"
        for word in facts.not_units if facts else []:
            self.report.notes.append(f"{place}: comment [{word}] is not a unit the units library knows; kept as text")
        concepts = fo.get("concepts") or self._known(facts.concepts if facts else [], "concept", place)
        group = fo.get("group") or next(iter(self._known([facts.group] if facts and facts.group else [], "group", place)),
                                        None)
        group = group or (KEY_GROUP if is_id or is_key else self.overlay.default_group or DEFAULT_GROUP)
        unit = fo.get("unit") or (facts.unit if facts else None)
        inherited = self._table_units.get(col.name, set()) if table.kind == "view" and unit is None else set()
        if len(inherited) == 1 and col.value_type in ("number", "integer"):
            unit = next(iter(inherited))
            self.report.notes.append(f"{place}: unit {unit} from the table column of that name")
        if unit is None and col.value_type in ("number", "integer") and (unit := unit_in_name(col.name)) is not None:
            # ``distance_km``, ``Milliseconds``: the column's name says its unit
            self.report.notes.append(f"{place}: unit {unit} read from the column's name; "
                                     f"correct it under fields.{name}.unit in the overlay")
        description = fo.get("description") or (facts.description if facts else "")
        if col.binary:
            description = (description + " " if description else "") + "(binary data: shown as its size)"
        if not col.known:
            self.report.add(place, "unknown column type", f"{col.type_name} is not a type SQLAlchemy knows; read as text")
        aliases = list(fo.get("aliases") or (facts.aliases if facts else []))
        if col.name != name and col.name not in aliases and 0 < len(col.name) <= 120:
            aliases.append(col.name)  # the column's own name, as people who know the database say it
        return {
            "name": fo.get("name") or name, "path": fo.get("name") or name, "type": fo.get("type") or col.value_type,
            "unit": unit, "group": group, "identifier": is_id,
            "concepts": concepts, "aliases": aliases, "description": description[:4000],
            "source_type": fo.get("source_type"), "license": fo.get("license"),
        }

    def _known(self, names: list[str], kind: str, place: str) -> list[str]:
        """Comment-given concepts or groups the registry knows; others are reported and left out."""
        if self.vocabulary is None:
            return names
        allowed = self.vocabulary.concepts if kind == "concept" else self.vocabulary.groups
        for name in names:
            if name not in allowed:
                self.report.notes.append(f"{place}: comment names {kind} {name!r}, which the registry does not know; left out")
        return [n for n in names if n in allowed]

    def _unit_from(self, table: Table, kept: dict[str, str], fields: list[dict[str, Any]], ov: TableOverlay) -> dict[str, str]:
        names = {f["name"] for f in fields}
        by_path = {f["path"]: f for f in fields}
        out: dict[str, str] = {}
        for col, name in kept.items():
            lowered = col.lower()
            partner: str | None = None
            if lowered in _UNIT_COLUMNS:
                partner = next((c for c in kept if c.lower() == "value"), None)
            else:
                for suffix in ("_unit", "_units"):
                    if lowered.endswith(suffix):
                        partner = next((c for c in kept if c.lower() == lowered[: -len(suffix)]), None)
            if partner is None:
                continue
            target = by_path[kept[partner]]
            if target["unit"] is None and target["type"] in ("number", "integer") and \
                    by_path[name]["type"] == "string":
                out[target["name"]] = by_path[name]["name"]
        for name, unit_field in ov.unit_from.items():
            for fname in (name, unit_field):
                if fname not in names:
                    raise SqlImportError(self.overlay_file, f"tables.{table.name}.unit_from",
                                         f"no field {fname!r} in {table.name}" + close_match(fname, sorted(names)))
            out[name] = unit_field
        return out

    def _params(
        self, table: Table, kept: dict[str, str], ov: TableOverlay, where: str, units: dict[str, str],
    ) -> list[_Param]:
        noun = singular(slug(table.name, "table").split("_")[-1])
        fks = {c for fk in table.foreign_keys for c in fk.columns}
        taken: set[str] = set()
        out: list[_Param] = []
        ordered = sorted(table.columns, key=lambda c: (
            0 if c.name in table.primary_key else 1 if c.name in table.unique else 2 if c.name in fks
            else 3 if c.name in table.indexed else 4))
        for col in ordered:
            if col.name not in kept or col.binary or col.value_type in ("array", "object"):
                continue
            base = ascii_words(col.name) or kept[col.name]
            keyed = col.name in table.unique or col.name in fks or col.name in table.indexed or \
                col.name in table.primary_key
            if keyed or col.value_type == "boolean" or col.enum:
                name = f"{noun}_{base}" if base in GENERIC_COLUMNS and noun != base else base
                role = ("the primary key" if col.name in table.primary_key else "unique" if col.name in table.unique
                        else "a key of another table" if col.name in fks else "indexed" if keyed else "")
                out.append(_Param(unique(slug(name, "param", 120), taken, 120), col.name, "eq", col.value_type,
                                  f"Rows of {table.name} whose {human(col.name)} is this value"
                                  + (f" ({role})" if role else "") + ".", enum=col.enum))
            elif col.value_type == "string":
                out.append(_Param(unique(slug(f"{base}_contains", "param", 120), taken, 120), col.name, "contains",
                                  "string", f"Rows of {table.name} whose {human(col.name)} contains this text "
                                  f"(ignoring case)."))
            elif col.value_type in ("integer", "number", "date"):
                low, high = ("from", "to") if col.value_type == "date" else ("min", "max")
                unit = units.get(col.name)
                for suffix, op, word in ((low, "min", "at least"), (high, "max", "at most")):
                    out.append(_Param(unique(slug(f"{base}_{suffix}", "param", 120), taken, 120), col.name, op,
                                      col.value_type, f"Rows of {table.name} whose {human(col.name)} is {word} "
                                      f"this value{f' ({unit})' if unit else ''}."))
        shaping = self._shaping(table, kept, taken)
        room = MAX_PARAMS - len(shaping)
        if len(out) > room:
            for p in out[room:]:
                self.report.add(f"{table.name}.{p.column}", "over the parameter limit",
                                f"{p.name}: an endpoint keeps its first {room} filters (keys first)")
            out = out[:room]
        out += shaping
        names = [p.name for p in out]
        for name in ov.parameters:
            if name not in names:
                raise SqlImportError(self.overlay_file, f"{where}.parameters.{name}",
                                     f"no parameter {name!r} in {table.name}" + close_match(name, names))
        return out

    # ------------------------------------------------------------------ output
    def _shaping(self, table: Table, kept: dict[str, str], taken: set[str]) -> list[_Param]:
        """The parameters that order and cut the rows ("the 3 longest trips"): ``sort_by`` a numeric or
        date field (not a key), ``descending``, ``limit``; none for a table with nothing to order by."""
        keys = {*table.primary_key, *(c for fk in table.foreign_keys for c in fk.columns)}
        sortable = [kept[c.name] for c in table.columns if c.name in kept and c.name not in keys
                    and c.value_type in ("integer", "number", "date") and not c.binary]
        if not sortable:
            return []
        return [
            _Param(unique("sort_by", taken, 120), "", "sort", "string",
                   f"The field to order the rows of {table.name} by (lowest or earliest first).", enum=sortable),
            _Param(unique("descending", taken, 120), "", "desc", "boolean",
                   "Whether the order is reversed: highest or latest first."),
            _Param(unique("limit", taken, 120), "", "limit", "integer", "At most this many rows."),
        ]

    def _emit(self, out: MappedSource, m: _Mapped, endpoint_id: str, path: str, params: list[_Param],
              summary: str, locations: dict[str, str] | None = None) -> None:
        declared = []
        for p in params:
            po = m.overlay.parameters.get(p.name)
            declared.append({
                "name": p.name, "type": p.type,
                "required": po.required if po and po.required is not None else p.required,
                "concept": po.concept if po else None,
                "description": po.description if po and po.description else p.description,
                "example": po.example if po else None,
                "enum": (po.enum or None) if po and po.enum is not None else p.enum,
                "enum_labels": (po.enum_labels or None) if po and po.enum_labels is not None else None,
            })
        out.endpoints.append({
            "id": endpoint_id, "method": "GET", "access": "read", "base_url": self.base_url, "path": path,
            "summary": summary, "description": m.description, "intents": m.intents,
            "parameters": declared, "fields": m.fields,
        })
        options = dict(m.options)
        options["params"] = {p.name: {"column": p.column, "op": p.op} for p in params}
        out.specs[endpoint_id] = AdapterSpec.model_validate({
            "protocol": PROTOCOL, "options": options, "unit_from": m.unit_from, "locations": locations or {},
        })
        self.report.places[endpoint_id] = f"{m.table.kind} {m.table.name}"

    def _foreign_keys(self, out: MappedSource, m: _Mapped, mapped: dict[str, _Mapped], taken: set[str],
                      keyed: dict[str, tuple[str, _Mapped, str]]) -> None:
        """For each single-column foreign key to an imported table: the rows-of-one-parent endpoint, the
        parent's record-by-key endpoint (once per parent), and links."""
        for fk in m.table.foreign_keys:
            place = f"{m.table.name} ({', '.join(fk.columns)}) -> {fk.target}"
            parent = mapped.get(fk.target)
            if len(fk.columns) != 1:
                self.report.add(place, "composite foreign key", "not linked: a link joins one column to one")
                continue
            if parent is None or (fk.target_schema and fk.target_schema != self.reflection.schema):
                self.report.add(place, "foreign key to a table not imported", "not linked")
                continue
            column, target = fk.columns[0], fk.target_columns[0]
            param = m.param_of.get(column)
            parent_field = parent.field_of.get(target)
            if param is None or parent_field is None:
                self.report.add(place, "foreign key without a filter or field", "not linked (a column was dropped)")
                continue
            parent_noun = singular(slug(parent.table.name, "table").split("_")[-1])
            base = f"{m.endpoint_id}_of_{parent_noun}"
            if any(e["id"] == base for e in out.endpoints) or base in taken:
                base = f"{m.endpoint_id}_by_{slug(column, 'key')}"
            endpoint_id = unique(base, taken)
            params = [_Param(p.name, p.column, p.op, p.type, p.description, required=p.name == param, enum=p.enum)
                      for p in m.params]
            params.sort(key=lambda p: not p.required)
            path = f"{parent.path}/{{{param}}}{m.path}"
            summary = (f"{'Rows' if m.table.kind == 'table' else 'View rows'} of {m.table.name} for one "
                       f"{parent_noun} ({m.table.name}.{column} = {parent.table.name}.{target})")
            self._emit(out, m, endpoint_id, path, params, summary[:400], {param: "path"})
            self.report.key_endpoints += 1
            out.feeds.append({"from": f"{parent.endpoint_id}.{parent_field}", "to": f"{endpoint_id}.{param}"})
            if parent is not m:
                out.feeds.append({"from": f"{parent.endpoint_id}.{parent_field}", "to": f"{m.endpoint_id}.{param}"})
                back = parent.param_of.get(target)
                child_field = m.field_of.get(column)
                if back is not None and child_field is not None:
                    out.feeds.append({"from": f"{m.endpoint_id}.{child_field}", "to": f"{parent.endpoint_id}.{back}"})
                    if target in parent.table.primary_key and len(parent.table.primary_key) == 1:
                        # "the district of the Pier 4 station": the parent's record by the key the child holds
                        if parent.table.name not in keyed:
                            keyed[parent.table.name] = (unique(slug(parent_noun, "table"), taken), parent, back)
                        by_key = keyed[parent.table.name][0]
                        out.feeds.append({"from": f"{m.endpoint_id}.{child_field}", "to": f"{by_key}.{back}"})

    def _by_key(self, out: MappedSource, endpoint_id: str, parent: _Mapped, key: str) -> None:
        """The endpoint that reads one row of ``parent`` by its primary key ``key``."""
        params = [_Param(key, p.column, p.op, p.type, p.description, required=True, enum=p.enum)
                  for p in parent.params if p.name == key]
        path = f"{parent.path}/{{{key}}}"
        summary = f"One row of {parent.table.name} by its {human(params[0].column)}"
        self._emit(out, parent, endpoint_id, path, params, summary[:400], {key: "path"})
        self.report.record_endpoints += 1


def _merge(*overlays: FieldOverlay | None) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for fo in overlays:
        if fo is not None:
            merged.update(fo.model_dump(exclude_none=True))
            if fo.license is not None:
                merged["license"] = fo.license
    return merged
