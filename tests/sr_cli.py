"""Helpers for the private-sources tests: the CLI in-process, and a synced registry copied per test.

Syncing the 19 first-party plugins takes seconds, so one synced SQLite file is made per session
and copied for each test that needs it.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from schemarouter.cli import main
from schemarouter.declarations import collect
from schemarouter.plugins import make_plugin_manager
from schemarouter.registry import Registry

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "docs" / "examples"
TMDB = REPO / "tests" / "data" / "tmdb"


@dataclass
class Ran:
    code: int
    out: str
    err: str


def run_main(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> Ran:
    """Run ``schemarouter ARGS`` through its real entry point (error printing included)."""
    monkeypatch.setattr(sys, "argv", ["schemarouter", *args])
    monkeypatch.delenv("SCHEMAROUTER_DEBUG", raising=False)
    capsys.readouterr()
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return Ran(code, captured.out, captured.err)


def synced_template(directory: Path) -> Path:
    path = directory / "synced.db"
    if not path.exists():
        with Registry.open(f"sqlite:///{path}") as reg:
            reg.sync(collect(make_plugin_manager()))
    return path


def copy_registry(template: Path, tmp_path: Path) -> str:
    target = tmp_path / "registry.db"
    shutil.copyfile(template, target)
    return f"sqlite:///{target}"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One synced registry per test module, copied for each test that needs one."""
    return synced_template(tmp_path_factory.mktemp("template"))


@pytest.fixture
def db(template: Path, tmp_path: Path) -> str:
    """A fresh copy of the synced registry, as a URL."""
    return copy_registry(template, tmp_path)


@pytest.fixture
def sr(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., Ran]:
    """``schemarouter ARGS`` run in-process: ``sr("plan", "...")``."""
    return lambda *args: run_main(capsys, monkeypatch, *args)
