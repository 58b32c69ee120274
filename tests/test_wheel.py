"""An installed wheel (not only a source checkout) carries the migrations and can create a registry.

The benchmark (its code and its data) ships in its own wheel (bench/); the runtime wheel carries none of it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


BENCH = REPO / "bench"


def _build_wheel(project: Path, parts: list[str], out: Path, pattern: str) -> Path:
    """Build from a copy of the project's sources: a checkout's build/ may hold files since removed."""
    source = out / "src"
    for part in parts:
        if (project / part).is_dir():
            shutil.copytree(project / part, source / part, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            source.mkdir(parents=True, exist_ok=True)
            shutil.copy2(project / part, source / part)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet", "-w", str(out), str(source)],
        check=True, capture_output=True, timeout=600,
    )
    return next(out.glob(pattern))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    parts = ["pyproject.toml", "README.md", "schemarouter"]
    return _build_wheel(REPO, parts, tmp_path_factory.mktemp("wheel"), "schemarouter_core-*.whl")


@pytest.fixture(scope="module")
def bench_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    parts = ["pyproject.toml", "README.md", "schemarouter_bench"]
    return _build_wheel(BENCH, parts, tmp_path_factory.mktemp("bench-wheel"), "schemarouter_bench-*.whl")


@pytest.mark.slow
def test_wheel_contains_migrations_and_vocabulary(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    migrations = "schemarouter/registry/db_migrations"
    assert f"{migrations}/env.py" in names
    assert f"{migrations}/script.py.mako" in names
    versions = {Path(n).name for n in names if n.startswith(f"{migrations}/versions/") and n.endswith(".py")}
    expected = {p.name for p in (REPO / migrations / "versions").glob("0*.py")}
    assert expected and expected <= versions
    assert "schemarouter/default_plugins/vocabulary.yaml" in names


@pytest.mark.slow
def test_runtime_wheel_carries_no_benchmark_data(wheel: Path) -> None:
    data = {
        hashlib.sha256(p.read_bytes()).hexdigest(): p.name
        for p in (BENCH / "schemarouter_bench" / "data").rglob("*") if p.is_file() and p.suffix != ".py"
    }
    assert {"dev.jsonl", "inventory.yaml"} <= set(data.values())
    with zipfile.ZipFile(wheel) as archive:
        leaked = [
            name for name in archive.namelist()
            if "bench" in name or hashlib.sha256(archive.read(name)).hexdigest() in data
        ]
    assert leaked == [], f"the runtime wheel carries benchmark data: {leaked}"


@pytest.mark.slow
def test_bench_wheel_carries_its_code_every_data_file_and_its_entry_point(bench_wheel: Path) -> None:
    archive = zipfile.ZipFile(bench_wheel)
    names = set(archive.namelist())
    package = BENCH / "schemarouter_bench"
    expected = {
        p.relative_to(BENCH).as_posix() for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts
    }
    assert {"schemarouter_bench/data/dev.jsonl", "schemarouter_bench/data/inventory.yaml",
            "schemarouter_bench/cli.py"} <= expected
    missing = sorted(expected - names)
    assert not missing, f"files missing from the bench wheel (see bench/pyproject.toml): {missing}"
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "bench = schemarouter_bench.plugin" in archive.read(entry_points).decode()


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


SHIPPED = {".py", ".yaml", ".jsonl", ".json", ".typed", ".html", ".js", ".css"}


@pytest.mark.slow
def test_wheel_carries_every_package_and_data_file_of_the_source_tree(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    source = REPO / "schemarouter"
    expected = [
        p.relative_to(REPO).as_posix()
        for p in source.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix in SHIPPED
    ]
    missing = sorted(name for name in expected if name not in names)
    assert not missing, f"files missing from the wheel (add their package to pyproject.toml): {missing}"
    # the wheel is pure Python for any platform
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    assert wheel.name.endswith("-py3-none-any.whl")


DEMO_PLUGINS = {"pubchem": "schemarouter-pubchem", "arxiv": "schemarouter-arxiv"}


@pytest.mark.slow
def test_installed_wheels_answer_the_demo_questions_offline(wheel: Path, tmp_path: Path) -> None:
    """Wheels, not a checkout: the core and two plugins unpacked into a folder of their own answer
    `run --offline` from the recordings inside the plugin wheels."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    for source, distribution in DEMO_PLUGINS.items():
        package = distribution.replace("-", "_")
        built = _build_wheel(REPO / "plugins" / distribution, ["pyproject.toml", "README.md", package],
                             tmp_path / f"{source}-wheel", f"{package}-*.whl")
        zipfile.ZipFile(built).extractall(site)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCHEMAROUTER_")}
    env.update(PYTHONPATH=str(site), SCHEMAROUTER_LOAD_PLUGINS=",".join(DEMO_PLUGINS),
               SCHEMAROUTER_HOME=str(tmp_path / "home"))
    where = subprocess.run(
        [sys.executable, "-c", "import schemarouter_pubchem, schemarouter.execution.offline as o;"
                               "print(schemarouter_pubchem.__file__); print(o.recording_folders()['pubchem'])"],
        check=False, capture_output=True, text=True, env=env, cwd=tmp_path)
    module_file, recordings = where.stdout.split()
    assert module_file.startswith(str(site)) and recordings.startswith(str(site)), where.stdout + where.stderr
    for question, value in (("What is the molecular weight of aspirin?", "MolecularWeight = 180.16"),
                            ("Get the arXiv paper 1605.08386", "1605.08386")):
        result = subprocess.run([sys.executable, "-m", "schemarouter", "run", "--offline", question],
                                check=False, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
        assert value in result.stdout, result.stdout
