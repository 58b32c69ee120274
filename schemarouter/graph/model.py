"""Typed nodes and edges of the schema graph (the paper's Section 4), as plain data."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class NodeKind(str, Enum):
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


class EdgeKind(str, Enum):
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
    id: str
    kind: NodeKind
    label: str
    attrs: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class Edge:
    source: str
    kind: EdgeKind
    target: str


def tool_id(source: str) -> str:
    return f"tool:{source}"


def endpoint_id(source: str, endpoint: str) -> str:
    return f"endpoint:{source}/{endpoint}"


def param_id(source: str, endpoint: str, name: str) -> str:
    return f"param:{source}/{endpoint}/{name}"


def field_id(source: str, endpoint: str, name: str) -> str:
    return f"field:{source}/{endpoint}/{name}"
