"""Find adapters: the ``register_adapters`` plugin hook, collected into one dict.

A source with no registered adapter can still run through :class:`HttpJsonAdapter` when the
caller supplies an AdapterSpec for it (user sources added with the private-sources feature).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from schemarouter.declarations import describe_validation_error
from schemarouter.errors import SchemaRouterError
from schemarouter.execution.adapter import Adapter, FetchResult, StepCall
from schemarouter.execution.errors import InvalidStep
from schemarouter.execution.protocols import protocol_adapter
from schemarouter.plugins import PluginManager, plugin_manager
from schemarouter.sources.spec import AdapterSpec


def collect_adapters(pm: PluginManager | None = None) -> dict[str, Adapter]:
    """Every adapter the installed plugins register, by source id; two for one source is an error."""
    pm = pm or plugin_manager()
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


class _BrokenSpecs:
    """Stands in for a local source whose stored adapter specs do not validate: its steps fail, alone."""

    auth_required = False

    def __init__(self, message: str) -> None:
        self.message = message

    async def fetch(self, call: StepCall) -> FetchResult:
        raise InvalidStep(self.message)


def stored_adapters(adapter_specs: Mapping[str, Mapping[str, Any]]) -> dict[str, Adapter]:
    """HttpJsonAdapters for local sources from their stored specs (source id -> endpoint id -> JSON).

    A registry written before specs were validated on import may hold an invalid one; that
    source's steps then fail with a one-line error and every other source still runs.
    """
    adapters: dict[str, Adapter] = {}
    for source_id, by_endpoint in adapter_specs.items():
        try:
            specs = {eid: AdapterSpec.model_validate(raw) for eid, raw in by_endpoint.items()}
        except ValidationError as exc:
            adapters[source_id] = _BrokenSpecs(
                f"{source_id}: its stored adapter spec is invalid ({describe_validation_error(exc)}); "
                f"re-add the source: schemarouter source add FILE"
            )
            continue
        protocols = {spec.protocol for spec in specs.values()} or {"http"}
        if len(protocols) > 1:
            adapters[source_id] = _BrokenSpecs(f"{source_id}: its endpoints mix protocols ({', '.join(sorted(protocols))})")
            continue
        try:
            adapters[source_id] = protocol_adapter(protocols.pop(), specs)
        except InvalidStep as exc:
            adapters[source_id] = _BrokenSpecs(str(exc))
    return adapters
