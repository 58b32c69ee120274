"""Typed nodes and edges of the schema graph (the paper's Section 4), as plain data."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class NodeKind(str, Enum):  # noqa: UP042 - StrEnum changes str() and format(), which exports rely on
    """The kinds of node in the schema graph."""
    Tool = "Tool"
    Endpoint = "Endpoint"
    Parameter = "Parameter"
    ResponseField = "ResponseField"
    DomainConcept = "DomainConcept"
    Unit = "Unit"
    SourceType = "SourceType"
    LicensePolicy = "LicensePolicy"
    FieldGroup = "FieldGroup"
    Intent = "Intent"


class EdgeKind(str, Enum):  # noqa: UP042 - as NodeKind
    """The kinds of edge in the schema graph."""
    HAS_ENDPOINT = "HAS_ENDPOINT"
    HAS_PARAM = "HAS_PARAM"
    RETURNS_FIELD = "RETURNS_FIELD"
    HAS_UNIT = "HAS_UNIT"
    HAS_SOURCE_TYPE = "HAS_SOURCE_TYPE"
    UNDER_LICENSE = "UNDER_LICENSE"
    IN_GROUP = "IN_GROUP"
    MAPS_TO_CONCEPT = "MAPS_TO_CONCEPT"
    ALIASED_AS = "ALIASED_AS"
    SERVES_INTENT = "SERVES_INTENT"
    REQUIRES_GROUP = "REQUIRES_GROUP"


@dataclass(frozen=True)
class Node:
    """One typed node: its id, kind, label and attributes."""
    id: str
    kind: NodeKind
    label: str
    attrs: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class Edge:
    """One typed edge from ``source`` to ``target``."""
    source: str
    kind: EdgeKind
    target: str


def tool_id(source: str) -> str:
    """Node id of a source (a tool)."""
    return f"tool:{source}"


def endpoint_id(source: str, endpoint: str) -> str:
    """Node id of an endpoint of a source."""
    return f"endpoint:{source}/{endpoint}"


def param_id(source: str, endpoint: str, name: str) -> str:
    """Node id of a parameter of an endpoint."""
    return f"param:{source}/{endpoint}/{name}"


def field_id(source: str, endpoint: str, name: str) -> str:
    """Node id of a response field of an endpoint."""
    return f"field:{source}/{endpoint}/{name}"
