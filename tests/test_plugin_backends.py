"""Understand backends, commands and recordings come from plugins: register_understanders, register_commands
and register_recordings."""

from __future__ import annotations

from pathlib import Path

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


def test_hook_register_recordings(tmp_path: Path) -> None:
    from schemarouter.execution.offline import recording_folders
    from schemarouter.packaged import PackagedSource

    folder = tmp_path / "shipped"
    folder.mkdir()

    class Recordings:
        @hookimpl
        def register_recordings(self, register):  # type: ignore[no-untyped-def]
            register("lab", folder)

    pm = make_plugin_manager(load_entrypoints=False, extra=[Recordings()])
    assert recording_folders(pm=pm) == {"lab": folder}
    # a folder the user names wins over what plugins ship: its sub-folders by source id
    (tmp_path / "mine" / "lab").mkdir(parents=True)
    assert recording_folders(tmp_path / "mine", pm=pm) == {"": tmp_path / "mine", "lab": tmp_path / "mine" / "lab"}
    # a packaged source registers the recordings/ beside its declaration, and only when it has them
    source_file = tmp_path / "pkg" / "source.yaml"
    source_file.parent.mkdir()
    source_file.write_text("id: lab\ntitle: Lab\n")
    assert not hasattr(PackagedSource("pkg", source_file), "register_recordings")
    (tmp_path / "pkg" / "recordings").mkdir()
    packaged = PackagedSource("pkg", source_file)
    packaged._source_id = "lab"  # the declaration itself is not read for this
    found: dict[str, Path] = {}
    packaged.register_recordings(register=lambda sid, where: found.__setitem__(sid, where))
    assert found == {"lab": tmp_path / "pkg" / "recordings"}


def test_every_first_party_plugin_ships_its_recordings() -> None:
    from schemarouter.execution.offline import recording_folders

    folders = recording_folders()
    assert len(folders) >= 19
    for source_id, folder in folders.items():
        assert folder.is_dir() and any(folder.glob("*.yaml")), source_id
        assert folder.name == "recordings" and (folder.parent / "source.yaml").is_file()
