"""``packaged_source``: one line turns a packaged ``source.yaml`` and its adapter into a plugin.

The plugin is built in a throw-away package on ``sys.path`` so the module lookup, the file
beside it and the hooks it carries are the real ones a plugin distribution gets.
"""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from schemarouter.declarations import collect, summarize
from schemarouter.errors import DeclarationError, SchemaRouterError
from schemarouter.execution.registry_adapters import collect_adapters
from schemarouter.packaged import PackagedSource, packaged_source
from schemarouter.plugins import make_plugin_manager

SOURCE_YAML = """\
id: {id}
title: Lab {id}
domain: materials
description: A source for testing packaged_source.
source_type: experimental
license: {{id: CC-BY-4.0, name: Creative Commons Attribution 4.0 International}}
endpoints:
- id: samples
  method: GET
  base_url: https://api.example.org
  path: /v1/samples
  intents: [material_property]
  parameters:
  - {{name: formula, type: string, required: true, concept: formula}}
  fields:
  - {{name: band_gap, path: gap, type: number, unit: eV, group: electronic, concepts: [band_gap]}}
"""

ADAPTER_PY = '''
from schemarouter.execution.httpjson import HttpJsonAdapter

class CountingAdapter(HttpJsonAdapter):
    made = 0

    def __init__(self) -> None:
        super().__init__(auth_required=False)
        type(self).made += 1

SHARED = HttpJsonAdapter(auth_required=False)
'''


def _package(root: Path, name: str, init: str, source: str | None) -> PackagedSource:
    package = root / name
    package.mkdir()
    (package / "adapter.py").write_text(ADAPTER_PY, encoding="utf-8")
    if source is not None:
        (package / "source.yaml").write_text(source, encoding="utf-8")
    (package / "__init__.py").write_text(textwrap.dedent(init), encoding="utf-8")
    plugin = importlib.import_module(name).plugin
    assert isinstance(plugin, PackagedSource)
    return plugin


@pytest.fixture
def syspath(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for module in [m for m in sys.modules if m.startswith("sr_pkg_")]:
        del sys.modules[module]


def test_one_line_registers_the_declaration_a_fresh_adapter_per_collection_and_aliases(syspath: Path) -> None:
    plugin = _package(syspath, "sr_pkg_lab", """\
        from schemarouter.packaged import packaged_source
        from sr_pkg_lab.adapter import CountingAdapter
        plugin = packaged_source(__name__, CountingAdapter, concept_aliases={"band_gap": ["E_opt"]})
    """, SOURCE_YAML.format(id="lab"))
    assert plugin.source_file == syspath / "sr_pkg_lab" / "source.yaml"
    pm = make_plugin_manager(load_entrypoints=False, extra=[plugin])
    declarations = collect(pm)
    assert list(declarations.sources) == ["lab"]
    assert "E_opt" in declarations.concepts["band_gap"].aliases
    first, second = collect_adapters(pm), collect_adapters(pm)
    assert set(first) == {"lab"} and first["lab"] is not second["lab"]
    assert type(first["lab"]).made == 2  # type: ignore[attr-defined]
    [summary] = [s for s in summarize(pm) if s.info.name == "sr_pkg_lab"]
    assert sorted(summary.hooks) == ["register_adapters", "register_concepts", "register_sources"]
    assert (summary.sources, summary.adapters, summary.concepts) == (["lab"], ["lab"], ["band_gap"])


def test_an_instance_is_shared_and_absent_parts_register_no_hook(syspath: Path) -> None:
    plugin = _package(syspath, "sr_pkg_shared", """\
        from schemarouter.packaged import packaged_source
        from sr_pkg_shared.adapter import SHARED
        plugin = packaged_source(__name__, SHARED)
    """, SOURCE_YAML.format(id="shared"))
    pm = make_plugin_manager(load_entrypoints=False, extra=[plugin])
    assert collect_adapters(pm)["shared"] is collect_adapters(pm)["shared"] is plugin.adapter
    [summary] = [s for s in summarize(pm) if s.info.name == "sr_pkg_shared"]
    assert sorted(summary.hooks) == ["register_adapters", "register_sources"]
    bare = packaged_source("sr_pkg_shared")
    assert not hasattr(bare, "register_adapters") and not hasattr(bare, "register_concepts")


def test_a_missing_declaration_file_is_one_line_naming_the_module(syspath: Path) -> None:
    with pytest.raises(SchemaRouterError, match=r"sr_pkg_empty has no source.yaml beside it"):
        _package(syspath, "sr_pkg_empty", """\
            from schemarouter.packaged import packaged_source
            plugin = packaged_source(__name__)
        """, None)
    with pytest.raises(SchemaRouterError, match="not an imported module"):
        packaged_source("sr_pkg_never_imported")


def test_a_broken_declaration_fails_at_collection_naming_the_plugin_not_at_load(syspath: Path) -> None:
    plugin = _package(syspath, "sr_pkg_broken", """\
        from schemarouter.packaged import packaged_source
        plugin = packaged_source(__name__)
    """, "id: broken\ntitle: [unclosed\n")
    pm = make_plugin_manager(load_entrypoints=False, extra=[plugin])  # loading reads no file
    with pytest.raises(DeclarationError) as info:
        collect(pm)
    assert "source.yaml" in str(info.value) and "invalid YAML" in str(info.value)


def test_naming_the_module_instead_of_its_plugin_object_is_one_line_not_a_silent_no_op() -> None:
    module = importlib.import_module("schemarouter_oqmd")  # holds `plugin`, implements no hook itself
    with pytest.raises(SchemaRouterError, match=r"schemarouter_oqmd .*implements no schemarouter hook.*'module:plugin'"):
        make_plugin_manager(load_entrypoints=False, extra=[module])
    assert list(collect(make_plugin_manager(load_entrypoints=False, extra=[module.plugin])).sources) == ["oqmd"]
