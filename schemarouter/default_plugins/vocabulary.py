"""The base vocabulary: intents, field groups and shared domain concepts.

Kept as data (``vocabulary.yaml`` beside this module) so the terms can be read and reviewed
without reading code. Besides the declarations it registers, the file names polymorphs: common
names that denote one structure of a composition with several (:func:`polymorphs`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib.resources import files
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from schemarouter.hookspecs import hookimpl
from schemarouter.models import DomainConcept, FieldGroup, Intent
from schemarouter.safeload import load_yaml


@cache
def _vocabulary() -> dict[str, Any]:
    text = files(__package__).joinpath("vocabulary.yaml").read_text(encoding="utf-8")
    # libyaml's parser (through the bounded loader): a tenth of the pure-Python one's time, which every
    # command that plans pays once
    vocabulary: dict[str, Any] = load_yaml(text, name="vocabulary.yaml")  # the packaged file is one mapping
    return vocabulary


@hookimpl
def register_field_groups(register: Callable[[FieldGroup], None]) -> None:
    """Register the core vocabulary's field groups."""
    for item in _vocabulary()["field_groups"]:
        register(FieldGroup.model_validate(item))


@hookimpl
def register_intents(register: Callable[[Intent], None]) -> None:
    """Register the core vocabulary's intents."""
    for item in _vocabulary()["intents"]:
        register(Intent.model_validate(item))


@hookimpl
def register_concepts(register: Callable[[DomainConcept], None]) -> None:
    """Register the core vocabulary's domain concepts."""
    for item in _vocabulary()["concepts"]:
        register(DomainConcept.model_validate(item))


class Polymorph(BaseModel):
    """One structure of a composition that has several, named as people name it ("diamond", "rutile")."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    formula: str
    space_group: str
    space_group_number: int = Field(ge=1, le=230)
    prototype: str = ""


@cache
def polymorphs() -> dict[str, Polymorph]:
    """The vocabulary's polymorph names (lower case) and the structure each denotes."""
    return {item["name"].lower(): Polymorph.model_validate(item) for item in _vocabulary()["polymorphs"]["names"]}


@cache
def telling_concepts() -> tuple[str, ...]:
    """The concepts of the fields that tell the structures of one composition apart (formula, space group)."""
    return tuple(_vocabulary()["polymorphs"]["tells_apart"])
