"""Session fixtures for routing tests: one SQLite registry synced from the installed plugins."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from schemarouter.declarations import collect
from schemarouter.graph import SchemaGraph, load_graph
from schemarouter.plugins import make_plugin_manager
from schemarouter.registry import Registry
from schemarouter.router import Router


@pytest.fixture(scope="session")
def routing_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = f"sqlite:///{Path(tmp_path_factory.mktemp('routing')) / 'registry.db'}"
    with Registry.open(url) as reg:
        reg.sync(collect(make_plugin_manager()))
    yield url


@pytest.fixture(scope="session")
def graph(routing_db: str) -> SchemaGraph:
    with Registry.open(routing_db) as reg:
        return load_graph(reg)


@pytest.fixture(scope="session")
def router(graph: SchemaGraph) -> Router:
    return Router(graph)
