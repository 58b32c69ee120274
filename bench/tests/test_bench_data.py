"""The benchmark is a distribution of its own, code and data together, and a plugin of the core.

The runtime package must carry neither (``tests/test_wheel.py`` checks the built wheels); here the
installed data is found, and ``schemarouter bench`` comes from the benchmark's ``register_commands``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from schemarouter_bench import data_path
from schemarouter_bench.dataset import load_queries

from schemarouter.plugins import plugin_manager
from tests.sr_cli import run_main

BENCH = Path(__file__).resolve().parents[1]


def test_data_path_finds_the_files_beside_the_code() -> None:
    for name in ("dev.jsonl", "inventory.yaml"):
        path = data_path(name)
        assert path.is_file() and path.parent.name == "data", path
        assert path.read_bytes() == (BENCH / "schemarouter_bench" / "data" / name).read_bytes()
    assert len(load_queries(None)) >= 100  # the default query set comes from there
    assert (data_path("imported") / "cross_source.jsonl").is_file()  # the open-world suites too
    assert (data_path("restbench") / "LICENSE").is_file()


def test_the_bench_command_is_a_plugin_command(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    names = [impl.plugin_name for impl in plugin_manager().hook.register_commands.get_hookimpls()]
    assert names == ["bench"]
    result = run_main(capsys, monkeypatch, "bench", "--help")
    assert result.code == 0 and "Usage: schemarouter bench" in result.out
    # without the benchmark's plugin loaded, the command does not exist
    monkeypatch.setenv("SCHEMAROUTER_LOAD_PLUGINS", "")
    result = run_main(capsys, monkeypatch, "bench", "--quick")
    assert result.code == 2 and "No such command 'bench'" in result.err
