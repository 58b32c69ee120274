"""Find adapters: the ``register_adapters`` plugin hook, collected into one dict.

A source with no registered adapter can still run through :class:`HttpJsonAdapter` when the
caller supplies an AdapterSpec for it (user sources added with the private-sources feature).
"""

from __future__ import annotations

from typing import Any

from schemarouter.errors import SchemaRouterError
from schemarouter.execution.adapter import Adapter
from schemarouter.plugins import PluginManager, make_plugin_manager


def collect_adapters(pm: PluginManager | None = None) -> dict[str, Adapter]:
    """Every adapter the installed plugins register, by source id; two for one source is an error."""
    pm = pm or make_plugin_manager()
    found: dict[str, Adapter] = {}
    owners: dict[str, str] = {}
    hook = pm.hook.register_adapters
    for impl in hook.get_hookimpls():

        def register(source_id: str, adapter: Any, _plugin: str = impl.plugin_name) -> None:
            if not callable(getattr(adapter, "fetch", None)):
                raise SchemaRouterError(
                    f"plugin {_plugin} registered an adapter for {source_id!r} without an async fetch(call)"
                )
            if source_id in found:
                raise SchemaRouterError(
                    f"two plugins register an adapter for {source_id!r}: {owners[source_id]} and {_plugin}"
                )
            found[source_id] = adapter
            owners[source_id] = _plugin

        impl.function(register=register)
    return found
