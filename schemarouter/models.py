"""Declaration models: what a source plugin (or a YAML file) says about a data source.

These are the vocabulary every other layer speaks. They are frozen pydantic models with
``extra="forbid"`` so a typo in a declaration is an error, not a silently ignored key.
Validation here is local to one object (slugs, closed type sets, paths, auth); checks that
need the whole picture (unknown intents, groups or concepts, duplicate source ids across
plugins) live in :mod:`schemarouter.declarations`.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from schemarouter.paths import PathSyntaxError, parse_path

SLUG_PATTERN = r"^[a-z][a-z0-9_]*$"
NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_.\-]*$"
ENV_VAR_PATTERN = re.compile(r"^[A-Z][A-Z0-9_]*$")

Slug = Annotated[str, StringConstraints(pattern=SLUG_PATTERN, max_length=64)]
Name = Annotated[str, StringConstraints(pattern=NAME_PATTERN, max_length=128)]
Text = Annotated[str, StringConstraints(max_length=4000)]
Alias = Annotated[str, StringConstraints(min_length=1, max_length=120)]

ValueType = Literal["string", "integer", "number", "boolean", "date", "array", "object"]
VALUE_TYPES: tuple[str, ...] = ("string", "integer", "number", "boolean", "date", "array", "object")


class SourceType(str, Enum):
    """Where a value comes from; the provenance layer of every plan."""

    calculated = "calculated"
    experimental = "experimental"
    literature = "literature"
    curated = "curated"
    regulatory = "regulatory"
    web = "web"


class Declaration(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


def _unique(values: list[str], what: str) -> list[str]:
    seen: set[str] = set()
    for value in values:
        key = value
        if key in seen:
            raise ValueError(f"duplicate {what} {value!r}")
        seen.add(key)
    return values


class License(Declaration):
    """A license or terms statement, SPDX-style id (``LicenseRef-*`` for the rest)."""

    id: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9.+\-]+$", max_length=120)]
    name: Text
    url: str | None = None
    attribution: Text | None = None
    verified: bool = False


class Auth(Declaration):
    """How a key is sent. ``env`` names the environment variable that holds it, never the key."""

    env: str
    location: Literal["header", "query"] = Field(alias="in")
    name: Annotated[str, StringConstraints(min_length=1, max_length=120)]

    @field_validator("env")
    @classmethod
    def _env_is_a_variable_name(cls, value: str) -> str:
        if not ENV_VAR_PATTERN.fullmatch(value):
            raise ValueError(
                f"auth.env must name an environment variable such as MY_API_KEY "
                f"(upper case, digits, underscores), not hold a key value; got {_redact(value)}"
            )
        return value


def _redact(value: str) -> str:
    """Show the shape of a suspected secret without repeating it."""
    if len(value) <= 4:
        return repr(value)
    return f"{value[:2]}…({len(value)} characters)"


class Projection(Declaration):
    """How an endpoint selects response fields server-side."""

    param: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    style: Literal["csv", "path_csv", "json_list", "aflux_keywords"]


class Parameter(Declaration):
    name: Name
    type: ValueType
    required: bool = False
    concept: Slug | None = None
    description: Text = ""
    example: Any = None
    enum: list[Any] | None = None


class ResponseField(Declaration):
    name: Name
    path: str
    type: ValueType
    unit: Annotated[str, StringConstraints(min_length=1, max_length=40)] | None = None
    group: Slug
    identifier: bool = False
    concepts: list[Slug] = Field(default_factory=list)
    aliases: list[Alias] = Field(default_factory=list)
    description: Text = ""
    source_type: SourceType | None = None
    license: License | None = None

    @field_validator("path")
    @classmethod
    def _path_is_valid(cls, value: str) -> str:
        try:
            parse_path(value)
        except PathSyntaxError as exc:
            raise ValueError(str(exc)) from None
        return value

    @field_validator("concepts")
    @classmethod
    def _unique_concepts(cls, value: list[str]) -> list[str]:
        return _unique(value, "concept")

    @field_validator("aliases")
    @classmethod
    def _unique_aliases(cls, value: list[str]) -> list[str]:
        return _unique(value, "alias")


class Endpoint(Declaration):
    id: Slug
    method: Literal["GET", "POST"] = "GET"
    base_url: Annotated[str, StringConstraints(pattern=r"^https?://\S+$")]
    path: Annotated[str, StringConstraints(pattern=r"^/\S*$")]
    description: Text = ""
    intents: list[Slug] = Field(default_factory=list)
    projection: Projection | None = None
    parameters: list[Parameter] = Field(default_factory=list)
    fields: list[ResponseField]

    @model_validator(mode="after")
    def _consistent(self) -> Endpoint:
        _unique([p.name for p in self.parameters], "parameter")
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            dup = next(n for n in names if names.count(n) > 1)
            raise ValueError(f"duplicate field {dup!r}")
        if not any(f.identifier for f in self.fields):
            raise ValueError(
                f"endpoint {self.id!r} has no identifier field: mark the record key with identifier: true"
            )
        _unique(self.intents, "intent")
        return self

    def field(self, name: str) -> ResponseField:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def parameter(self, name: str) -> Parameter:
        for p in self.parameters:
            if p.name == name:
                return p
        raise KeyError(name)


class Source(Declaration):
    """A data source (the paper's Tool): one API or database with its endpoints."""

    id: Slug
    title: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    aliases: list[Alias] = Field(default_factory=list)
    domain: Slug
    description: Text = ""
    homepage: str | None = None
    source_type: SourceType
    license: License
    auth: Auth | None = None
    priority: Annotated[int, Field(ge=0, le=100)] = 5
    endpoints: list[Endpoint]

    @model_validator(mode="after")
    def _consistent(self) -> Source:
        if not self.endpoints:
            raise ValueError(f"source {self.id!r} declares no endpoints")
        ids = [e.id for e in self.endpoints]
        if len(set(ids)) != len(ids):
            dup = next(i for i in ids if ids.count(i) > 1)
            raise ValueError(f"duplicate endpoint id {dup!r}")
        _unique(self.aliases, "alias")
        return self

    def endpoint(self, endpoint_id: str) -> Endpoint:
        for e in self.endpoints:
            if e.id == endpoint_id:
                return e
        raise KeyError(endpoint_id)


class Intent(Declaration):
    """What a question asks for; its field groups are the recall safety net."""

    name: Slug
    description: Text = ""
    domains: list[Slug] = Field(default_factory=list)
    field_groups: list[Slug] = Field(default_factory=list)
    keywords: list[Alias] = Field(default_factory=list)


class FieldGroup(Declaration):
    name: Slug
    description: Text = ""


class DomainConcept(Declaration):
    """A shared quantity or entity (band_gap, doi) with the words people use for it.

    Several plugins may register the same concept: their aliases are merged. Descriptions
    must agree when both are given.
    """

    name: Slug
    description: Text = ""
    aliases: list[Alias] = Field(default_factory=list)

    @field_validator("aliases")
    @classmethod
    def _unique_aliases(cls, value: list[str]) -> list[str]:
        return _unique(value, "alias")
