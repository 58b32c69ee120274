"""The benchmark as a schemarouter plugin: it adds the ``schemarouter bench`` command."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from schemarouter import hookimpl


@hookimpl
def register_commands(register: Callable[[Any], None]) -> None:
    """``schemarouter bench`` (imported when the CLI asks for it)."""
    from schemarouter_bench.cli import bench

    register(bench)
