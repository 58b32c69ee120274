"""Bounded loading of outside YAML/JSON: the same values as the standard loaders, and one-line refusals.

The hostile documents are small on purpose: each would cost gigabytes or a traceback through the
plain loaders (``yaml.safe_load`` composes the alias bomb as shared nodes, so the blow-up comes
in whatever walks the result), and here each is refused before anything is built.
"""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
import yaml

from schemarouter.errors import SchemaRouterError
from schemarouter.safeload import (
    MAX_DEPTH,
    UnsafeDocumentError,
    load_document,
    load_file,
    load_json,
    load_yaml,
)

PLAIN_YAML = [
    "a: 1\nb: [1, 2.5, {c: d}]\nwhen: 2020-01-01\nflag: yes\nnull_: ~\n",
    "",
    "just a scalar",
    "- &base {k: v, n: 1}\n- *base\n- <<: *base\n  z: 1\n",
    "defaults: &d {timeout: 5}\nprod:\n  <<: *d\n  host: x\n",
    "'200': ok\n200: int key\n",
    "text: |\n  multi\n  line\n",
    "- !!str 12\n- !!float 1\n- !!binary aGVsbG8=\n",
]


def _bomb(levels: int = 9, width: int = 10, where: str = "enum") -> str:
    """The 'billion laughs': each level lists the previous one ``width`` times."""
    lines = [f"l0: &l0 [{', '.join(['lol'] * width)}]"]
    for i in range(1, levels + 1):
        lines.append(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * width)}]")
    lines.append(f"schema: {{type: string, {where}: *l{levels}}}")
    return "\n".join(lines) + "\n"


def _refused(load: Any, text: str | bytes, *needles: str) -> UnsafeDocumentError:
    with pytest.raises(UnsafeDocumentError) as info:
        load(text, name="doc.yaml")
    message = str(info.value)
    assert "\n" not in message and message.startswith("doc.yaml: "), message
    for needle in needles:
        assert needle in message, (needle, message)
    assert isinstance(info.value, SchemaRouterError), "the CLI prints it as one line, no traceback"
    return info.value


@pytest.mark.parametrize("text", PLAIN_YAML)
def test_plain_yaml_loads_exactly_as_safe_load(text: str) -> None:
    assert load_yaml(text, name="doc.yaml") == yaml.safe_load(text)
    assert load_yaml(text.encode("utf-8"), name="doc.yaml") == yaml.safe_load(text)


def test_shared_anchors_within_the_limit_still_load() -> None:
    text = _bomb(levels=3, width=10)  # 1,110 nodes through aliases: a big but honest document
    assert load_yaml(text, name="doc.yaml") == yaml.safe_load(text)


@pytest.mark.parametrize("where", ["enum", "example"])
def test_billion_laughs_is_refused_quickly_and_small(where: str) -> None:
    text = _bomb(where=where)
    assert len(text) < 4000
    tracemalloc.start()
    try:
        error = _refused(load_yaml, text, "aliases expand to more than", "billion laughs")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20 * 1024 * 1024, f"refusing took {peak / 1e6:.0f} MB"
    assert error.line is not None and error.line <= 12


def test_doubling_merge_keys_are_counted_like_aliases() -> None:
    lines = ["m0: &m0 {a: 1, b: 2}"]
    for i in range(1, 40):
        lines.append(f"m{i}: &m{i} {{<<: [*m{i - 1}, *m{i - 1}]}}")
    _refused(load_yaml, "\n".join(lines), "aliases expand to more than")


def test_recursive_anchor_is_refused() -> None:
    _refused(load_yaml, "a: &loop\n  child: *loop\n", "recursive YAML anchor 'loop'", "line 2")
    _refused(load_yaml, "&x [1, [2, *x]]", "recursive YAML anchor 'x'")


@pytest.mark.parametrize("depth", [5000, MAX_DEPTH + 1])
def test_deep_nesting_is_refused_by_both_loaders(depth: int) -> None:
    _refused(load_yaml, "[" * depth + "]" * depth, f"nesting deeper than {MAX_DEPTH} levels")
    _refused(load_yaml, "".join(f"{'  ' * i}k:\n" for i in range(depth)) + "  " * depth + "v\n", "nesting deeper")
    _refused(load_json, "[" * depth + "]" * depth, f"nesting deeper than {MAX_DEPTH} levels")
    _refused(load_json, '{"a":' * depth + "1" + "}" * depth, "nesting deeper")


def test_nesting_at_the_limit_loads() -> None:
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert load_yaml(text, name="doc.yaml") == json.loads(text) == load_json(text, name="doc.yaml")


@pytest.mark.parametrize(
    ("data", "needles"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ["binary data"]),
        (b"title: caf\xe9\nother: x\n", ["line 1", "not UTF-8 text", "0xe9"]),
        (b"a: 1\nb: 2\nc: \xff\n", ["line 3", "not UTF-8"]),
        ("a: 1\x00", ["binary data"]),
    ],
    ids=["png", "latin-1", "bad-byte-line-3", "nul-in-str"],
)
def test_binary_and_undecodable_input_is_refused(data: str | bytes, needles: list[str]) -> None:
    _refused(load_yaml, data, *needles)
    _refused(load_json, data, *needles)


def test_byte_order_marks_are_read() -> None:
    assert load_yaml("\ufeffa: 1".encode("utf-8"), name="x") == {"a": 1}
    assert load_yaml("a: 1".encode("utf-16"), name="x") == {"a": 1}
    assert load_json('\ufeff{"a": 1}'.encode("utf-8"), name="x") == {"a": 1}


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        ("a: [1, 2\nb: 3\n", ["invalid YAML", "line 2"]),
        ("a: 1\n---\nb: 2\n", ["expected a single document", "but found another document", "line 2"]),
        ("a: *nowhere\n", ["undefined alias 'nowhere'", "line 1"]),
        ("a: &x 1\nb: &x 2\n", ["duplicate anchor 'x' (first at line 1)", "line 2"]),
        ("when: 2020-13-45\n", ["invalid YAML value", "month"]),
        ("n: " + "9" * 5000 + "\n", ["invalid YAML value"]),
    ],
    ids=["unclosed", "two-documents", "undefined-alias", "duplicate-anchor", "bad-date", "huge-int"],
)
def test_yaml_errors_are_one_line_with_the_place(text: str, needles: list[str]) -> None:
    _refused(load_yaml, text, *needles)


def test_json_errors_name_line_and_column() -> None:
    error = _refused(load_json, '{"a": 1,\n "b": }', "invalid JSON", "line 2, column 7")
    assert (error.line, error.column) == (2, 7)
    _refused(load_json, "[" + "9" * 5000 + "]", "invalid JSON value")


def test_size_limit_and_unreadable_files(tmp_path: Path) -> None:
    _refused(lambda t, name: load_yaml(t, name=name, max_bytes=100), "a: " + "x" * 200, "larger than the limit")
    big = tmp_path / "big.json"
    big.write_text("[" + "1," * 100 + "1]", encoding="utf-8")
    with pytest.raises(UnsafeDocumentError, match="larger than the limit"):
        load_file(big, max_bytes=50)
    with pytest.raises(UnsafeDocumentError, match=r"nope\.yaml: cannot read"):
        load_file(tmp_path / "nope.yaml")


def test_load_document_and_load_file_pick_json_or_yaml(tmp_path: Path) -> None:
    assert load_document('  {"a": [1]}', name="x") == {"a": [1]}
    assert load_document("a: [1]", name="x") == {"a": [1]}
    with pytest.raises(UnsafeDocumentError, match="invalid JSON"):
        load_document('{"a": 1,}', name="x")  # starts like JSON: read as JSON, not forgiven as YAML
    path = tmp_path / "spec.yaml"
    path.write_text(_bomb(), encoding="utf-8")
    with pytest.raises(UnsafeDocumentError, match=r"spec\.yaml: line \d+, column \d+: YAML aliases"):
        load_file(path)
    path.write_text(_bomb(levels=3), encoding="utf-8")
    assert load_file(path, name="label")["schema"]["type"] == "string"
    with pytest.raises(UnsafeDocumentError, match=r"^label: .*more than 100 nodes"):
        load_file(path, name="label", max_alias_nodes=100)


def test_the_pure_python_parser_gives_the_same_results(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without libyaml the same composer runs on PyYAML's own parser."""
    from schemarouter import safeload

    monkeypatch.setattr(safeload, "_BASE_LOADER", yaml.SafeLoader)
    for text in PLAIN_YAML:
        assert load_yaml(text, name="doc.yaml") == yaml.safe_load(text)
    _refused(load_yaml, _bomb(), "aliases expand")
    _refused(load_yaml, "[" * 5000 + "]" * 5000, "nesting deeper")
    _refused(load_yaml, "a: &loop\n  child: *loop\n", "recursive YAML anchor")
