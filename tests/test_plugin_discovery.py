"""Plugins are found through real entry points: pip-installed, listed, synced, uninstalled.

The example plugin in docs/examples/ is pip-installed into a throwaway virtual environment that
sees this checkout's environment, so the test exercises exactly what a user does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "docs" / "examples" / "schemarouter-example-plugin"


def _run(python: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("SCHEMAROUTER_")}
    base.update(env or {})
    return subprocess.run([str(python), *args], check=False, capture_output=True, text=True, env=base, timeout=600)


@pytest.fixture(scope="module")
def plugin_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv layered over this environment (core and first-party plugins visible)."""
    root = tmp_path_factory.mktemp("plugin-venv")
    # no pip of its own: the outer environment's pip and setuptools (current versions) are used
    venv.create(root, with_pip=False, system_site_packages=False)
    python = root / "bin" / "python"
    site_dir = _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip()
    outer = sysconfig.get_paths()["purelib"]
    # addsitedir (not a bare path) so the outer environment's editable-install .pth files run too
    Path(site_dir, "zz_outer_env.pth").write_text(f"import site; site.addsitedir({outer!r})\n")
    return python


@pytest.mark.slow
def test_pip_installed_plugin_is_discovered_synced_and_removed_on_uninstall(plugin_venv: Path, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'registry.db'}"
    install = _run(plugin_venv, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--quiet", str(EXAMPLE))
    assert install.returncode == 0, install.stderr

    listed = _run(plugin_venv, "-m", "schemarouter", "plugins", "--json")
    assert listed.returncode == 0, listed.stderr
    example = next(p for p in json.loads(listed.stdout) if p["name"] == "example")
    assert example["distribution"] == "schemarouter-example" and example["version"] == "0.2.0"
    assert example["sources"] == ["example_thin_films"] and example["concepts"] == ["band_gap"]

    synced = _run(plugin_venv, "-m", "schemarouter", "registry", "sync", "--db", db, "--json")
    assert synced.returncode == 0, synced.stderr
    assert "example_thin_films" in json.loads(synced.stdout)["added"]
    shown = _run(plugin_venv, "-m", "schemarouter", "registry", "list", "--db", db, "--json")
    owners = {row["id"]: row["owner"] for row in json.loads(shown.stdout)}
    assert owners["example_thin_films"] == {"kind": "plugin", "name": "schemarouter-example", "version": "0.2.0"}
    before = set(owners)

    removed = _run(plugin_venv, "-m", "pip", "uninstall", "--yes", "--quiet", "schemarouter-example")
    assert removed.returncode == 0, removed.stderr
    resynced = _run(plugin_venv, "-m", "schemarouter", "registry", "sync", "--db", db, "--json")
    report = json.loads(resynced.stdout)
    assert report["removed"] == ["example_thin_films"] and report["added"] == []
    after = {row["id"] for row in json.loads(_run(plugin_venv, "-m", "schemarouter", "registry", "list", "--db", db, "--json").stdout)}
    assert after == before - {"example_thin_films"}


def _fake_distribution(site: Path, module: str, body: str) -> None:
    """A plugin visible to importlib.metadata without pip: a module plus its dist-info."""
    (site / f"{module}.py").write_text(body)
    info = site / f"{module}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module.replace('_', '-')}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[schemarouter]\n{module} = {module}\n")


BROKEN_PLUGIN = '''
from schemarouter import hookimpl

@hookimpl
def register_sources(register):
    register({
        "id": "broken_source", "title": "Broken", "domain": "materials", "source_type": "experimental",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [{"id": "search", "method": "GET", "access": "write", "base_url": "https://b.example.org",
                       "path": "/s",
                       "fields": [{"name": "value", "path": "value", "type": "number", "group": "electronic"}]}],
    })
'''


def test_sync_with_an_invalid_installed_plugin_fails_and_writes_nothing(tmp_path: Path, run_cli) -> None:  # type: ignore[no-untyped-def]
    db = f"sqlite:///{tmp_path / 'registry.db'}"
    assert run_cli("registry", "sync", "--db", db).returncode == 0
    before = run_cli("registry", "export", "-", "--db", db).stdout
    site = tmp_path / "site"
    site.mkdir()
    _fake_distribution(site, "broken_plugin", BROKEN_PLUGIN)
    env = {"PYTHONPATH": str(site)}
    result = run_cli("registry", "sync", "--db", db, env=env)
    assert result.returncode == 1
    assert result.stderr.startswith("Error: broken_plugin (broken-plugin 1.0): source 'broken_source'")
    assert "a GET cannot be a write" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert run_cli("registry", "export", "-", "--db", db).stdout == before


def test_duplicate_source_from_an_installed_plugin_names_both(tmp_path: Path, run_cli) -> None:  # type: ignore[no-untyped-def]
    site = tmp_path / "site"
    site.mkdir()
    _fake_distribution(
        site, "oqmd_clone",
        "from schemarouter_oqmd import plugin\nregister_sources = plugin.register_sources\n",
    )
    result = run_cli("registry", "sync", "--db", f"sqlite:///{tmp_path / 'r.db'}", env={"PYTHONPATH": str(site)})
    assert result.returncode == 1
    assert "oqmd_clone" in result.stderr and "schemarouter-oqmd" in result.stderr and "'oqmd'" in result.stderr


def test_plugin_that_fails_to_import_is_named(tmp_path: Path, run_cli) -> None:  # type: ignore[no-untyped-def]
    site = tmp_path / "site"
    site.mkdir()
    _fake_distribution(site, "crashing_plugin", "raise ImportError('needs libfoo')\n")
    result = run_cli("plugins", env={"PYTHONPATH": str(site)})
    assert result.returncode == 1
    assert "plugin 'crashing_plugin' from crashing-plugin 1.0 failed to load: needs libfoo" in result.stderr


def test_load_plugins_env_restricts_sync(tmp_path: Path, run_cli) -> None:  # type: ignore[no-untyped-def]
    db = f"sqlite:///{tmp_path / 'r.db'}"
    result = run_cli("registry", "sync", "--db", db, "--json", env={"SCHEMAROUTER_LOAD_PLUGINS": "oqmd,schemarouter-cod"})
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["added"] == ["cod", "oqmd"]


def test_python_executable_is_the_venv() -> None:
    # the discovery tests rely on running the same interpreter the suite runs with
    assert Path(sys.executable).exists()
