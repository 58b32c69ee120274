"""The graph's records of one endpoint and one response field, as routing reads them.

They sit below every other graph module (the indexes, the lexical index, the intent order and the
links all hold them), so that each of those imports them from here and only ``build`` imports
those modules: the arrows inside the graph package point one way.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import NamedTuple

from schemarouter.models import Endpoint, Parameter, ResponseField, Source
from schemarouter.plan import FieldMeta


@dataclass(slots=True, eq=False)
class FieldInfo:
    """One response field of one endpoint, with what a plan needs of it resolved once.

    Read-only by convention, not frozen: a graph at 10,000 sources makes about a hundred thousand,
    and a frozen dataclass sets each attribute through ``object.__setattr__`` (five times slower).
    Each is one field of one endpoint, so it compares by identity."""
    source: str
    endpoint: str
    field: ResponseField
    words: str  # humanized name
    source_type: str  # after the per-field override
    license: str
    attribution: str | None
    alias_words: tuple[str, ...] = ()  # normalized aliases, each once (a tuple: a fraction of a set's memory)
    raw_words: str = ""  # normalized raw name ("egap", "xlogp")
    name: str = dataclasses.field(init=False, repr=False)  # field.name, read millions of times when routing
    _meta: FieldMeta | None = dataclasses.field(init=False, repr=False, default=None)

    def __post_init__(self) -> None:
        self.name = self.field.name

    def __reduce__(self) -> tuple[type[FieldInfo], tuple[object, ...]]:
        # pickled as its constructor's arguments, not the state dictionary a slots class would bring per
        # object (pickle keeps every state alive to the end of a cache file: a million fields at 100,000)
        return FieldInfo, (self.source, self.endpoint, self.field, self.words, self.source_type, self.license,
                           self.attribution, self.alias_words, self.raw_words)

    def meta(self) -> FieldMeta:
        """What a plan carries to cite this field's values: unit, source type, license, attribution
        (made the first time a plan fetches the field; immutable, so every such plan shares it)."""
        if self._meta is None:
            self._meta = FieldMeta(unit=self.field.unit, source_type=self.source_type, license=self.license,
                                   attribution=self.attribution)
        return self._meta


class EndpointKey(NamedTuple):
    """(source id, endpoint id): equal to, and hashed as, the plain tuple every graph dict is keyed by."""
    source: str
    endpoint: str


@dataclass(slots=True)
class EndpointInfo:
    """One endpoint with its source, its fields by name and the field groups they fall in."""
    source: Source
    endpoint: Endpoint
    fields: dict[str, FieldInfo]
    groups: frozenset[str]
    key: EndpointKey = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.key = EndpointKey(self.source.id, self.endpoint.id)

    def __reduce__(self) -> tuple[type[EndpointInfo], tuple[object, ...]]:
        # as FieldInfo: the constructor's arguments (the key is made again from them)
        return EndpointInfo, (self.source, self.endpoint, self.fields, self.groups)

    @property
    def label(self) -> str:
        """``source.endpoint``, as plans and reports name it."""
        return f"{self.source.id}.{self.endpoint.id}"

    @property
    def is_web(self) -> bool:
        """Whether the source is a web search (the last resort in ranking)."""
        return self.source.source_type.value == "web"

    def param(self, name: str) -> Parameter | None:
        """The parameter called ``name``, or None."""
        for p in self.endpoint.parameters:
            if p.name == name:
                return p
        return None
