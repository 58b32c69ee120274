"""The benchmark: routers compared on gold query sets over one frozen registry.

The gold queries and the frozen inventory are not part of this package: they ship in the
distribution ``schemarouter-core-bench-data`` (package ``schemarouter_bench_data``), so that a
runtime install carries no gold answers. :func:`data_path` finds them there.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from schemarouter.errors import SchemaRouterError

DATA_PACKAGE = "schemarouter_bench_data"
DATA_DISTRIBUTION = "schemarouter-core-bench-data"


class BenchDataMissing(SchemaRouterError):
    """The benchmark data distribution is not installed."""


def data_path(name: str) -> Path:
    """Path of a benchmark data file (``inventory.yaml``, ``dev.jsonl``) in the bench data distribution."""
    try:
        root = files(DATA_PACKAGE)
    except ModuleNotFoundError:
        raise BenchDataMissing(
            f"the benchmark data is not installed: pip install {DATA_DISTRIBUTION} (in a clone: make setup)"
        ) from None
    return Path(str(root.joinpath(name)))
