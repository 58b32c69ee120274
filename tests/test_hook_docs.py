"""Every hook is documented in docs/plugin_hooks.md and has a test of its own."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from schemarouter import hookspecs

REPO = Path(__file__).resolve().parents[1]


def _hook_names() -> list[str]:
    return [
        name for name, fn in inspect.getmembers(hookspecs, inspect.isfunction)
        if hasattr(fn, "schemarouter_spec")
    ]


def test_hookspecs_are_found() -> None:
    assert set(_hook_names()) >= {"register_sources", "register_intents", "register_field_groups",
                                  "register_concepts", "register_adapters"}


def test_every_hook_is_documented() -> None:
    docs = (REPO / "docs" / "plugin_hooks.md").read_text()
    headings = set(re.findall(r"^## (\w+)\(register\)$", docs, flags=re.MULTILINE))
    missing = sorted(set(_hook_names()) - headings)
    assert not missing, f"hooks without a section in docs/plugin_hooks.md: {missing}"


def test_every_hook_has_a_test_of_its_own() -> None:
    tests = "\n".join(p.read_text() for p in (REPO / "tests").glob("test_*.py"))
    missing = [name for name in _hook_names() if not re.search(rf"def test_hook_{name}(\(|_)", tests)]
    assert not missing, f"hooks without a test named test_hook_<name>[_...]: {missing}"


def test_every_hook_has_a_docstring() -> None:
    for name in _hook_names():
        assert (getattr(hookspecs, name).__doc__ or "").strip(), name
