"""Test kit for plugin authors: an opt-in pytest plugin.

Enable it in a plugin's ``conftest.py``::

    pytest_plugins = ["schemarouter.testing"]

and call :func:`assert_plugin_contract` on the plugin module. Fixtures:

* ``sr_registry_url``: URL of a migrated, empty SQLite registry in a temporary directory;
* ``sr_registry``: an open :class:`~schemarouter.registry.Registry` on it;
* ``sr_plugin_manager``: a plugin manager with only the built-in default plugins (no entry
  points), for registering the plugin under test alone.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from schemarouter.declarations import Declarations, collect
from schemarouter.plugins import PluginManager, make_plugin_manager
from schemarouter.registry import Registry


@pytest.fixture
def sr_registry_url(tmp_path: Path) -> str:
    """A fixture: the URL of a new, empty SQLite registry."""
    url = f"sqlite:///{tmp_path / 'registry.db'}"
    Registry.open(url).close()
    return url


@pytest.fixture
def sr_registry(sr_registry_url: str) -> Iterator[Registry]:
    """A fixture: an open, empty registry."""
    with Registry.open(sr_registry_url) as registry:
        yield registry


@pytest.fixture
def sr_plugin_manager() -> PluginManager:
    """A fixture: a plugin manager with the default plugins only."""
    return make_plugin_manager(load_entrypoints=False)


def plugin_declarations(plugin: object) -> Declarations:
    """Collect and validate the declarations of the default plugins plus ``plugin`` alone."""
    return collect(make_plugin_manager(load_entrypoints=False, extra=[plugin]))


def assert_plugin_contract(plugin: object) -> dict[str, Any]:
    """Validate, sync, export and round-trip a plugin's declarations; return its export.

    Fails (AssertionError, or the declaration error naming the item) when the plugin
    registers nothing, when its declarations are invalid, when a second sync is not a no-op,
    or when export -> import -> export is not byte-identical.
    """
    decls = plugin_declarations(plugin)
    names = {name for name, _ in make_plugin_manager(load_entrypoints=False).list_name_plugin()}
    plugin_name = getattr(plugin, "__name__", None) or type(plugin).__name__
    assert plugin_name not in names, f"{plugin_name} is a default plugin, not a plugin under test"
    with tempfile.TemporaryDirectory() as tmp:
        first_url = f"sqlite:///{Path(tmp) / 'first.db'}"
        second_url = f"sqlite:///{Path(tmp) / 'second.db'}"
        export_path = Path(tmp) / "export.json"
        with Registry.open(first_url) as first:
            report = first.sync(decls)
            assert report.changed, "the first sync of the plugin wrote nothing"
            again = first.sync(decls)
            assert not again.changed, f"a second sync was not a no-op: {again.summary()}"
            exported = first.export_bytes()
        export_path.write_bytes(exported)
        with Registry.open(second_url) as second:
            second.import_file(export_path)
            assert second.export_bytes() == exported, "export -> import -> export changed the document"
    document: dict[str, Any] = json.loads(exported)
    return document
