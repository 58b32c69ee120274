"""Every file the project reads is loaded within bounds: one clear line, never a traceback or a blow-up.

Source files for ``source add``, plugin ``source.yaml`` files, OpenAPI overlays, registry exports
for ``registry import``, plan files for ``run --plan`` and cassettes all go through
:mod:`schemarouter.safeload`. Each hostile document below is refused in well under a second.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml

from schemarouter.declarations import load_source_file
from schemarouter.errors import DeclarationError, ImportFileError, SchemaRouterError
from schemarouter.execution.offline import load_cassette_file
from schemarouter.openapi.overlay import load_overlay
from schemarouter.registry.store import parse_export
from tests.factories import source_dict
from tests.sr_cli import copy_registry, run_main, synced_template

LAUGHS = "\n".join(
    ["lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"lol{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 10)]
)


def _source_yaml_with(example: str) -> str:
    """A valid source file whose first parameter's ``example`` is ``example`` (YAML text)."""
    text = yaml.safe_dump(source_dict(auth=None), sort_keys=False)
    return text.replace("example: GaN", f"example: {example}")


def billion_laughs() -> str:
    lines = _source_yaml_with("*l9").splitlines()
    return "\n".join(["x-laughs:", *("  " + line for line in LAUGHS.splitlines()), *lines]) + "\n"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synced_template(tmp_path_factory.mktemp("template"))


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("laughs.yaml", billion_laughs(), "aliases expand to more than"),
        ("recursive.yaml", _source_yaml_with("&loop [1, *loop]"), "recursive YAML anchor 'loop'"),
        ("binary.yaml", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary data"),
        ("deep.yaml", _source_yaml_with("[" * 5000 + "]" * 5000), "nesting deeper than"),
    ],
)
def test_source_add_refuses_hostile_yaml_in_one_line(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    name: str, content: str | bytes, message: str,
) -> None:
    url = copy_registry(template, tmp_path)
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    started = time.perf_counter()
    result = run_main(capsys, monkeypatch, "source", "add", str(path), "--db", url)
    assert time.perf_counter() - started < 10
    assert result.code == 1 and "Traceback" not in result.err
    [line] = result.err.strip().splitlines()
    assert name in line and message in line, line
    # The plugin loader reads source.yaml files the same way.
    with pytest.raises(DeclarationError, match=message):
        load_source_file(path)


def test_an_overlay_with_an_alias_bomb_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "overlay.yaml"
    path.write_text(LAUGHS + "\ntitle: *l9\n")
    with pytest.raises(SchemaRouterError, match="aliases expand to more than"):
        load_overlay(path)


def test_an_export_nested_100000_levels_is_one_line(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"format": "schemarouter-registry", "version": 1, "intents": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(ImportFileError, match="nesting deeper than"):
        parse_export(path)
    url = copy_registry(template, tmp_path)
    result = run_main(capsys, monkeypatch, "registry", "import", str(path), "--db", url)
    assert result.code == 1 and len(result.err.strip().splitlines()) == 1 and "deep.json" in result.err


def test_an_export_whose_owners_is_a_list_is_one_line(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = copy_registry(template, tmp_path)
    exported = tmp_path / "export.json"
    assert run_main(capsys, monkeypatch, "registry", "export", str(exported), "--db", url).code == 0
    document = json.loads(exported.read_text())
    document["owners"] = sorted(document["owners"])
    exported.write_text(json.dumps(document))
    result = run_main(capsys, monkeypatch, "registry", "import", str(exported), "--db", url)
    assert result.code == 1 and "Traceback" not in result.err
    assert "'owners' must be an object" in result.err


def test_a_binary_plan_file_and_a_binary_cassette_are_refused(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = tmp_path / "plan.json"
    plan.write_bytes(b"\x00\x01\x02binary")
    url = copy_registry(template, tmp_path)
    result = run_main(capsys, monkeypatch, "run", "q", "--db", url, "--plan", str(plan))
    assert result.code == 1 and "binary data" in result.err and "plan.json" in result.err
    cassette = tmp_path / "c.yaml"
    cassette.write_text(LAUGHS + "\ninteractions: *l9\n")
    with pytest.raises(SchemaRouterError, match="aliases expand to more than"):
        load_cassette_file(cassette)
