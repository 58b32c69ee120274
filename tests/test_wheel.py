"""An installed wheel (not only a source checkout) carries the migrations and can create a registry."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet", "-w", str(out), str(REPO)],
        check=True, capture_output=True, timeout=600,
    )
    return next(out.glob("schemarouter_core-*.whl"))


@pytest.mark.slow
def test_wheel_contains_migrations_vocabulary_and_benchmark_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "schemarouter/_alembic/env.py" in names
    assert "schemarouter/_alembic/script.py.mako" in names
    versions = {Path(n).name for n in names if n.startswith("schemarouter/_alembic/versions/") and n.endswith(".py")}
    expected = {p.name for p in (REPO / "alembic" / "versions").glob("0*.py")}
    assert expected and expected <= versions
    assert "schemarouter/default_plugins/vocabulary.yaml" in names
    assert "schemarouter/bench/data/inventory.yaml" in names and "schemarouter/bench/data/dev.jsonl" in names


@pytest.mark.slow
def test_unpacked_wheel_creates_and_syncs_a_registry(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    db = tmp_path / "from-wheel.db"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCHEMAROUTER_")}
    env["PYTHONPATH"] = str(site)
    env["SCHEMAROUTER_LOAD_PLUGINS"] = ""
    code = (
        "import schemarouter, sys; from schemarouter.registry.migrations import script_location;"
        "print(schemarouter.__file__); print(script_location())"
    )
    where = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, env=env, cwd=tmp_path)
    module_file, scripts = where.stdout.split()
    assert module_file.startswith(str(site)) and scripts.startswith(str(site)), where.stdout
    result = subprocess.run(
        [sys.executable, "-m", "schemarouter", "registry", "sync", "--db", f"sqlite:///{db}"],
        check=False, capture_output=True, text=True, env=env, cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "vocabulary updated" in result.stdout and db.exists()


@pytest.mark.slow
def test_wheel_carries_every_package_and_data_file_of_the_source_tree(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    source = REPO / "schemarouter"
    expected = [
        p.relative_to(REPO).as_posix()
        for p in source.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix in {".py", ".yaml", ".jsonl", ".json", ".typed"}
    ]
    missing = sorted(name for name in expected if name not in names)
    assert not missing, f"files missing from the wheel (add their package to pyproject.toml): {missing}"
