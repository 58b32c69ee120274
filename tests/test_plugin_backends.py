"""Understand backends and commands are plugins: the register_understanders and register_commands hooks."""

from __future__ import annotations

import click
import pytest

from schemarouter import hookimpl
from schemarouter.cli import plugin_commands
from schemarouter.errors import SchemaRouterError
from schemarouter.graph import SchemaGraph
from schemarouter.plan import Understanding
from schemarouter.plugins import make_plugin_manager
from schemarouter.router import Router
from schemarouter.understand import make_understander, understanders
from schemarouter.understand.base import Analysis
from schemarouter.understand.pipeline import Backend
from tests.routing_support import graph, routing_db  # noqa: F401


class NamedSources(Backend):
    """The docs' worked example: the sources a question names by title, nothing else."""

    name = "named-sources"

    def read(self, question: str, graph: SchemaGraph) -> Analysis:
        words = question.lower()
        named = [sid for sid, source in graph.sources.items() if source.title.lower() in words]
        return Analysis(question=question, understanding=Understanding(named_tools=named))


class BackendPlugin:
    @hookimpl
    def register_understanders(self, register):  # type: ignore[no-untyped-def]
        register("named-sources", lambda **options: NamedSources())


def test_hook_register_understanders(graph: SchemaGraph) -> None:
    pm = make_plugin_manager(load_entrypoints=False, extra=[BackendPlugin()])
    assert {"rules", "llm", "named-sources"} <= set(understanders(pm))
    backend = make_understander("named-sources", pm=pm)
    analysis = backend.understand("PubChem: molecular weight of aspirin", graph)
    # the backend decided the named source; the pipeline added the shared reading after it
    assert analysis.understanding.named_tools == ["pubchem"]
    assert "aspirin" in analysis.all_terms and analysis.terms
    plan = Router(graph, backend).plan("PubChem: molecular weight of aspirin")
    assert plan.steps and {s.source for s in plan.steps} == {"pubchem"}


def test_an_unknown_or_twice_registered_understander_is_one_clear_error() -> None:
    pm = make_plugin_manager(load_entrypoints=False, extra=[BackendPlugin()])
    with pytest.raises(SchemaRouterError, match="unknown understander 'nope'; choose from: llm, named-sources, rules"):
        make_understander("nope", pm=pm)

    class Again:
        @hookimpl
        def register_understanders(self, register):  # type: ignore[no-untyped-def]
            register("rules", lambda **options: NamedSources())

    twice = make_plugin_manager(load_entrypoints=False, extra=[Again()])
    with pytest.raises(SchemaRouterError, match="understander 'rules' is registered by both"):
        understanders(twice)


@click.command("hello")
def hello() -> None:
    """Say hello."""
    click.echo("hello")


class CommandPlugin:
    @hookimpl
    def register_commands(self, register):  # type: ignore[no-untyped-def]
        register(hello)


def test_hook_register_commands() -> None:
    pm = make_plugin_manager(load_entrypoints=False, extra=[CommandPlugin()])
    assert plugin_commands(["run", "plan"], pm) == {"hello": hello}
    with pytest.raises(SchemaRouterError, match="registers command 'hello', which is already taken"):
        plugin_commands(["hello"], pm)

    class NotACommand:
        @hookimpl
        def register_commands(self, register):  # type: ignore[no-untyped-def]
            register(print)

    with pytest.raises(SchemaRouterError, match=r"not a named click\.Command"):
        plugin_commands([], make_plugin_manager(load_entrypoints=False, extra=[NotACommand()]))
