"""``schemarouter plugin new``: the scaffold passes its own tests as generated, and installs.

The fast test runs the generated tests with the scaffold on ``PYTHONPATH`` (no install). The slow
one installs it editable into a throw-away virtualenv layered over this one (never into .venv)
and checks the entry point is discovered.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import yaml

from schemarouter.scaffold import scaffold
from tests.sr_cli import REPO, run_main


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCHEMAROUTER_") and k != "PYTHONPATH"}
    env.update(extra)
    return env


def _pytest(python: str, root: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(root / "tests")],
        check=False, capture_output=True, text=True, cwd=root, env=_env(**env), timeout=300,
    )


def test_cli_writes_the_distribution(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    result = run_main(capsys, monkeypatch, "plugin", "new", "lab-store", "--dir", str(tmp_path))
    assert result.code == 0, result.err
    root = tmp_path / "schemarouter-lab-store"
    expected = {
        "pyproject.toml", "README.md", "schemarouter_lab_store/__init__.py", "schemarouter_lab_store/source.yaml",
        "schemarouter_lab_store/adapter.py", "tests/test_lab_store.py", "schemarouter_lab_store/recordings/samples.yaml",
    }
    assert {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()} == expected
    pyproject = (root / "pyproject.toml").read_text()
    assert '[project.entry-points.schemarouter]\nlab_store = "schemarouter_lab_store:plugin"' in pyproject
    readme = (root / "README.md").read_text()
    assert "Re-record the cassette" in readme
    # the core is not on a public index: the README installs it before the plugin, and says why
    assert readme.index("pip install -e PATH/TO/schemarouter") < readme.index("pip install -e .  ")
    assert "not on a public package index" in readme
    assert "schemarouter-core installed" in result.out
    again = run_main(capsys, monkeypatch, "plugin", "new", "lab-store", "--dir", str(tmp_path))
    assert again.code == 1 and "already exists" in again.err
    bad = run_main(capsys, monkeypatch, "plugin", "new", "Lab Store!", "--dir", str(tmp_path))
    assert bad.code == 1 and "must be lower case" in bad.err


def test_plugin_new_help_claims_only_what_it_does(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = " ".join(run_main(capsys, monkeypatch, "plugin", "new", "--help").out.split())
    assert "It installs" not in shown and "Nothing is installed or run" in shown
    assert "schemarouter-core" in shown
    hooks = (REPO / "docs" / "plugin_hooks.md").read_text(encoding="utf-8")
    section = hooks.split("## Installing a plugin", 1)[1].split("\n## ", 1)[0]
    assert section.index("pip install -e PATH/TO/schemarouter") < section.index("pip install -e schemarouter-my-source")


def test_generated_tests_pass_and_can_fail(tmp_path: Path) -> None:
    root = scaffold("kestrel", tmp_path)
    passed = _pytest(sys.executable, root, PYTHONPATH=str(root))
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "2 passed" in passed.stdout
    # The generated tests test something: a wrong value in the cassette makes the replay test fail.
    cassette = root / "schemarouter_kestrel" / "recordings" / "samples.yaml"
    doc = yaml.safe_load(cassette.read_text(encoding="utf-8"))
    body = doc["interactions"][0]["response"]["body"]
    body["string"] = body["string"].replace('"TiO2"', '"SnO2"', 1)
    cassette.write_text(yaml.safe_dump(doc), encoding="utf-8")
    failed = _pytest(sys.executable, root, PYTHONPATH=str(root))
    assert failed.returncode == 1 and "1 failed, 1 passed" in failed.stdout, failed.stdout


@pytest.mark.slow
def test_scaffold_installs_editable_and_its_entry_point_is_discovered(tmp_path: Path) -> None:
    root = scaffold("kestrel", tmp_path / "src")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    venv_site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    # Layer the new venv over this one (schemarouter, pytest, setuptools) without touching it.
    # addsitedir (not a plain path line) so this venv's own .pth files, editable installs included, apply.
    layer = f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n"
    Path(venv_site, "_layer.pth").write_text(layer, encoding="utf-8")
    install = subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index", "-e", str(root)],
        check=False, capture_output=True, text=True, env=_env(), timeout=600,
    )
    assert install.returncode == 0, install.stderr
    listed = subprocess.run(
        [python, "-m", "schemarouter", "plugins", "--json"], check=False, capture_output=True, text=True, cwd=tmp_path,
        env=_env(SCHEMAROUTER_LOAD_PLUGINS="kestrel"), timeout=120,
    )
    assert listed.returncode == 0, listed.stderr
    assert '"kestrel"' in listed.stdout and "schemarouter-kestrel" in listed.stdout
    db = tmp_path / "r.db"
    synced = subprocess.run(
        [python, "-m", "schemarouter", "registry", "sync", "--db", f"sqlite:///{db}"], check=False,
        capture_output=True, cwd=tmp_path,
        text=True, env=_env(SCHEMAROUTER_LOAD_PLUGINS="kestrel"), timeout=120,
    )
    assert synced.returncode == 0 and "1 added" in synced.stdout, synced.stdout + synced.stderr
    tested = _pytest(python, root)
    assert tested.returncode == 0 and "2 passed" in tested.stdout, tested.stdout + tested.stderr
