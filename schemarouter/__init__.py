"""schemarouter: field-aware tool routing for agentic RAG over scientific data sources."""

from importlib.metadata import PackageNotFoundError, version

from schemarouter.hookspecs import hookimpl

try:
    __version__ = version("schemarouter")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = ["Router", "hookimpl", "__version__"]


def __getattr__(name: str) -> object:
    # Router pulls in the registry and graph; import it only when asked for.
    if name == "Router":
        from schemarouter.router import Router

        return Router
    raise AttributeError(f"module 'schemarouter' has no attribute {name!r}")
