"""The graph's records of one endpoint and one response field, as routing reads them.

They sit below every other graph module (the indexes, the lexical index, the intent order and the
links all hold them), so that each of those imports them from here and only ``build`` imports
those modules: the arrows inside the graph package point one way.
"""

from __future__ import annotations

import copyreg
from typing import TYPE_CHECKING, Any, NamedTuple

from schemarouter.models import Endpoint, Parameter, ResponseField, Source
from schemarouter.plan import FieldMeta

if TYPE_CHECKING:
    from schemarouter.graph.shelf import SourceShelf

# What pickle writes as "a new object of this class" (NEWOBJ): read back, no constructor runs, only
# __setstate__ (the typing stubs do not declare it)
_NEW_OBJECT = copyreg.__newobj__  # type: ignore[attr-defined]


class FieldInfo:
    """One response field of one endpoint, with what a plan needs of it resolved once.

    Read-only by convention, not frozen: a graph at 10,000 sources makes about a hundred thousand,
    and a frozen class sets each attribute through ``object.__setattr__`` (five times slower). Each is
    one field of one endpoint, so it compares by identity. Its declaration (``field``) is resolved
    through the graph's :class:`~schemarouter.graph.shelf.SourceShelf` on first read when the graph
    came from its cache file: routing reads the declarations of the few fields a question reaches."""

    __slots__ = (
        "_field",
        "_meta",
        "_shelf",
        "alias_words",
        "attribution",
        "endpoint",
        "license",
        "name",
        "raw_words",
        "source",
        "source_type",
        "unit",
        "words",
    )

    def __init__(self, source: str, endpoint: str, field: ResponseField | None, words: str, source_type: str,
                 license: str, attribution: str | None, alias_words: tuple[str, ...] = (), raw_words: str = "",
                 shelf: SourceShelf | None = None, name: str = "", unit: str | None = None) -> None:
        self.source = source
        self.endpoint = endpoint
        self._field = field
        self._shelf = shelf
        self.name = field.name if field is not None else name  # read millions of times when routing
        self.unit = field.unit if field is not None else unit  # read of every field once per graph
        self.words = words  # humanized name
        self.source_type = source_type  # after the per-field override
        self.license = license
        self.attribution = attribution
        self.alias_words = alias_words  # normalized aliases, each once (a tuple: a fraction of a set's memory)
        self.raw_words = raw_words  # normalized raw name ("egap", "xlogp")
        self._meta: FieldMeta | None = None

    @property
    def field(self) -> ResponseField:
        """The field's declaration."""
        found = self._field
        if found is None:
            if self._shelf is None:
                raise LookupError(f"field {self.source}.{self.endpoint}.{self.name} has no declaration")
            found = self._field = self._shelf.field(self.source, self.endpoint, self.name)
        return found

    def __repr__(self) -> str:
        return f"FieldInfo({self.source}.{self.endpoint}.{self.name})"

    def __reduce__(self) -> tuple[object, ...]:
        # A million of these at 100,000 sources, and pickle keeps every state it reads alive to the end of
        # a cache file: pickled without the declaration (the shelf holds it) and as few values as can be,
        # what a whole endpoint's fields share (where they come from) and what every field of a name
        # shares (its words) each one tuple for all of them.
        shelf = self._shelf
        if shelf is None:
            return FieldInfo, (self.source, self.endpoint, self._field, self.words, self.source_type, self.license,
                               self.attribution, self.alias_words, self.raw_words)
        origin = shelf.intern((self.source, self.endpoint, self.source_type, self.license, self.attribution))
        naming = shelf.intern((self.name, self.words, self.raw_words))
        return _NEW_OBJECT, (FieldInfo,), (origin, naming, self.alias_words, self.unit, shelf)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        origin, naming, self.alias_words, self.unit, self._shelf = state
        self.source, self.endpoint, self.source_type, self.license, self.attribution = origin
        self.name, self.words, self.raw_words = naming
        self._field = None
        self._meta = None

    def meta(self) -> FieldMeta:
        """What a plan carries to cite this field's values: unit, source type, license, attribution
        (made the first time a plan fetches the field; immutable, so every such plan shares it)."""
        if self._meta is None:
            self._meta = FieldMeta(unit=self.unit, source_type=self.source_type, license=self.license,
                                   attribution=self.attribution)
        return self._meta


class EndpointHead(NamedTuple):
    """What an endpoint record keeps of its declarations without reading them (see EndpointInfo)."""
    source: str
    endpoint: str
    access: str
    scope: str  # public, or account (an account's own records)
    intents: tuple[str, ...]
    domain: str  # the source's
    path: str
    summary: str
    description: str

    @classmethod
    def of(cls, source: Source, endpoint: Endpoint) -> EndpointHead:
        """The head of ``endpoint`` of ``source``."""
        return cls(source.id, endpoint.id, endpoint.access, endpoint.scope, tuple(endpoint.intents), source.domain,
                   endpoint.path, endpoint.summary or "", endpoint.description or "")


class EndpointKey(NamedTuple):
    """(source id, endpoint id): equal to, and hashed as, the plain tuple every graph dict is keyed by."""
    source: str
    endpoint: str


class EndpointInfo:
    """One endpoint with its source, its fields by name and the field groups they fall in.

    ``source`` and ``endpoint`` are declarations, resolved through the graph's shelf on first read
    when the graph came from its cache file (as :class:`FieldInfo`'s). What questions read of every
    endpoint at once (its access, scope, intents, path, summary and description, parameters, its
    source's domain and auth scheme) is kept here as well, so that nothing a graph works out once about
    all its endpoints, and nothing ranking reads of each candidate, reads a declaration back."""

    __slots__ = (
        "_endpoint",
        "_shelf",
        "_source",
        "access",
        "auth_name",
        "description",
        "domain",
        "fields",
        "groups",
        "intents",
        "key",
        "parameters",
        "path",
        "scope",
        "summary",
    )

    def __init__(self, source: Source | None, endpoint: Endpoint | None, fields: dict[str, FieldInfo],
                 groups: frozenset[str], shelf: SourceShelf | None = None, head: EndpointHead | None = None,
                 key: EndpointKey | None = None, parameters: tuple[Parameter, ...] | None = None,
                 auth_name: str | None = None) -> None:
        self._source = source
        self._endpoint = endpoint
        self._shelf = shelf
        self.fields = fields
        self.groups = groups
        if head is None:
            if source is None or endpoint is None:
                raise ValueError("an endpoint record needs its declarations or their head")
            head = EndpointHead.of(source, endpoint)
        # read back, the key pickled with the record: the same object every index keyed by it holds
        self.key = key if key is not None else EndpointKey(head.source, head.endpoint)
        self.access = head.access
        self.scope = head.scope
        self.intents = head.intents
        self.domain = head.domain
        self.path = head.path
        self.summary = head.summary
        self.description = head.description
        # what every candidate's parameter facts read (router.param_facts): kept here, so that ranking a
        # question's candidates reads no source back (parameter models are shared: a few hundred distinct)
        if parameters is None:
            if endpoint is None or source is None:
                raise ValueError("an endpoint record needs its declarations or its parameters")
            parameters, auth_name = tuple(endpoint.parameters), source.auth.name if source.auth else None
        self.parameters = parameters
        self.auth_name = auth_name  # the source's auth scheme, if it needs a key

    def head(self) -> EndpointHead:
        """What this record keeps of its declarations (how it is pickled)."""
        return EndpointHead(self.key.source, self.key.endpoint, self.access, self.scope, self.intents, self.domain,
                            self.path, self.summary, self.description)

    @property
    def source(self) -> Source:
        """The source's declaration."""
        found = self._source
        if found is None:
            found = self._source = self._shelved()[self.key.source]
        return found

    @property
    def endpoint(self) -> Endpoint:
        """The endpoint's declaration."""
        found = self._endpoint
        if found is None:
            found = self._endpoint = self._shelved().endpoint(*self.key)
        return found

    def shelve(self) -> None:
        """Let go of the live declarations (of the endpoint, its source and its fields): read from here
        on through the shelf, which has them stored (a graph built batch by batch, :mod:`.build`)."""
        if self._shelf is None:
            raise LookupError(f"endpoint {self.label} has no shelf to read its declarations back from")
        self._source = self._endpoint = None
        for f in self.fields.values():
            f._field = None

    def _shelved(self) -> SourceShelf:
        if self._shelf is None:
            raise LookupError(f"endpoint {self.key.source}.{self.key.endpoint} has no declaration")
        return self._shelf

    def __repr__(self) -> str:
        return f"EndpointInfo({self.label})"

    def __reduce__(self) -> tuple[type[EndpointInfo], tuple[object, ...]]:
        # as FieldInfo: the constructor's arguments, the declarations left to the shelf where there is one
        shelf = self._shelf
        if shelf is None:
            return EndpointInfo, (self.source, self.endpoint, self.fields, self.groups)
        return EndpointInfo, (None, None, self.fields, self.groups, shelf, self.head(), self.key, self.parameters,
                              self.auth_name)

    @property
    def param_names(self) -> tuple[str, ...]:
        """The names of its parameters, in declared order."""
        return tuple(p.name for p in self.parameters)

    @property
    def source_title(self) -> str:
        """The source's title (read from the shelf's prose where there is one: no declaration is read)."""
        if self._shelf is not None:
            return self._shelf.title(self.key.source)
        return self.source.title

    @property
    def label(self) -> str:
        """``source.endpoint``, as plans and reports name it."""
        return f"{self.key.source}.{self.key.endpoint}"

    @property
    def is_web(self) -> bool:
        """Whether the source is a web search (the last resort in ranking)."""
        return self.source.source_type.value == "web"

    def param(self, name: str) -> Parameter | None:
        """The parameter called ``name``, or None."""
        for p in self.parameters:
            if p.name == name:
                return p
        return None
