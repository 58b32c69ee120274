"""The hook specifications: the whole contract between schemarouter and its plugins.

Every hook is register-callback style: schemarouter calls the hook with a ``register``
function and the plugin calls it once per thing it contributes. Plugins implement hooks with
``@schemarouter.hookimpl``. Each hook is documented in ``docs/plugin_hooks.md``; a test fails
when one is not.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pluggy import HookimplMarker, HookspecMarker

from schemarouter.models import DomainConcept, FieldGroup, Intent, Source

hookspec = HookspecMarker("schemarouter")
hookimpl = HookimplMarker("schemarouter")


@hookspec
def register_sources(register: Callable[[Source], None]) -> None:
    """Register data sources: call ``register(source)`` with a :class:`Source` for each.

    A source id may be registered by one plugin only; ``registry sync`` fails naming both
    plugins when two claim the same id.
    """


@hookspec
def register_intents(register: Callable[[Intent], None]) -> None:
    """Register intents (what a question asks for), each with its recall field groups."""


@hookspec
def register_field_groups(register: Callable[[FieldGroup], None]) -> None:
    """Register field groups that response fields and intents refer to."""


@hookspec
def register_concepts(register: Callable[[DomainConcept], None]) -> None:
    """Register domain concepts, or add aliases to concepts another plugin registered."""


@hookspec
def register_understanders(register: Callable[[str, Callable[..., Any]], None]) -> None:
    """Register understand backends: call ``register(name, factory)`` for each.

    ``factory(**options)`` returns an object with a ``name`` and ``understand(question, graph)``
    returning an :class:`~schemarouter.understand.base.Analysis`; subclass
    :class:`schemarouter.understand.pipeline.Backend` and write its ``read``. ``--understander NAME``
    selects it; ``options`` are those the caller passes (``fallback``, and an LLM backend's
    ``base_url`` and ``model``). A name may be registered by one plugin only.
    """


@hookspec
def register_recordings(register: Callable[[str, Path], None]) -> None:
    """Register recorded responses: call ``register(source_id, folder)`` with a folder of VCR cassettes
    (``*.yaml``) that ships inside the plugin's package; ``run --offline`` replays them. A plugin made
    by ``packaged_source`` registers its package's ``recordings/`` folder when it has one."""


@hookspec
def register_commands(register: Callable[[Any], None]) -> None:
    """Register command-line commands: call ``register(command)`` with a ``click.Command`` (or group)
    for each; ``schemarouter COMMAND`` then runs it. A command name may be registered by one plugin
    only, and not one of schemarouter's own. The benchmark adds ``schemarouter bench`` this way."""


@hookspec
def register_adapters(register: Callable[[str, Any], None]) -> None:
    """Register executors: call ``register(source_id, adapter)`` for each source you can fetch.

    ``adapter`` implements :class:`schemarouter.execution.adapter.Adapter`.
    """
