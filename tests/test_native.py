"""The compiled build of the routing hot path runs only while it matches its sources, and plans alike.

A stale build (a source edited or checked out since it was compiled), a missing manifest, a module
left out, or ``SCHEMAROUTER_PURE=1`` make every listed module import from its ``.py`` file; and
where this checkout runs compiled, a pure-Python process plans the benchmark's questions exactly
as this one does.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from schemarouter import native

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _fake_build(root: Path) -> None:
    """A source tree under ``root`` with every listed module, a compiled file beside each and a manifest."""
    sources = {}
    for module in native.MODULES:
        path = native.source_path(module, root)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"NAME = {module!r}\n", encoding="utf-8")
        path.with_suffix(SUFFIX).write_bytes(b"not really compiled")
        sources[module] = hashlib.sha256(path.read_bytes()).hexdigest()
    manifest = {"mypyc": "9.9", "python": "3.11", "sources": sources}
    (root / "schemarouter" / native.MANIFEST_NAME).write_text(json.dumps(manifest), encoding="utf-8")


def test_a_tree_without_compiled_files_is_pure_python(tmp_path: Path) -> None:
    state = native.inspect(tmp_path, environ={})
    assert not state.compiled and not state.built  # nothing beside the sources: no finder is needed
    assert "not compiled" in state.reason and "schemarouter native build" in state.reason


def test_a_build_matching_its_sources_runs_compiled(tmp_path: Path) -> None:
    _fake_build(tmp_path)
    state = native.inspect(tmp_path, environ={})
    assert state.compiled, state.reason
    assert f"({len(native.MODULES)} modules)" in state.reason and "9.9" in state.reason


def test_an_edited_source_makes_the_whole_build_stale(tmp_path: Path) -> None:
    _fake_build(tmp_path)
    edited = native.source_path("schemarouter.router.chains", tmp_path)
    edited.write_text(edited.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    state = native.inspect(tmp_path, environ={})
    assert not state.compiled and state.built  # a stale build is kept out by importing from source
    assert state.reason == "pure Python (schemarouter.router.chains changed since it was compiled)"


def test_a_touched_but_unchanged_source_is_not_stale(tmp_path: Path) -> None:
    _fake_build(tmp_path)
    path = native.source_path("schemarouter.graph.lexical", tmp_path)
    path.write_bytes(path.read_bytes())  # a checkout rewrites a file with the same content
    assert native.inspect(tmp_path, environ={}).compiled


@pytest.mark.parametrize("breakage, reason", [
    ("manifest", "no readable build manifest"),
    ("module", "schemarouter.understand.rules was not compiled"),
    ("env", "SCHEMAROUTER_PURE is set"),
])
def test_what_keeps_a_build_from_running_is_named(tmp_path: Path, breakage: str, reason: str) -> None:
    _fake_build(tmp_path)
    environ = {}
    if breakage == "manifest":
        (tmp_path / "schemarouter" / native.MANIFEST_NAME).write_text("{not json", encoding="utf-8")
    elif breakage == "module":
        native.source_path("schemarouter.understand.rules", tmp_path).with_suffix(SUFFIX).unlink()
    else:
        environ[native.PURE_ENV] = "1"
    state = native.inspect(tmp_path, environ=environ)
    assert not state.compiled and reason in state.reason


def test_pure_set_to_zero_does_not_force_pure(tmp_path: Path) -> None:
    _fake_build(tmp_path)
    assert native.inspect(tmp_path, environ={native.PURE_ENV: "0"}).compiled


def test_clean_removes_what_a_build_left_and_nothing_else(tmp_path: Path) -> None:
    _fake_build(tmp_path)
    shared = tmp_path / "schemarouter" / f"native__mypyc{SUFFIX}"
    shared.write_bytes(b"library")
    (tmp_path / native.BUILD_DIR).mkdir(parents=True)
    (tmp_path / native.BUILD_DIR / "x.c").write_text("int x;", encoding="utf-8")
    removed = native.clean(tmp_path)
    assert shared in removed and tmp_path / native.BUILD_DIR in removed
    assert not list(tmp_path.rglob(f"*{SUFFIX}")) and not (tmp_path / native.BUILD_DIR).exists()
    assert not (tmp_path / "schemarouter" / native.MANIFEST_NAME).exists()
    assert all(native.source_path(m, tmp_path).is_file() for m in native.MODULES)  # sources stay


def test_the_source_finder_imports_the_py_file_ahead_of_a_compiled_one(tmp_path: Path) -> None:
    # a broken extension beside the source: a plain import would try it and fail
    package = tmp_path / "nativeprobe"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "hot.py").write_text("WHERE = 'source'\n", encoding="utf-8")
    (package / f"hot{SUFFIX}").write_bytes(b"\x7fELF broken")
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); from schemarouter import native\n"
        "plain = True\n"
        "try:\n    import nativeprobe.hot\nexcept ImportError:\n    plain = False\n"
        "sys.modules.pop('nativeprobe.hot', None)\n"
        "sys.meta_path.insert(0, native._FromSource(frozenset({'nativeprobe.hot'})))\n"
        "import nativeprobe.hot\nprint(plain, nativeprobe.hot.WHERE)\n"
    )
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "source"]


def _plans_script() -> str:
    return r"""
import json, sys
from schemarouter import native
from schemarouter.bench.dataset import load_queries
from schemarouter.bench.devset import load_dev_questions, load_tmdb_queries
from schemarouter.bench.frozen import load_frozen
from schemarouter.bench.openworld import build_open_world
from schemarouter.router import Router
world = build_open_world(load_frozen())
router = Router(world.frozen.graph)
questions = [q.query for q in load_queries()][::4] + [q.query for q in load_dev_questions()][::4]
questions += [q.query for q in load_tmdb_queries()][::4]
plans = [router.plan(q).model_dump(mode="json", exclude={"id"}) for q in questions]
print(json.dumps({"state": str(native.state()), "plans": plans}))
"""


@pytest.mark.skipif(not native.state().compiled, reason=f"this process runs {native.state()}")
def test_compiled_and_pure_python_plan_alike() -> None:
    def run(pure: bool) -> dict[str, object]:
        env = {"PYTHONHASHSEED": "0", **({native.PURE_ENV: "1"} if pure else {})}
        out = subprocess.run([sys.executable, "-c", _plans_script()], capture_output=True, text=True, check=True,
                             env={**os.environ, **env}, timeout=600)
        loaded: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
        return loaded

    compiled, pure = run(False), run(True)
    assert str(compiled["state"]).startswith("compiled") and str(pure["state"]).startswith("pure Python")
    assert isinstance(compiled["plans"], list) and len(compiled["plans"]) > 80
    assert compiled["plans"] == pure["plans"]


def test_native_status_says_what_runs_and_the_variable_is_a_setting(run_cli) -> None:  # type: ignore[no-untyped-def]
    forced = run_cli("native", "status", env={native.PURE_ENV: "1"})
    assert forced.returncode == 0 and forced.stderr == ""  # no "not a schemarouter setting" warning
    assert forced.stdout.strip() == "pure Python (SCHEMAROUTER_PURE is set)"
    plain = run_cli("native", "status")
    assert plain.returncode == 0 and plain.stdout.strip() == str(native.inspect(environ={}))
    assert run_cli("native", "bogus").returncode == 2
