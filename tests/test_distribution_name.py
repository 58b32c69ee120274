"""The core is published as ``schemarouter-core``, and everything that names it uses that name.

``schemarouter`` on the public index is another project. A plugin that required ``schemarouter``
would pull that package in on a machine without our core (dependency confusion), and an install
hint naming it would install the wrong thing. The import name stays ``schemarouter``.
"""

from __future__ import annotations

import re
import subprocess
import tomllib
from importlib.metadata import requires, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import schemarouter
from schemarouter.plugins import make_plugin_manager
from schemarouter.scaffold import scaffold

REPO = Path(__file__).resolve().parents[1]
CORE = "schemarouter-core"
PLUGIN_PROJECTS = [
    *sorted(REPO.glob("plugins/*/pyproject.toml")),
    REPO / "docs" / "examples" / "schemarouter-example-plugin" / "pyproject.toml",
]
# An install command for the bare name, with or without extras or -e; schemarouter-core passes.
FOREIGN_INSTALL = re.compile(r"pip install (-e )?['\"]?schemarouter(?![-\w])")


def _project(pyproject: Path) -> dict[str, object]:
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    assert isinstance(project, dict)
    return project


def _dependency_names(pyproject: Path) -> set[str]:
    dependencies = _project(pyproject).get("dependencies", [])
    assert isinstance(dependencies, list)
    return {canonicalize_name(Requirement(spec).name) for spec in dependencies}


def test_the_core_is_installed_under_its_own_name() -> None:
    project = _project(REPO / "pyproject.toml")
    assert project["name"] == schemarouter.DISTRIBUTION == CORE
    assert schemarouter.__version__ == version(CORE) == project["version"]


@pytest.mark.parametrize("pyproject", PLUGIN_PROJECTS, ids=lambda p: p.parent.name)
def test_every_plugin_depends_on_the_core_by_its_own_name(pyproject: Path) -> None:
    names = _dependency_names(pyproject)
    assert CORE in names and "schemarouter" not in names, f"{pyproject.relative_to(REPO)}: {sorted(names)}"


def test_installed_plugins_carry_the_core_requirement_in_their_metadata() -> None:
    pm = make_plugin_manager()
    distributions = {pm.plugin_info(name).distribution for name, _ in pm.list_name_plugin()} - {CORE}
    assert len(distributions) >= 19
    for distribution in distributions:
        names = {canonicalize_name(Requirement(spec).name) for spec in requires(distribution) or []}
        assert CORE in names and "schemarouter" not in names, distribution


def test_the_scaffold_depends_on_the_core_by_its_own_name(tmp_path: Path) -> None:
    root = scaffold("kestrel", tmp_path)
    assert _dependency_names(root / "pyproject.toml") == {CORE}


def test_default_plugins_are_listed_under_the_core_distribution() -> None:
    pm = make_plugin_manager(load_entrypoints=False)
    infos = [pm.plugin_info(name) for name, _ in pm.list_name_plugin()]
    assert infos and all(info.default and info.distribution == CORE for info in infos)


def test_no_install_hint_names_the_foreign_distribution() -> None:
    tracked = subprocess.run(
        ["git", "ls-files", "*.py", "*.md", "*.toml", "Makefile"], cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout.split()
    offenders = [
        f"{name}:{number}" for name in tracked if (REPO / name).is_file()
        for number, line in enumerate((REPO / name).read_text(encoding="utf-8").splitlines(), 1)
        if FOREIGN_INSTALL.search(line)
    ]
    assert offenders == []
    assert FOREIGN_INSTALL.search("run: pip install " + "'schemarouter[bench]'")  # the pattern catches a hint
    assert not FOREIGN_INSTALL.search("pip install 'schemarouter-core[bench]'")
