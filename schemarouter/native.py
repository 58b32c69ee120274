"""The routing hot path compiled to C with mypyc, where it was built; the same Python source otherwise.

Planning a question is Python that mostly looks things up in dicts and sets, and its profile is flat:
what is left after the algorithmic work is the interpreter's own overhead, spread over every line.
mypyc, the compiler that ships with mypy (the type checker this project already runs in strict mode),
compiles these type-annotated modules to C extensions as they are, without a line changed for it:
about 40 % fewer instructions per plan and a third fewer per graph build, and the same plans (a test
compares a compiled and a pure run). It was chosen over Cython because it needs no second dialect and no
annotations beyond the type hints the code already carries.

``make setup`` builds the modules in place, beside their sources, into one shared library
(``schemarouter native build``; ``status`` and ``clean`` too), and writes a manifest of the
sources it compiled. The ``.py`` files stay the only source: importing :mod:`schemarouter` calls
:func:`activate`, and when any source differs from what was compiled (an edit, a checkout) or
``SCHEMAROUTER_PURE=1`` is set, every listed module is imported from its source instead, all of them
or none, since compiled modules call one another directly. Nothing but speed depends on it: without
a C compiler the package is the same pure Python.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

PACKAGE_DIR = Path(__file__).resolve().parent
ROOT = PACKAGE_DIR.parent  # the directory holding the package: module paths are relative to it
GROUP = "schemarouter.native"  # the shared library is the module ``schemarouter.native__mypyc``
MANIFEST_NAME = "native_build.json"
PURE_ENV = "SCHEMAROUTER_PURE"
BUILD_DIR = "build/native"

# What planning and building a graph run through. Not compiled: what waits on the network or the
# registry (the LLM understander, caches, export), and what pydantic models define.
MODULES = (
    "schemarouter.coverage",
    "schemarouter.graph.build",
    "schemarouter.graph.index",
    "schemarouter.graph.lexical",
    "schemarouter.graph.links",
    "schemarouter.graph.order",
    "schemarouter.graph.phrases",
    "schemarouter.graph.records",
    "schemarouter.graph.shares",
    "schemarouter.graph.terms",
    "schemarouter.graph.text",
    "schemarouter.prefilter",
    "schemarouter.router.chains",
    "schemarouter.router.core",
    "schemarouter.router.matching",
    "schemarouter.router.numbers",
    "schemarouter.router.open_route",
    "schemarouter.router.param_facts",
    "schemarouter.router.params",
    "schemarouter.router.question_facts",
    "schemarouter.router.ranking",
    "schemarouter.router.values",
    "schemarouter.understand.actions",
    "schemarouter.understand.base",
    "schemarouter.understand.bounds",
    "schemarouter.understand.chemistry",
    "schemarouter.understand.entities",
    "schemarouter.understand.evidence",
    "schemarouter.understand.names",
    "schemarouter.understand.params",
    "schemarouter.understand.reading",
    "schemarouter.understand.rules",
    "schemarouter.understand.wording",
)


@dataclass(frozen=True)
class NativeState:
    """Whether the listed modules run compiled in this process, and why not where they do not."""

    compiled: bool
    reason: str  # what a user reads: "compiled with mypyc 1.x (31 modules)" or why they are pure Python
    built: bool = True  # whether any compiled module lies beside its source (else nothing is to be kept out)

    def __str__(self) -> str:
        return self.reason


def source_path(module: str, root: Path = ROOT) -> Path:
    """The ``.py`` file of a listed module."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def extension_paths(module: str, root: Path = ROOT) -> list[Path]:
    """The compiled files a build leaves beside a module's source (any Python's suffix)."""
    source = source_path(module, root)
    return sorted(source.parent.glob(f"{source.stem}.*{_platform_tail()}"))


def _platform_tail() -> str:
    # ".so" or ".pyd": every suffix of extension modules ends with one of these
    return ".pyd" if sys.platform == "win32" else ".so"


def _extension(module: str, root: Path) -> Path:
    """The compiled file this interpreter would import for ``module``."""
    return source_path(module, root).with_suffix(importlib.machinery.EXTENSION_SUFFIXES[0])


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def inspect(root: Path = ROOT, environ: dict[str, str] | None = None) -> NativeState:
    """Whether the compiled modules under ``root`` may run: built for this interpreter, every one of
    them, from sources that are still what is on disk."""
    env = os.environ if environ is None else environ
    built = [m for m in MODULES if _extension(m, root).is_file()]
    if not built:
        return NativeState(False, "pure Python (not compiled: schemarouter native build)", built=False)
    if env.get(PURE_ENV, "") not in ("", "0"):
        return NativeState(False, f"pure Python ({PURE_ENV} is set)")
    try:
        manifest = json.loads((root / "schemarouter" / MANIFEST_NAME).read_text(encoding="utf-8"))
        sources: dict[str, str] = manifest["sources"]
        version = str(manifest["mypyc"])
    except (OSError, ValueError, KeyError, TypeError):
        return NativeState(False, "pure Python (the compiled modules have no readable build manifest)")
    missing = [m for m in MODULES if m not in built or m not in sources]
    if missing:
        return NativeState(False, f"pure Python ({missing[0]} was not compiled)")
    for module in MODULES:
        path = source_path(module, root)
        if not path.is_file() or _digest(path) != sources[module]:
            return NativeState(False, f"pure Python ({module} changed since it was compiled)")
    return NativeState(True, f"compiled with mypyc {version} ({len(MODULES)} modules)")


class _FromSource(importlib.abc.MetaPathFinder):
    """Imports the listed modules from their ``.py`` files, ahead of the compiled ones beside them."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None,
                  ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names or not path:
            return None
        for entry in path:
            source = Path(entry) / f"{fullname.rpartition('.')[2]}.py"
            if source.is_file():
                return importlib.util.spec_from_file_location(fullname, source)
        return None


_STATE: NativeState | None = None


def activate() -> NativeState:
    """Decide once per process whether the compiled modules run; when not, import them from source.

    Called by ``schemarouter/__init__.py`` before any listed module can be imported."""
    global _STATE
    if _STATE is None:
        _STATE = inspect()
        if not _STATE.compiled and _STATE.built and not any(isinstance(f, _FromSource) for f in sys.meta_path):
            sys.meta_path.insert(0, _FromSource(frozenset(MODULES)))
    return _STATE


def state() -> NativeState:
    """This process's :class:`NativeState` (what :func:`activate` decided)."""
    return activate()


def clean(root: Path = ROOT) -> list[Path]:
    """Remove what a build left in the source tree (compiled files, manifest, C sources); what went."""
    removed: list[Path] = []
    candidates = [p for m in MODULES for p in extension_paths(m, root)]
    candidates += sorted((root / "schemarouter").glob(f"native__mypyc.*{_platform_tail()}"))
    candidates.append(root / "schemarouter" / MANIFEST_NAME)
    for path in candidates:
        if path.is_file():
            path.unlink()
            removed.append(path)
    if (root / BUILD_DIR).is_dir():
        shutil.rmtree(root / BUILD_DIR)
        removed.append(root / BUILD_DIR)
    return removed


def build(root: Path = ROOT, opt_level: str = "3") -> NativeState:
    """Compile the listed modules in place under ``root`` and write the manifest of their sources.

    Needs mypy (the ``dev`` extra) and a C compiler; raises what setuptools or mypyc raise when
    either fails, leaving no manifest, so the package stays pure Python."""
    from mypy.version import __version__ as mypyc_version  # mypyc is released with mypy
    from mypyc.build import mypycify
    from setuptools import setup

    clean(root)
    files = [str(source_path(m, root).relative_to(root)) for m in MODULES]
    digests = {m: _digest(source_path(m, root)) for m in MODULES}  # what is compiled, read before it is
    here = Path.cwd()
    os.chdir(root)  # mypyc names modules by their paths relative to the working directory
    try:
        # no project configuration: strictness is the type check's business (mypy runs in CI), and
        # the libraries without type information are imported as they are
        extensions = mypycify(["--config-file=", "--ignore-missing-imports", *files], opt_level=opt_level,
                              group_name=GROUP, target_dir=BUILD_DIR)
        setup(name="schemarouter-native", ext_modules=extensions, py_modules=[], packages=[],
              script_args=["-q", "build_ext", "--inplace", "--build-temp", f"{BUILD_DIR}/temp"])
    finally:
        os.chdir(here)
    manifest = {"mypyc": mypyc_version, "python": sys.version.split()[0], "sources": digests}
    (root / "schemarouter" / MANIFEST_NAME).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return inspect(root)
