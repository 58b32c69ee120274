"""The benchmark's data is a distribution of its own; without it, ``bench`` says how to install it.

The runtime package must not carry the gold queries (``tests/test_wheel.py`` checks the built
wheels); here the installed data is found, and a missing one is one line naming the install.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import schemarouter.bench
from schemarouter.bench import DATA_DISTRIBUTION, BenchDataMissing, data_path
from schemarouter.bench.dataset import load_queries
from tests.sr_cli import run_main

REPO = Path(__file__).resolve().parents[1]


def test_data_path_finds_the_files_of_the_bench_data_distribution() -> None:
    for name in ("dev.jsonl", "inventory.yaml"):
        path = data_path(name)
        assert path.is_file() and path.parent.name == "schemarouter_bench_data", path
        assert path.read_bytes() == (REPO / "bench-data" / "schemarouter_bench_data" / name).read_bytes()
    assert len(load_queries(None)) >= 100  # the default query set comes from there
    assert (data_path("imported") / "cross_source.jsonl").is_file()  # the open-world suites too
    assert (data_path("restbench") / "LICENSE").is_file()
    assert not (Path(schemarouter.bench.__file__).parent / "data").exists()


def test_without_the_distribution_data_path_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "schemarouter_bench_data", None)  # as if it were not installed
    with pytest.raises(BenchDataMissing, match=f"pip install {DATA_DISTRIBUTION}"):
        data_path("dev.jsonl")


def test_bench_without_the_data_is_one_line_with_the_install_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "schemarouter_bench_data", None)
    result = run_main(capsys, monkeypatch, "bench", "--quick")
    assert result.code == 1
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert lines == [
        "Error: the benchmark data is not installed: pip install schemarouter-core-bench-data (in a clone: make setup)"
    ]
