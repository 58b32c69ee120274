"""The layers of docs/architecture.md are the layers of the code: every import points down, and no
module imports itself back through others. Computed from the source (the AST), so a new import
that breaks either fails here, naming the modules.

An import under ``if TYPE_CHECKING:`` is for annotations only and is no arrow; an import inside a
function is one (it runs), so it cannot hide a circle either.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "schemarouter"

# Bottom to top, as docs/architecture.md draws them; the first pattern a module matches places it.
LAYERS: list[tuple[str, str]] = [
    ("shared", r"schemarouter(\.(errors|models|plan|hookspecs|config|safeload|prefilter|field_paths|unit_names|tokens|memos|llm|gcpause))?"),
    ("declarations", r"schemarouter\.(declarations|plugins|packaged|sources|default_plugins|openapi)(\..+)?"),
    ("registry", r"schemarouter\.registry(\..+)?"),
    ("graph", r"schemarouter\.graph(\..+)?"),
    ("execution", r"schemarouter\.(execution|checks|mcpimport|sqlsource)(\..+)?"),
    ("understand", r"schemarouter\.understand(\..+)?"),
    ("router", r"schemarouter\.router(\..+)?"),
    ("api", r"schemarouter\.(api|adapters|scaffold|testing)(\..+)?"),
    ("front ends", r"schemarouter\.(service|cli|__main__)(\..+)?"),
]


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        if "db_migrations" in path.parts:  # alembic scripts, run by alembic, never imported
            continue
        parts = path.relative_to(REPO).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(name: str, path: Path) -> set[str]:
    """The package's modules ``name`` imports (at import time or in a function), not for typing only."""
    found: set[str] = set()

    def visit(node: ast.AST, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            only = typing_only or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
            targets: list[str] = []
            if isinstance(child, ast.Import) and not only:
                targets = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom) and not only:
                base = child.module or ""
                if child.level:
                    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                    base = ".".join(package[: len(package) - child.level + 1] + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in child.names]
            for target in targets:
                resolved = _resolve(target) if target.startswith("schemarouter") else None
                if resolved and resolved != name:
                    found.add(resolved)
            visit(child, only)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _layer(name: str) -> int:
    for index, (_label, pattern) in enumerate(LAYERS):
        if re.fullmatch(pattern, name):
            return index
    raise AssertionError(f"{name} is in no layer: place it in docs/architecture.md and in LAYERS here")


def test_every_module_has_a_layer() -> None:
    for name in MODULES:
        _layer(name)


def _upward(graph: dict[str, set[str]]) -> list[str]:
    return [
        f"{name} ({LAYERS[_layer(name)][0]}) imports {target} ({LAYERS[_layer(target)][0]})"
        for name, targets in sorted(graph.items()) for target in sorted(targets)
        if name != "schemarouter" and _layer(target) > _layer(name)
    ]


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            connect(name)
    return circles


def test_imports_only_point_down() -> None:
    upward = _upward(GRAPH)
    assert not upward, "imports that point up a layer:\n" + "\n".join(upward)


def test_no_module_imports_itself_back() -> None:
    assert not _circles(GRAPH), f"import circles: {_circles(GRAPH)}"


def test_the_runtime_package_never_imports_the_benchmark() -> None:
    importing = [name for name, path in MODULES.items()
                 if re.search(r"^\s*(from|import)\s+schemarouter_bench\b", path.read_text(encoding="utf-8"), re.MULTILINE)]
    assert importing == []


def test_the_checks_see_an_upward_import_and_a_circle() -> None:
    """The checks above can fail: the real graph with the executor importing the router's substitutes
    (as its fallbacks once did) has an upward arrow, and a circle through what they import."""
    graph = {name: set(targets) for name, targets in GRAPH.items()}
    graph["schemarouter.execution.executor"].add("schemarouter.router.substitutes")
    assert _upward(graph) == ["schemarouter.execution.executor (execution) imports schemarouter.router.substitutes (router)"]
    assert _circles(graph) == []  # an upward arrow alone is no circle
    graph["schemarouter.router.substitutes"].add("schemarouter.execution.executor")
    assert _circles(graph) == [["schemarouter.execution.executor", "schemarouter.router.substitutes"]]
