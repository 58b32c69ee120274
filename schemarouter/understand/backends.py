"""The two understand backends schemarouter ships, registered like any plugin's: ``rules`` (offline,
the default) and ``llm`` (an OpenAI-compatible chat model). A default plugin of the plugin manager,
so :func:`schemarouter.understand.make_understander` finds them and a plugin's own the same way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from schemarouter.hookspecs import hookimpl
from schemarouter.understand.base import Understander


def _rules(**_options: Any) -> Understander:
    from schemarouter.understand.rules import RulesUnderstander

    return RulesUnderstander()


def _llm(**options: Any) -> Understander:
    from schemarouter.understand.llm import LLMUnderstander

    return LLMUnderstander(**options)


@hookimpl
def register_understanders(register: Callable[[str, Callable[..., Understander]], None]) -> None:
    """``rules`` and ``llm``."""
    register("rules", _rules)
    register("llm", _llm)
