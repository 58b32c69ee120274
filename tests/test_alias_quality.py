"""The alias layer separates the fields of an endpoint instead of blurring them.

The router projects fields by matching query words against field aliases, so an alias that
two fields of one endpoint share would pull in a field the question did not ask for. These
checks run over every installed first-party plugin's declaration.
"""

from __future__ import annotations

import importlib
import re

import pytest
import yaml
from schemarouter_bench import data_path

from schemarouter.declarations import collect
from schemarouter.models import Endpoint, Source
from schemarouter.plugins import make_plugin_manager

SOURCE_IDS = sorted(tool["id"] for tool in yaml.safe_load(data_path("inventory.yaml").read_text())["tools"])
# Words that say nothing about which record key is meant: an identifier aliased with one of these
# would match almost any question.
GENERIC_WORDS = {"id", "identifier", "name", "title", "link", "entry", "record", "key", "number", "code", "page"}


def normalize(alias: str) -> str:
    """How the router compares words: case-folded, '-' and '_' read as spaces, spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"[-_]", " ", alias.casefold())).strip()


def _sources() -> list[Source]:
    plugins = [importlib.import_module(f"schemarouter_{sid}").plugin for sid in SOURCE_IDS]
    decls = collect(make_plugin_manager(load_entrypoints=False, extra=plugins))
    return [decls.sources[sid] for sid in SOURCE_IDS]


ENDPOINTS: list[tuple[str, Endpoint]] = [(s.id, e) for s in _sources() for e in s.endpoints]
IDS = [f"{sid}.{e.id}" for sid, e in ENDPOINTS]


def test_normalize_treats_separators_and_case_alike() -> None:
    assert normalize("Band-Gap") == normalize("band_gap") == normalize("band  gap") == "band gap"


@pytest.mark.parametrize(("source_id", "endpoint"), ENDPOINTS, ids=IDS)
def test_no_alias_is_shared_by_two_fields_of_one_endpoint(source_id: str, endpoint: Endpoint) -> None:
    owner: dict[str, str] = {}
    for field in endpoint.fields:
        for alias in field.aliases:
            key = normalize(alias)
            other = owner.setdefault(key, field.name)
            assert other == field.name, f"{source_id}.{endpoint.id}: {alias!r} aliases both {other} and {field.name}"


@pytest.mark.parametrize(("source_id", "endpoint"), ENDPOINTS, ids=IDS)
def test_no_alias_names_another_field_of_the_endpoint(source_id: str, endpoint: Endpoint) -> None:
    names = {normalize(f.name): f.name for f in endpoint.fields}
    for field in endpoint.fields:
        for alias in field.aliases:
            other = names.get(normalize(alias), field.name)
            assert other == field.name, f"{source_id}.{endpoint.id}.{field.name}: alias {alias!r} is the field {other}"


@pytest.mark.parametrize(("source_id", "endpoint"), ENDPOINTS, ids=IDS)
def test_every_non_identifier_field_has_three_to_ten_distinct_aliases(source_id: str, endpoint: Endpoint) -> None:
    for field in endpoint.fields:
        where = f"{source_id}.{endpoint.id}.{field.name}"
        keys = [normalize(a) for a in field.aliases]
        assert len(set(keys)) == len(keys), f"{where}: aliases repeat after normalization: {field.aliases}"
        if not field.identifier:
            assert 3 <= len(keys) <= 10, f"{where}: {len(keys)} aliases (want 3-10 specific ones)"


@pytest.mark.parametrize(("source_id", "endpoint"), ENDPOINTS, ids=IDS)
def test_identifier_aliases_are_specific(source_id: str, endpoint: Endpoint) -> None:
    for field in endpoint.fields:
        if field.identifier:
            generic = [a for a in field.aliases if normalize(a) in GENERIC_WORDS]
            assert not generic, f"{source_id}.{endpoint.id}.{field.name}: generic identifier aliases {generic}"


def test_source_aliases_do_not_collide_across_sources() -> None:
    owner: dict[str, str] = {}
    for source in _sources():
        for alias in [source.id, source.title, *source.aliases]:
            other = owner.setdefault(normalize(alias), source.id)
            assert other == source.id, f"source alias {alias!r} names both {other} and {source.id}"
