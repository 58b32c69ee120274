"""The importer on damaged documents: any input gives a result or a one-line SchemaRouterError, never a crash.

Real specs are often not quite valid (a ``properties`` that is a list, a ``$ref`` that is a
number, ``responses: true``). Seeded random damage to the two example documents replaces nodes
with values of the wrong JSON type; the importer must report or refuse them by place.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from schemarouter.errors import SchemaRouterError
from schemarouter.openapi import import_openapi
from tests.sr_cli import EXAMPLES, TMDB

JUNK: list[Any] = [None, 1, "x", [], {}, [1], {"a": 1}, True, {"$ref": "#/nowhere"}, {"type": "object"}, {"$ref": 5}]


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield from _nodes(child, (*path, key))


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        doc = doc[key]
    doc[path[-1]] = value


@pytest.mark.parametrize(("name", "rounds"), [("labstore", 250), ("tmdb", 60)])
def test_damaged_documents_never_crash_the_importer(name: str, rounds: int, tmp_path: Path) -> None:
    if name == "labstore":
        original = yaml.safe_load((EXAMPLES / "labstore_openapi.yaml").read_text(encoding="utf-8"))
    else:
        original = json.loads((TMDB / "tmdb_oas.json").read_text(encoding="utf-8"))
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("source_type: web\nlicense: {id: MIT, name: MIT License}\n", encoding="utf-8")
    paths = [p for p in _nodes(original) if p]
    rng = random.Random(20261129)
    outcomes = {"imported": 0, "refused": 0}
    for _ in range(rounds):
        doc = copy.deepcopy(original)
        for _ in range(rng.randint(1, 3)):
            with contextlib.suppress(KeyError, IndexError, TypeError):  # an earlier change removed the parent
                _set(doc, rng.choice(paths), copy.deepcopy(rng.choice(JUNK)))
        spec = tmp_path / "spec.json"
        spec.write_text(json.dumps(doc), encoding="utf-8")
        try:
            import_openapi(spec, "damaged", overlay)
            outcomes["imported"] += 1
        except SchemaRouterError as err:
            message = str(err)
            assert "\n" not in message and (str(spec) in message or str(overlay) in message), message
            outcomes["refused"] += 1
    assert outcomes["imported"] and outcomes["refused"], outcomes
