"""The overlay of an SQL import: what a database schema cannot say about the source, in a small YAML file.

A schema has tables, columns, types and keys; it has no source type, license, title worth showing,
and (outside comments) no units, field groups or concepts. The overlay gives them, and which tables
to leave out. Field and parameter overrides are the OpenAPI overlay's
(:class:`~schemarouter.openapi.overlay.FieldOverlay`, :class:`~schemarouter.openapi.overlay.ParameterOverlay`),
keyed by the names the import produces (``--dry-run`` lists them); a name the import does not
produce is an error, never ignored::

    title: Halcyon lab database
    source_type: experimental
    license: {id: LicenseRef-Halcyon-Internal, name: Halcyon Materials Lab internal data}
    exclude: [audit_*]                     # tables and views left out (shell patterns)
    fields: {band_gap: {unit: eV}}         # by field name, in every table that has it
    tables:
      measurements: {row_cap: 500, fields: {density: {unit: g/cm^3}}}
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from schemarouter.declarations import describe_validation_error, read_yaml
from schemarouter.errors import DeclarationError
from schemarouter.models import ENV_VAR_PATTERN, Alias, License, SourceType
from schemarouter.openapi.overlay import FieldOverlay, ParameterOverlay
from schemarouter.sources.sql import MAX_ROW_CAP
from schemarouter.sqlsource.errors import SqlImportError

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]
EnvName = Annotated[str, StringConstraints(pattern=ENV_VAR_PATTERN.pattern)]
RowCap = Annotated[int, Field(ge=1, le=MAX_ROW_CAP)]
Seconds = Annotated[float, Field(gt=0, le=3600)]


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class TableOverlay(_Strict):
    """Overrides for one table or view (its endpoints), or its exclusion."""

    id: Slug | None = None  # rename the endpoint
    exclude: bool = False
    description: str | None = None
    intents: list[Slug] | None = None
    identifier: str | None = None  # field name of the record key (a view has no primary key)
    row_cap: RowCap | None = None
    timeout_s: Seconds | None = None
    unit_from: dict[str, str] = Field(default_factory=dict)  # field -> the field holding its unit
    fields: dict[str, FieldOverlay] = Field(default_factory=dict)
    drop_fields: list[str] = Field(default_factory=list)
    parameters: dict[str, ParameterOverlay] = Field(default_factory=dict)


class SqlOverlay(_Strict):
    """What the schema cannot say: the source's metadata, tables left out, and per-table overrides."""

    title: str | None = None
    aliases: list[Alias] = Field(default_factory=list)
    domain: Slug | None = None
    description: str | None = None
    homepage: str | None = None
    source_type: SourceType | None = None
    license: License | None = None
    priority: int | None = None
    cache_ttl: Annotated[int, Field(ge=0, le=31_536_000)] | None = None
    auth_env: EnvName | None = None  # the NAME of the variable that holds the database password
    default_group: Slug | None = None
    intents: list[Slug] = Field(default_factory=list)  # default intents of every endpoint
    row_cap: RowCap | None = None  # rows one step reads at most (default 200)
    timeout_s: Seconds | None = None  # seconds one query may run (default 10)
    exclude: list[str] = Field(default_factory=list)  # tables and views to leave out (shell patterns)
    fields: dict[str, FieldOverlay] = Field(default_factory=dict)  # by field name, in every table with it
    tables: dict[str, TableOverlay] = Field(default_factory=dict)  # by table name or endpoint id


def load_sql_overlay(path: str | Path | None) -> SqlOverlay:
    """Read and validate an overlay file (none: an empty overlay)."""
    if path is None:
        return SqlOverlay()
    try:
        data = read_yaml(Path(path))
    except DeclarationError as err:
        raise SqlImportError(str(path), err.item, err.problem) from None
    if data is None:
        return SqlOverlay()
    if not isinstance(data, dict):
        raise SqlImportError(str(path), "", "an overlay is a mapping (title, source_type, license, exclude, tables, ...)")
    try:
        return SqlOverlay.model_validate(data)
    except ValidationError as exc:
        raise SqlImportError(str(path), "", describe_validation_error(exc, data)) from None
