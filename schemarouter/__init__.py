"""schemarouter: field-aware tool routing for agentic RAG over scientific data sources.

The public API (nothing else is needed from a notebook): ``schemarouter.run(question)``;
``schemarouter.Router`` (``from_registry``, ``plan``, ``run``); the typed results
``Plan``, ``Coverage``, ``RunResult``, ``StepResult``, ``Value``; ``StepCache``; ``hookimpl`` for
plugins.
"""

from importlib.metadata import PackageNotFoundError, version

from schemarouter.hookspecs import hookimpl

# The distribution the core is published as. The import name stays ``schemarouter``, but the
# distribution name ``schemarouter`` belongs to another project on the public index, so plugins
# depend on this one (docs/plugin_hooks.md, "Depending on the core").
DISTRIBUTION = "schemarouter-core"

try:
    __version__ = version(DISTRIBUTION)
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

# How every request schemarouter makes (to a source or an LLM endpoint) introduces itself.
USER_AGENT = f"schemarouter/{__version__} (+https://github.com/schemarouter/schemarouter)"

__all__ = [
    "DISTRIBUTION", "Coverage", "Plan", "Router", "RunResult", "StepCache", "StepResult", "Value", "__version__",
    "hookimpl", "run",
]

# Imported on first use: the router pulls in the registry and graph, the executor httpx and vcrpy.
_LAZY = {
    "Router": "schemarouter.api",
    "run": "schemarouter.api",
    "Plan": "schemarouter.plan",
    "Coverage": "schemarouter.plan",
    "RunResult": "schemarouter.execution.results",
    "StepResult": "schemarouter.execution.results",
    "Value": "schemarouter.execution.results",
    "StepCache": "schemarouter.execution.cache",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'schemarouter' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(module), name)
