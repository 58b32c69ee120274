"""Helpers for the MCP tests: the test kit's servers as command lines, and the lab source imported once."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from schemarouter.mcpimport import import_mcp
from schemarouter.registry import Registry
from schemarouter.registry.local import add_local_source
from schemarouter.sources.local import LocalSource
from schemarouter.sources.mcp import McpServer
from tests.sr_cli import EXAMPLES, copy_registry, synced_template

LAB = [sys.executable, "-m", "schemarouter.testing.mcp_lab"]
LAB_OVERLAY = EXAMPLES / "lab_mcp_overlay.yaml"
TIME_SERVER = shutil.which("mcp-server-time", path=str(Path(sys.executable).parent)) or "mcp-server-time"


def faults(mode: str, *args: str) -> list[str]:
    """The fault server's command line in ``mode``."""
    return [sys.executable, "-m", "schemarouter.testing.mcp_faults", mode, *args]


def write_overlay(path: Path, **extra: object) -> Path:
    """A minimal overlay (source type and license) for a test server, plus ``extra`` keys."""
    import yaml

    data = {"title": "Test server", "domain": "general", "source_type": "web",
            "license": {"id": "MIT", "name": "MIT License"}, **extra}
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def lab_local(source_id: str = "lab", *, hang: bool = False, env: list[str] | None = None) -> LocalSource:
    """The lab server imported with its overlay (``hang``: the same server, every call hanging)."""
    command = [*LAB, "--hang"] if hang else LAB
    return import_mcp(McpServer(command=command, env=env or []), source_id, LAB_OVERLAY).local


@pytest.fixture(scope="module")
def lab_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A synced registry with the lab imported (as ``lab``), made once per module."""
    directory = tmp_path_factory.mktemp("mcp")
    path = synced_template(directory)
    with Registry.open(f"sqlite:///{path}") as reg:
        add_local_source(reg, lab_local(env=["LAB_MCP_STARTS"]), "mcp: lab")
    return path


@pytest.fixture
def lab_db(lab_template: Path, tmp_path: Path) -> str:
    """A fresh copy of the registry with the lab, as a URL."""
    return copy_registry(lab_template, tmp_path)
