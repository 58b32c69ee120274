"""Installing and uninstalling first-party plugins changes the registry by exactly that plugin.

Bad input: uninstalling one plugin and syncing removes exactly its source; two
plugins claiming the same source id fail the sync, name both plugins, and leave the registry
as it was.
"""

from __future__ import annotations

import importlib
import types
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from schemarouter_bench import data_path

from schemarouter import hookimpl
from schemarouter.declarations import collect, load_source_file
from schemarouter.errors import DeclarationError
from schemarouter.models import Source
from schemarouter.packaged import PackagedSource
from schemarouter.plugins import LOAD_PLUGINS_ENV, PluginManager, make_plugin_manager
from schemarouter.registry import Registry
from schemarouter.registry.fingerprint import source_fingerprint

SOURCE_IDS = sorted(tool["id"] for tool in yaml.safe_load(data_path("inventory.yaml").read_text())["tools"])
REMOVED = "oqmd"


def _plugins(ids: list[str]) -> list[PackagedSource]:
    """The plugin objects the first-party entry points name (``schemarouter_<id>:plugin``)."""
    return [importlib.import_module(f"schemarouter_{source_id}").plugin for source_id in ids]


def _sync(registry: Registry, pm: PluginManager) -> tuple[list[str], list[str], list[str]]:
    """What ``schemarouter registry sync`` does: collect, validate, write."""
    report = registry.sync(collect(pm))
    return report.added, report.updated, report.removed


def _fingerprints(registry: Registry) -> dict[str, str]:
    return {sid: source_fingerprint(source) for sid, source in registry.load().sources.items()}


@pytest.fixture
def all_19(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Registry:
    monkeypatch.setenv(LOAD_PLUGINS_ENV, ",".join(SOURCE_IDS))
    registry = Registry.open(f"sqlite:///{tmp_path / 'registry.db'}")
    added, _, _ = _sync(registry, make_plugin_manager())
    assert added == SOURCE_IDS
    yield registry
    registry.close()


def test_a_plugin_manager_without_one_plugin_removes_exactly_that_source(all_19: Registry) -> None:
    before = _fingerprints(all_19)
    kept = [sid for sid in SOURCE_IDS if sid != REMOVED]
    added, updated, removed = _sync(all_19, make_plugin_manager(load_entrypoints=False, extra=_plugins(kept)))
    assert (added, updated, removed) == ([], [], [REMOVED])
    after = _fingerprints(all_19)
    assert sorted(after) == kept
    assert after == {sid: fp for sid, fp in before.items() if sid != REMOVED}
    assert all_19.stats()["counts"]["sources"] == 18


def test_deselecting_one_plugin_with_the_environment_removes_exactly_that_source(
    all_19: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _fingerprints(all_19)
    dropped = "wikipedia"
    monkeypatch.setenv(LOAD_PLUGINS_ENV, ",".join(sid for sid in SOURCE_IDS if sid != dropped))
    added, updated, removed = _sync(all_19, make_plugin_manager())
    assert (added, updated, removed) == ([], [], [dropped])
    assert _fingerprints(all_19) == {sid: fp for sid, fp in before.items() if sid != dropped}
    # Reinstalling (selecting it again) brings back the identical source.
    monkeypatch.setenv(LOAD_PLUGINS_ENV, ",".join(SOURCE_IDS))
    assert _sync(all_19, make_plugin_manager()) == ([dropped], [], [])
    assert _fingerprints(all_19) == before


def _impostor(source_id: str) -> types.ModuleType:
    """A second plugin that claims an existing source id (with otherwise valid declarations)."""
    module = types.ModuleType("schemarouter_impostor")
    original = load_source_file(_plugins([source_id])[0].source_file)

    @hookimpl
    def register_sources(register: Callable[[Source], None]) -> None:
        register(original.model_copy(update={"title": "An impostor"}))

    module.register_sources = register_sources  # type: ignore[attr-defined]
    return module


def test_two_plugins_claiming_one_source_id_fail_naming_both_and_leave_the_registry(all_19: Registry) -> None:
    before = all_19.export_bytes()
    pm = make_plugin_manager(extra=[_impostor(REMOVED)])
    with pytest.raises(DeclarationError) as info:
        _sync(all_19, pm)
    message = str(info.value)
    installed = pm.plugin_info(REMOVED)
    assert installed.distribution == "schemarouter-oqmd"
    assert f"{installed.distribution} {installed.version}" in message
    assert "schemarouter_impostor" in message and f"'{REMOVED}'" in message
    assert all_19.export_bytes() == before


def test_each_plugin_alone_declares_only_its_own_source() -> None:
    for source_id, module in zip(SOURCE_IDS, _plugins(SOURCE_IDS), strict=True):
        decls = collect(make_plugin_manager(load_entrypoints=False, extra=[module]))
        assert list(decls.sources) == [source_id]
