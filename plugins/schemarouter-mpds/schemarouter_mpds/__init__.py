"""schemarouter source plugin: MPDS (PAULING FILE).

Declares the source from ``source.yaml`` beside this module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from schemarouter import hookimpl
from schemarouter.declarations import load_source_file
from schemarouter.models import Source
from schemarouter_mpds.adapter import register_adapters  # noqa: F401  (execution adapter, issue 7)

SOURCE_FILE = Path(__file__).with_name("source.yaml")


@hookimpl
def register_sources(register: Callable[[Source], None]) -> None:
    register(load_source_file(SOURCE_FILE))
