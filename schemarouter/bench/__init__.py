"""The benchmark: the frozen inventory and dev queries shipped as package data, and (later) the runner."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def data_path(name: str) -> Path:
    """Path of a shipped benchmark file (``inventory.yaml``, ``dev.jsonl``)."""
    return Path(str(files(__package__).joinpath("data", name)))
