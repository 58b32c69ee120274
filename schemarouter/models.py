"""Declaration models: what a source plugin (or a YAML file) says about a data source.

These are the vocabulary every other layer speaks. They are frozen pydantic models with
``extra="forbid"`` so a typo in a declaration is an error, not a silently ignored key.
Validation here is local to one object (slugs, closed type sets, paths, auth); checks that
need the whole picture (unknown intents, groups or concepts, duplicate source ids across
plugins) live in :mod:`schemarouter.declarations`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from schemarouter.field_paths import PathSyntaxError, parse_path

SLUG_PATTERN = r"^[a-z][a-z0-9_]*$"
NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_.\-]*$"
ENV_VAR_PATTERN = re.compile(r"^[A-Z][A-Z0-9_]*$")

Slug = Annotated[str, StringConstraints(pattern=SLUG_PATTERN, max_length=64)]
Name = Annotated[str, StringConstraints(pattern=NAME_PATTERN, max_length=128)]
# A request parameter's name may also carry the brackets of the deepObject and JSON:API styles
# ("page[size]", "filter[name]", "ids[]"): it is sent as written.
PARAM_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_.\-]*(?:\[[A-Za-z0-9_.\-]*\])*$"
ParamName = Annotated[str, StringConstraints(pattern=PARAM_NAME_PATTERN, max_length=128)]
Text = Annotated[str, StringConstraints(max_length=4000)]
Alias = Annotated[str, StringConstraints(min_length=1, max_length=120)]

ValueType = Literal["string", "integer", "number", "boolean", "date", "array", "object"]
VALUE_TYPES: tuple[str, ...] = ("string", "integer", "number", "boolean", "date", "array", "object")


class SourceType(str, Enum):  # noqa: UP042 - StrEnum changes str() and format(), which plans and exports rely on
    """Where a value comes from; the provenance layer of every plan."""

    calculated = "calculated"
    experimental = "experimental"
    literature = "literature"
    curated = "curated"
    regulatory = "regulatory"
    web = "web"


# BaseModel's own slots, set through their descriptors: a graph read back from its cache file fills
# about 140,000 declarations at 10,000 sources, and ``object.__setattr__`` by name costs a tenth more
_SET_FIELDS_SET = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_SET_EXTRA = BaseModel.__dict__["__pydantic_extra__"].__set__
_SET_PRIVATE = BaseModel.__dict__["__pydantic_private__"].__set__


class Declaration(BaseModel):
    """Base of every declaration: frozen, and an unknown key is an error, not ignored."""
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    # Pickled (in the graph cache file) as the field values in declaration order, not pydantic's
    # dictionary of dictionaries: pickle keeps every state it reads alive to the end of the file, a
    # graph at 100,000 sources holds about a million declarations, and filling a fresh instance's
    # attributes in declaration order lets CPython share one key table per class (the registry reader
    # builds its models through the same method). Declarations carry no extra keys (forbidden) and no
    # private attributes.
    def __getstate__(self) -> tuple[Any, ...]:  # type: ignore[override]
        values = self.__dict__
        return (self.__pydantic_fields_set__, *[values[name] for name in type(self).__pydantic_fields__])

    def __setstate__(self, state: tuple[Any, ...]) -> None:  # type: ignore[override]
        # what ``_fill`` does, inline: the cache file's payload is checksummed and written by this same
        # code (its build key), so its value counts need no check, and a call less per declaration
        # is a tenth of reading one back
        self.__dict__.update(zip(type(self).__pydantic_fields__, state[1:], strict=False))
        _SET_FIELDS_SET(self, state[0])
        _SET_EXTRA(self, None)
        _SET_PRIVATE(self, None)

    def _fill(self, fields_set: set[str], values: Iterable[Any]) -> None:
        """Fill a fresh instance (``cls.__new__(cls)``) with its fields' ``values`` in declaration order,
        unvalidated: how a pickled declaration is read back and how the registry reader builds models
        from rows it validated when it wrote them."""
        # a fresh instance's __dict__ shares its class's key table while keys arrive in the same order
        self.__dict__.update(zip(type(self).__pydantic_fields__, values, strict=True))
        _SET_FIELDS_SET(self, fields_set)
        _SET_EXTRA(self, None)
        _SET_PRIVATE(self, None)


def _unique(values: list[str], what: str) -> list[str]:
    seen: set[str] = set()
    for value in values:
        key = value
        if key in seen:
            raise ValueError(f"duplicate {what} {value!r}")
        seen.add(key)
    return values


class License(Declaration):
    """A license or terms statement, SPDX-style id (``LicenseRef-*`` for the rest).

    Written as a mapping (``{id: CC-BY-4.0, name: ..., attribution: ...}``) or, where the id says
    enough, as the id alone (``license: CC-BY-4.0``), which is read as ``{id: CC-BY-4.0, name: CC-BY-4.0}``."""

    id: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9.+\-]+$", max_length=120)]
    name: Text
    url: str | None = None
    attribution: Text | None = None
    verified: bool = False

    @model_validator(mode="before")
    @classmethod
    def _from_id(cls, data: Any) -> Any:
        if isinstance(data, str):
            return {"id": data.strip(), "name": data.strip()}
        return data


class Auth(Declaration):
    """How a key is sent. ``env`` names the environment variable that holds it, never the key;
    ``key_url`` is where a user gets one. ``in: connection`` is a database source's password: it
    joins the connection URL when a query runs and is never part of the stored URL."""

    env: str
    location: Literal["header", "query", "connection"] = Field(alias="in")
    name: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    key_url: Annotated[str, StringConstraints(pattern=r"^https?://\S+$", max_length=500)] | None = None

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
    """A request parameter. ``example`` illustrates a value and is never sent; ``default`` is the value
    sent when the question says nothing. ``enum_labels`` says what each code of ``enum`` means
    (``{"11011": "annual"}``). ``format`` and ``pattern`` say how a value is spelled (an OpenAPI
    ``format`` such as ``date`` or ``int64``, or a project format such as ``formula_hill``; a regular
    expression a value must match), so readers and the router need not parse descriptions."""

    name: ParamName
    type: ValueType
    required: bool = False
    concept: Slug | None = None
    description: Text = ""
    example: Any = None
    default: Any = None
    enum: list[Any] | None = None
    enum_labels: dict[str, Annotated[str, StringConstraints(max_length=200)]] | None = None
    format: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.\-]+$", max_length=64)] | None = None
    pattern: Annotated[str, StringConstraints(min_length=1, max_length=500)] | None = None

    @model_validator(mode="after")
    def _labels_name_members(self) -> Parameter:
        if self.enum_labels:
            members = {str(m) for m in self.enum or []}
            stray = [k for k in self.enum_labels if k not in members]
            if stray:
                raise ValueError(f"enum_labels name {stray[0]!r}, which is not a member of enum")
        return self

    @field_validator("pattern")
    @classmethod
    def _pattern_compiles(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"pattern is not a valid regular expression: {exc}") from None
        return value


# parameter names that carry the user's key wherever an API puts them
CREDENTIAL_NAMES = frozenset(
    ["key", "apikey", "api_key", "api-key", "appid", "app_id", "token", "access_token", "auth", "authorization",
     "apitoken", "api_token", "subscription-key", "subscription_key", "x-api-key"]
)


def is_credential(p: Parameter, auth_name: str | None = None) -> bool:
    """A parameter that carries the user's key: sent by the executor from the environment, never read
    from a question (and no reason to avoid the endpoint). ``auth_name``: where its source's
    declared auth sends the key."""
    return p.name.lower() in CREDENTIAL_NAMES or (auth_name is not None and p.name == auth_name)


def ungiven_required(endpoint: Endpoint, given: Iterable[str], auth_name: str | None = None) -> list[Parameter]:
    """The required parameters of ``endpoint`` that ``given`` (parameter names) lacks and that declare
    no default, the user's key aside (the executor sends that): a declared default says what the
    source does without the value."""
    given = set(given)
    return [p for p in endpoint.parameters if p.required and p.default is None and p.name not in given
            and not is_credential(p, auth_name)]


class ResponseField(Declaration):
    """One value an endpoint returns: where it sits in a record, its type, unit, group and vocabulary."""
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


HttpMethod = Literal["GET", "POST", "PUT", "PATCH", "DELETE"]
# Where an endpoint is: an HTTP(S) base URL, or a database a generic SQL adapter reads (a SQLAlchemy
# URL with no password: ``sqlite:////data/lab.db``, ``postgresql+psycopg://lab@db.internal/lab``).
BASE_URL_PATTERN = (r"^(?:https?://\S+|(?:sqlite|postgresql|postgres)(?:\+[A-Za-z0-9_]+)?://\S*)$")
Access = Literal["read", "write"]
Scope = Literal["public", "account"]


class Endpoint(Declaration):
    """One operation of a source. ``access: write`` marks an operation that changes data: it is kept
    so the router can explain a decline, and it is never executed unless writes are enabled.
    ``scope: account`` marks one that reads the caller's own records (an API's private space,
    behind the user's authorization): the router plans it only for a question about the asker's
    own things ("my articles"), never in place of a public endpoint for the same records."""

    id: Slug
    method: HttpMethod = "GET"
    access: Access = "read"
    scope: Scope = "public"
    base_url: Annotated[str, StringConstraints(pattern=BASE_URL_PATTERN)]
    path: Annotated[str, StringConstraints(pattern=r"^/\S*$")]
    summary: Annotated[str, StringConstraints(max_length=400)] = ""
    description: Text = ""
    tags: list[Alias] = Field(default_factory=list)
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
        _unique(self.intents, "intent")
        if self.method == "GET" and self.access == "write":
            raise ValueError(f"endpoint {self.id!r}: a GET cannot be a write (access: write needs POST, PUT, PATCH or DELETE)")
        if self.method in ("PUT", "PATCH", "DELETE") and self.access == "read":
            raise ValueError(f"endpoint {self.id!r}: a {self.method} changes data; declare it with access: write")
        return self

    @property
    def identifier_fields(self) -> list[ResponseField]:
        """The fields that name a record (attribution); an endpoint may have none."""
        return [f for f in self.fields if f.identifier]

    def field(self, name: str) -> ResponseField:
        """The declared field called ``name`` (KeyError if there is none)."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def parameter(self, name: str) -> Parameter:
        """The declared parameter called ``name`` (KeyError if there is none)."""
        for p in self.parameters:
            if p.name == name:
                return p
        raise KeyError(name)


class Feed(Declaration):
    """A declared producer -> consumer link inside one source: the response field
    ``from`` (``endpoint.field``) supplies the parameter ``to`` (``endpoint.parameter``)."""

    from_: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*\.[A-Za-z_][A-Za-z0-9_.\-]*$")] = Field(alias="from")
    to: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*\.[A-Za-z_][A-Za-z0-9_.\-]*$")]

    def split(self) -> tuple[tuple[str, str], tuple[str, str]]:
        """((producer endpoint, field), (consumer endpoint, parameter))."""
        a, b = self.from_.split(".", 1), self.to.split(".", 1)
        return (a[0], a[1]), (b[0], b[1])


class Source(Declaration):
    """A data source (the paper's Tool): one API or database with its endpoints.

    ``cache_ttl`` (seconds) bounds how long a cached response of this source is reused; ``feeds``
    declares links the router would not derive by itself."""

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
    cache_ttl: Annotated[int, Field(ge=0, le=31_536_000)] | None = None
    endpoints: list[Endpoint]
    feeds: list[Feed] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> Source:
        if not self.endpoints:
            raise ValueError(f"source {self.id!r} declares no endpoints")
        ids = [e.id for e in self.endpoints]
        if len(set(ids)) != len(ids):
            dup = next(i for i in ids if ids.count(i) > 1)
            raise ValueError(f"duplicate endpoint id {dup!r}")
        _unique(self.aliases, "alias")
        by_id = {e.id: e for e in self.endpoints}
        for feed in self.feeds:
            (src_ep, fld), (dst_ep, param) = feed.split()
            if src_ep not in by_id or fld not in {f.name for f in by_id[src_ep].fields}:
                raise ValueError(f"feeds: {feed.from_!r} names no field of an endpoint of source {self.id!r}")
            if dst_ep not in by_id or param not in {p.name for p in by_id[dst_ep].parameters}:
                raise ValueError(f"feeds: {feed.to!r} names no parameter of an endpoint of source {self.id!r}")
            if src_ep == dst_ep:
                raise ValueError(f"feeds: {feed.from_!r} -> {feed.to!r} links an endpoint to itself")
        return self

    def endpoint(self, endpoint_id: str) -> Endpoint:
        """The declared endpoint with id ``endpoint_id`` (KeyError if there is none)."""
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
    """A named set of related fields (electronic, mechanical, bibliographic) an intent can ask for."""
    name: Slug
    description: Text = ""


class ValuePattern(Declaration):
    """How a value of a concept is written in a question (an identifier: ``10.1038/...``, ``mp-149``).

    ``regex`` is a Python regular expression (inline flags such as ``(?i)`` allowed). The value is its
    group ``value`` when it has one (then the rest of the match stays words of the question: "COD
    entry 9008564"), else its group 1, else the whole match; the match is taken out of the question.
    ``needs`` lists substrings one of which every match contains (lower case for a pattern that
    ignores case): a question with none of them is not searched. Matches of different patterns
    that overlap keep the longest.
    """

    regex: Annotated[str, StringConstraints(min_length=1, max_length=500)]
    needs: list[Annotated[str, StringConstraints(min_length=1, max_length=40)]] = Field(default_factory=list)

    @field_validator("regex")
    @classmethod
    def _compiles(cls, value: str) -> str:
        try:
            compiled = re.compile(value)
        except re.error as exc:
            raise ValueError(f"not a valid regular expression: {exc}") from None
        if compiled.match(""):
            raise ValueError("the pattern matches the empty string, so it would match everywhere")
        return value

    @model_validator(mode="after")
    def _needs_fit_the_flags(self) -> ValuePattern:
        if re.compile(self.regex).flags & re.IGNORECASE and any(n != n.lower() for n in self.needs):
            raise ValueError("needs of a pattern that ignores case must be lower case")
        return self


class DomainConcept(Declaration):
    """A shared quantity or entity (band_gap, doi) with the words people use for it.

    Several plugins may register the same concept: their aliases and value patterns are merged.
    Descriptions must agree when both are given. ``patterns`` say how a value of the concept is
    written (an identifier's shape), so the understand step reads it from a question.
    """

    name: Slug
    description: Text = ""
    aliases: list[Alias] = Field(default_factory=list)
    patterns: list[ValuePattern] = Field(default_factory=list)

    @field_validator("aliases")
    @classmethod
    def _unique_aliases(cls, value: list[str]) -> list[str]:
        return _unique(value, "alias")


def _share_instance_keys(*classes: type[BaseModel]) -> None:
    """Give each class its table of instance keys now, in declaration order.

    The registry builds loaded models attribute by attribute (``registry.mapping``) so that CPython
    keeps one key table per class and only values per model: tens of megabytes at 10,000 sources.
    That table must exist before the first model is validated: left empty until then, CPython 3.11
    was seen to give it up (every later model then has a dictionary of its own).
    """
    for cls in classes:
        model = cls.__new__(cls)
        for name in cls.model_fields:
            object.__setattr__(model, name, None)


_share_instance_keys(Source, Endpoint, Parameter, ResponseField, Projection)
