"""The understand step: a question -> intent, concepts, parameter values, named sources and a
provenance constraint. Backends are plugins (the ``register_understanders`` hook); schemarouter ships
``rules`` (default, offline) and ``llm``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from schemarouter.errors import SchemaRouterError
from schemarouter.understand.base import Analysis, Understander

if TYPE_CHECKING:
    from schemarouter.plugins import PluginManager


def understanders(pm: PluginManager | None = None) -> dict[str, Callable[..., Understander]]:
    """Every registered backend's factory, by name (of ``pm``, default the process's plugins); two
    plugins registering one name is an error."""
    from schemarouter.plugins import plugin_manager

    found: dict[str, Callable[..., Understander]] = {}
    owners: dict[str, str] = {}
    hook = (pm or plugin_manager()).hook.register_understanders
    for impl in hook.get_hookimpls():

        def register(name: str, factory: Callable[..., Understander], _plugin: str = impl.plugin_name) -> None:
            if name in owners:
                raise SchemaRouterError(f"understander {name!r} is registered by both {owners[name]} and {_plugin}")
            owners[name] = _plugin
            found[name] = factory

        impl.function(register=register)
    return found


def make_understander(name: str = "rules", *, fallback: bool = False, pm: PluginManager | None = None,
                      **options: Any) -> Understander:
    """The backend registered as ``name`` (``rules``, ``llm``, or a plugin's), made with ``options``;
    ``fallback``: an LLM backend falls back to the rules when its endpoint fails."""
    factories = understanders(pm)
    factory = factories.get(name)
    if factory is None:
        raise SchemaRouterError(f"unknown understander {name!r}; choose from: {', '.join(sorted(factories))}")
    return factory(fallback=fallback, **options)


__all__ = ["Analysis", "Understander", "make_understander", "understanders"]
