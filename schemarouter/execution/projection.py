"""Local projection: map raw records to declared fields, typed, with provenance on every value.

Each field is read by its declared ``path`` (:func:`schemarouter.field_paths.extract`), cast to its
declared type (:mod:`casting`), and tagged with the source, record identifier, source type,
license and attribution the declaration gives. Units are the declared ones, or, for fields named
in ``unit_from`` (MPDS), the unit the record itself states.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemarouter.execution.adapter import FieldValue
from schemarouter.execution.casting import cast_value
from schemarouter.execution.results import Record, Value
from schemarouter.field_paths import extract
from schemarouter.models import Endpoint, ResponseField, Source


def identifier_field(endpoint: Endpoint) -> ResponseField | None:
    """The field that names a record, if the endpoint declares one."""
    return next((f for f in endpoint.fields if f.identifier), None)


def _raw(record: Any, f: ResponseField, projected: bool) -> Any:
    if projected:
        return record.get(f.name) if isinstance(record, dict) else None
    return extract(record, f.path)


def project_record(
    source: Source,
    endpoint: Endpoint,
    fields: list[ResponseField],
    record: Any,
    *,
    projected: bool = False,
    unit_from: Mapping[str, str] | None = None,
) -> Record:
    """Pick the requested fields out of one raw record, cast to their types with units and provenance."""
    id_field = identifier_field(endpoint)
    unit_from = unit_from or {}
    raw_id = _raw(record, id_field, projected) if id_field is not None else None
    if isinstance(raw_id, FieldValue):
        raw_id = raw_id.value
    record_id = cast_value(raw_id, "string").value
    if record_id is None and isinstance(record, dict) and record.get("id") is not None:
        record_id = str(record["id"])  # the API's own record id when the declared identifier is absent
    values: dict[str, Value] = {}
    for f in fields:
        raw = _raw(record, f, projected)
        unit, note = f.unit, None
        if isinstance(raw, FieldValue):
            unit = raw.unit or unit
            note = raw.note
            raw = raw.value
        cast = cast_value(raw, f.type)
        note = cast.note or note
        if f.name in unit_from:
            unit_field = endpoint.field(unit_from[f.name])
            stated = cast_value(_raw(record, unit_field, projected), "string").value
            unit = stated or unit
        license_ = f.license or source.license
        values[f.name] = Value(
            field=f.name,
            value=cast.value,
            unit=unit,
            source=source.id,
            source_title=source.title,
            endpoint=endpoint.id,
            record_id=record_id,
            source_type=(f.source_type or source.source_type).value,
            license=license_.id,
            attribution=license_.attribution or source.title,
            note=note,
        )
    return Record(source=source.id, endpoint=endpoint.id, record_id=record_id, values=values)
