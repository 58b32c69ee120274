"""The overlay: what an OpenAPI document cannot say about a source, in a small YAML file.

OpenAPI describes requests and response shapes; it has no source type, license terms worth
citing, units (except the ``x-unit`` extension), domain concepts, aliases or field groups.
The overlay supplies them, keyed by the endpoint ids and field names the importer produces
(``schemarouter source import-openapi SPEC --id ID --dry-run`` lists them). Naming an
endpoint, field or parameter that the import does not produce is an error, never ignored.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from schemarouter.declarations import describe_validation_error, read_yaml
from schemarouter.errors import DeclarationError
from schemarouter.models import ENV_VAR_PATTERN, Alias, Auth, License, Projection, SourceType
from schemarouter.openapi.errors import OpenAPIImportError

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]
EnvName = Annotated[str, StringConstraints(pattern=ENV_VAR_PATTERN.pattern)]


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class FieldOverlay(_Strict):
    """Overrides for one imported field, or (with a ``path``, under one endpoint) a field the
    document's response schema does not describe."""

    path: str | None = None  # where the value sits in a record ("a.b", "items[].x"): declares a new field
    name: str | None = None  # rename the imported field
    group: Slug | None = None
    concepts: list[Slug] | None = None
    aliases: list[Alias] | None = None
    unit: str | None = None
    description: str | None = None
    type: str | None = None
    source_type: SourceType | None = None
    license: License | None = None
    identifier: bool | None = None


class ParameterOverlay(_Strict):
    """Overrides for one imported parameter."""

    concept: Slug | None = None
    description: str | None = None
    example: Any = None
    required: bool | None = None
    # the codes it takes and what each means, where the importer read them wrong or not at all
    # (an empty list or mapping drops what it read)
    enum: list[Any] | None = None
    enum_labels: dict[str, str] | None = None


class EndpointOverlay(_Strict):
    """Overrides for one imported endpoint, or its exclusion."""

    id: Slug | None = None  # rename the endpoint
    exclude: bool = False
    description: str | None = None
    intents: list[Slug] | None = None
    records: str | None = None  # where records sit; overrides the importer's choice
    identifier: str | None = None  # field name of the record key
    projection: Projection | None = None
    fixed: dict[str, Any] = Field(default_factory=dict)
    unit_from: dict[str, str] = Field(default_factory=dict)  # field -> the field holding its unit
    fields: dict[str, FieldOverlay] = Field(default_factory=dict)
    drop_fields: list[str] = Field(default_factory=list)
    parameters: dict[str, ParameterOverlay] = Field(default_factory=dict)


class Overlay(_Strict):
    """What the document cannot say: the source's metadata and per-endpoint, field and parameter overrides."""

    id: Slug | None = None  # the source id, where the command line gives none (a catalogue's documents)
    title: str | None = None
    aliases: list[Alias] = Field(default_factory=list)
    domain: Slug | None = None
    description: str | None = None
    homepage: str | None = None
    source_type: SourceType | None = None
    license: License | None = None
    priority: int | None = None
    base_url: str | None = None
    auth_env: EnvName | None = None  # the env var NAME holding the key of the spec's security scheme
    auth: Auth | None = None  # or the whole auth block, when the spec declares no usable scheme
    default_group: Slug | None = None
    intents: list[Slug] = Field(default_factory=list)  # default intents of every endpoint
    read_only_posts: list[str] = Field(default_factory=list)  # POSTs that only read: operation ids or "POST /path"
    fields: dict[str, FieldOverlay] = Field(default_factory=dict)  # by field name, in every endpoint with it
    endpoints: dict[str, EndpointOverlay] = Field(default_factory=dict)


def load_overlay(path: str | Path | None) -> Overlay:
    """Read and validate an overlay file (none: an empty overlay)."""
    if path is None:
        return Overlay()
    try:
        data = read_yaml(Path(path))
    except DeclarationError as err:
        raise OpenAPIImportError(str(path), err.item, err.problem) from None
    if data is None:
        return Overlay()
    if not isinstance(data, dict):
        raise OpenAPIImportError(str(path), "", "an overlay is a mapping (title, source_type, license, endpoints, ...)")
    try:
        return Overlay.model_validate(data)
    except ValidationError as exc:
        raise OpenAPIImportError(str(path), "", describe_validation_error(exc, data)) from None
