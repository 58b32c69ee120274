"""schemarouter's benchmark: routers compared on gold query sets over one frozen registry.

A distribution of its own (``schemarouter-bench``), code and data together, so that the runtime
package carries neither the benchmark's code nor its gold answers. Installed, it adds
``schemarouter bench`` through the ``register_commands`` hook (:mod:`schemarouter_bench.plugin`).
The data (gold query sets, the frozen inventory, the open-world suites) is in ``data/``;
:func:`data_path` finds a file there.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

DISTRIBUTION = "schemarouter-bench"


def data_path(name: str) -> Path:
    """Path of a benchmark data file or folder (``inventory.yaml``, ``dev.jsonl``, ``imported``)."""
    return Path(str(files(__name__).joinpath("data", name)))
