"""schemarouter: field-aware tool routing for agentic RAG over scientific data sources."""

from importlib.metadata import PackageNotFoundError, version

from schemarouter.hookspecs import hookimpl

try:
    __version__ = version("schemarouter")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = ["hookimpl", "__version__"]
