"""The plugin manager: finds plugins through the ``schemarouter`` entry-point group.

Built-in behaviour (the base vocabulary) ships as default plugins registered first, so
first-party and third-party plugins go through exactly the same path.
``SCHEMAROUTER_LOAD_PLUGINS`` (comma list of entry-point or distribution names) restricts which
installed plugins load; set it to an empty string to load none but the defaults.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points

import pluggy

from schemarouter import DISTRIBUTION, hookspecs
from schemarouter.errors import SchemaRouterError

ENTRY_POINT_GROUP = "schemarouter"
LOAD_PLUGINS_ENV = "SCHEMAROUTER_LOAD_PLUGINS"
# the base vocabulary, and the understand backends schemarouter ships (named, not imported: the
# understand layer sits above this module)
DEFAULT_PLUGINS: tuple[str, ...] = ("schemarouter.default_plugins.vocabulary", "schemarouter.understand.backends")


@dataclass(frozen=True)
class PluginInfo:
    """Where a registered plugin came from."""

    name: str
    distribution: str
    version: str
    default: bool = False

    @property
    def label(self) -> str:
        """How errors and listings name the plugin."""
        if self.distribution and self.distribution != self.name:
            return f"{self.name} ({self.distribution} {self.version})"
        return f"{self.name} {self.version}"


class PluginManager(pluggy.PluginManager):
    """pluggy's manager plus the distribution each plugin came from."""

    def __init__(self) -> None:
        super().__init__("schemarouter")
        self.add_hookspecs(hookspecs)
        self.info: dict[str, PluginInfo] = {}

    def add(self, plugin: object, info: PluginInfo) -> None:
        """Register ``plugin``; one that implements no hook is an error (it would add nothing, silently)."""
        if self.get_plugin(info.name) is not None:
            raise SchemaRouterError(f"two plugins are both named {info.name!r}")
        self.register(plugin, name=info.name)
        if not self.get_hookcallers(plugin):
            self.unregister(plugin)
            raise SchemaRouterError(
                f"plugin {info.label} implements no schemarouter hook; if its module makes the plugin "
                f"object (plugin = packaged_source(...)), name that object: 'module:plugin'"
            )
        self.info[info.name] = info

    def plugin_info(self, plugin_name: str) -> PluginInfo:
        """A plugin's name, distribution and version; version ``unknown`` when it was added without them."""
        return self.info.get(plugin_name) or PluginInfo(plugin_name, "", "unknown")


def _core_version() -> str:
    from schemarouter import __version__

    return __version__


def _schemarouter_entry_points() -> list[tuple[EntryPoint, str, str]]:
    # entry_points(group=...) reads each distribution's entry_points.txt and parses the metadata only of
    # the few that have one of ours; walking distributions() parsed every installed package's metadata
    # (a tenth of a second with a few hundred installed), and every command pays this before planning
    found: list[tuple[EntryPoint, str, str]] = []
    seen: set[tuple[str, str]] = set()
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        dist_name, dist_version = (ep.dist.name or "", ep.dist.version) if ep.dist is not None else ("", "unknown")
        if (ep.name, dist_name) in seen:
            continue
        seen.add((ep.name, dist_name))
        found.append((ep, dist_name, dist_version))
    return sorted(found, key=lambda item: item[0].name)


def _selected(candidates: list[tuple[EntryPoint, str, str]]) -> list[tuple[EntryPoint, str, str]]:
    raw = os.environ.get(LOAD_PLUGINS_ENV)
    if raw is None:
        return candidates
    wanted = [name.strip() for name in raw.split(",") if name.strip()]
    chosen: list[tuple[EntryPoint, str, str]] = []
    for name in wanted:
        matches = [c for c in candidates if name in (c[0].name, c[1])]
        if not matches:
            installed = ", ".join(sorted(c[0].name for c in candidates)) or "none"
            raise SchemaRouterError(
                f"{LOAD_PLUGINS_ENV} names {name!r}, which is not an installed schemarouter plugin "
                f"(installed: {installed})"
            )
        chosen.extend(m for m in matches if m not in chosen)
    return chosen


def selected_distributions() -> set[tuple[str, str]]:
    """(distribution, version) of every installed plugin that would load, without importing any."""
    return {(dist_name, version) for _ep, dist_name, version in _selected(_schemarouter_entry_points())}


def make_plugin_manager(*, load_entrypoints: bool = True, extra: list[object] | None = None) -> PluginManager:
    """A manager with the default plugins, installed plugins (optional) and any extras.

    ``extra`` plugins (modules or objects with hookimpls) are registered under their
    ``__name__``; tests and :mod:`schemarouter.testing` use it to check one plugin alone.
    """
    pm = PluginManager()
    version = _core_version()
    for module_name in DEFAULT_PLUGINS:
        module = importlib.import_module(module_name)
        pm.add(module, PluginInfo(module_name, DISTRIBUTION, version, default=True))
    if load_entrypoints:
        for ep, dist_name, dist_version in _selected(_schemarouter_entry_points()):
            try:
                plugin = ep.load()
            except Exception as exc:  # a broken plugin must not hide which one it is
                raise SchemaRouterError(
                    f"plugin {ep.name!r} from {dist_name} {dist_version} failed to load: {exc}"
                ) from exc
            pm.add(plugin, PluginInfo(ep.name, dist_name, dist_version))
    for plugin in extra or []:
        name = getattr(plugin, "__name__", None) or type(plugin).__name__
        pm.add(plugin, PluginInfo(name, "", "local"))
    return pm


_SHARED: dict[str | None, PluginManager] = {}


def plugin_manager() -> PluginManager:
    """The process's manager of the default and installed plugins, built once: reading entry points
    and importing every plugin costs a command more than anything else it does before planning.
    A change of ``SCHEMAROUTER_LOAD_PLUGINS`` gets a manager of its own; :func:`forget_plugins`
    drops them all (after a ``pip install`` within the same process)."""
    selection = os.environ.get(LOAD_PLUGINS_ENV)
    pm = _SHARED.get(selection)
    if pm is None:
        pm = _SHARED[selection] = make_plugin_manager()
    return pm


def forget_plugins() -> None:
    """Drop the shared managers: the next :func:`plugin_manager` scans the entry points again."""
    _SHARED.clear()


@dataclass
class PluginSummary:
    """What one plugin registers, for ``schemarouter plugins``."""

    info: PluginInfo
    hooks: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    intents: list[str] = field(default_factory=list)
    field_groups: list[str] = field(default_factory=list)
    concepts: list[str] = field(default_factory=list)
    adapters: list[str] = field(default_factory=list)
    understanders: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        """The summary as JSON-ready data."""
        return {
            "name": self.info.name,
            "distribution": self.info.distribution,
            "version": self.info.version,
            "default": self.info.default,
            "hooks": self.hooks,
            "sources": self.sources,
            "intents": self.intents,
            "field_groups": self.field_groups,
            "concepts": self.concepts,
            "adapters": self.adapters,
            "understanders": self.understanders,
            "commands": self.commands,
        }
