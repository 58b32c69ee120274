"""The generic adapters local sources run through, by the ``protocol`` of their adapter specs.

A plugin source brings its own adapter (``register_adapters``); a local source (a YAML file, an
imported OpenAPI document, database or MCP server) is run by the generic adapter of its protocol,
made from its stored specs. Each is named here by module, imported only when a source of that
protocol runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import TYPE_CHECKING

from schemarouter.execution.errors import InvalidStep

if TYPE_CHECKING:
    from schemarouter.execution.adapter import Adapter
    from schemarouter.sources.spec import AdapterSpec

# protocol -> "module:class" of its adapter, built as ``cls(specs)`` from endpoint id -> spec
PROTOCOLS: dict[str, str] = {
    "http": "schemarouter.execution.httpjson:HttpJsonAdapter",
    "mcp": "schemarouter.execution.mcp:McpAdapter",
    "sql": "schemarouter.execution.sql:SqlAdapter",
}


def protocol_adapter(protocol: str, specs: Mapping[str, AdapterSpec]) -> Adapter:
    """The generic adapter of ``protocol`` for one source's endpoint specs."""
    target = PROTOCOLS.get(protocol)
    if target is None:
        raise InvalidStep(f"no adapter runs protocol {protocol!r} (known: {', '.join(sorted(PROTOCOLS))})")
    module, _, name = target.partition(":")
    adapter: Adapter = getattr(import_module(module), name)(dict(specs))
    return adapter
