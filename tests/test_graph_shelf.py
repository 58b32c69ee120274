"""A graph read back from its cache file unpickles a source's declarations only when a question first
reaches them (graph.shelf), and plans exactly as the graph it was written from."""

from __future__ import annotations

import dataclasses
import os
import pickle
from pathlib import Path

import pytest
from schemarouter_bench.dataset import load_queries
from schemarouter_bench.synth import synthesize

from schemarouter.declarations import collect
from schemarouter.graph import build_graph, persist
from schemarouter.graph.build import SchemaGraph
from schemarouter.graph.shelf import ConceptShelf, ShelfDamaged, SourceShelf
from schemarouter.graph.unpickling import UnpicklingRefused
from schemarouter.memos import Memos
from schemarouter.plugins import make_plugin_manager
from schemarouter.router import Router

SOURCES = 400
FINGERPRINT = "shelf-test"


@pytest.fixture(scope="module")
def built() -> SchemaGraph:
    return build_graph(synthesize(collect(make_plugin_manager()), SOURCES), FINGERPRINT)


def _read_back(graph: SchemaGraph) -> SchemaGraph:
    return persist.decode(persist.encode(graph), FINGERPRINT)


def _questions() -> list[str]:
    queries = load_queries()
    return [q.query for q in queries[:: max(1, len(queries) // 25)]]


def test_a_graph_read_back_reads_no_source_until_a_question_reaches_it(built: SchemaGraph) -> None:
    loaded = _read_back(built)
    shelf = loaded.decls.sources
    assert isinstance(shelf, SourceShelf)
    assert shelf.loaded() == 0
    # what startup reads of every source answers without unpickling one
    assert len(shelf) == SOURCES and list(shelf) == list(built.decls.sources)
    assert all(sid in shelf for sid in built.decls.sources) and "no-such-source" not in shelf
    assert loaded.resolve_source(next(iter(built.decls.sources))) is not None
    assert shelf.loaded() == 0
    router = Router(loaded)
    for question in _questions():
        before = shelf.loaded()
        router.plan(question)
        # a question reads a source only for the declaration of a field or an endpoint it plans, never the
        # registry (anything that walks every declaration, a memo over all endpoints or a scan of every
        # field, reads them all), nor each candidate's (what ranking reads of an endpoint, its parameters,
        # scope and source title, is in its record)
        assert shelf.loaded() - before <= 3, question
    # the vocabulary's concepts are asked by name only
    concepts = loaded.decls.concepts
    assert isinstance(concepts, ConceptShelf) and concepts.loaded() == 0
    assert set(concepts) == set(built.decls.concepts) and all(c in concepts for c in built.decls.concepts)
    some = next(iter(built.decls.concepts))
    assert concepts[some] == built.decls.concepts[some] and concepts.loaded() == len(built.decls.concepts)
    # what many records hold alike is one object, written and read back once
    for alike in (loaded.decls.owners, loaded.concept_intent_counts, loaded.name_intent_counts):
        assert len(set(map(id, alike.values()))) == len(set(alike.values())) < len(alike)


def test_plans_of_a_graph_read_back_equal_the_built_graphs(built: SchemaGraph) -> None:
    fresh, cached = Router(built), Router(_read_back(built))
    for question in _questions():
        assert cached.plan(question).model_dump_json() == fresh.plan(question).model_dump_json(), question


def test_a_source_read_back_is_the_declared_one(built: SchemaGraph) -> None:
    loaded = _read_back(built)
    sid = sorted(built.decls.sources)[-1]
    assert loaded.decls.sources[sid] == built.decls.sources[sid]
    key = next(k for k in loaded.endpoints if k[0] == sid)
    info, original = loaded.endpoints[key], built.endpoints[key]
    assert info.endpoint == original.endpoint and info.source is loaded.decls.sources[sid]
    name = next(iter(info.fields))
    assert info.fields[name].field == original.fields[name].field
    assert (info.access, info.intents, info.path) == (original.endpoint.access, tuple(original.endpoint.intents),
                                                      original.endpoint.path)
    assert loaded.decls.sources.loaded() == 1


class _Boom:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, ("echo owned",))


def test_a_source_pickle_that_would_run_code_is_refused() -> None:
    shelf = SourceShelf(stored={"evil": pickle.dumps(_Boom())}, prose={"evil": ("Evil", "")})
    assert "evil" in shelf and len(shelf) == 1
    with pytest.raises(UnpicklingRefused, match="no graph holds"):
        shelf["evil"]
    with pytest.raises(KeyError):
        shelf["missing"]


def _written(built: SchemaGraph, path: Path) -> SchemaGraph:
    assert persist.write(path, built)
    loaded = persist.read(path, FINGERPRINT)
    assert loaded is not None
    return loaded


def test_sources_come_from_the_file_they_were_loaded_with_even_once_it_is_replaced(
        built: SchemaGraph, tmp_path: Path) -> None:
    path = tmp_path / "registry.db.graph"
    loaded = _written(built, path)
    # another process renames a newer file over it (what every write does): this graph still reads its own
    other = build_graph(synthesize(collect(make_plugin_manager()), 30), "another state")
    assert persist.write(path, other)
    last = sorted(built.decls.sources)[-1]
    assert loaded.decls.sources[last] == built.decls.sources[last]


def test_a_source_changed_in_place_after_loading_is_refused_with_a_clear_error(
        built: SchemaGraph, tmp_path: Path) -> None:
    path = tmp_path / "registry.db.graph"
    loaded = _written(built, path)
    first = next(iter(built.decls.sources))
    data = bytearray(path.read_bytes())
    start = data.index(b"\n", len(persist.MAGIC)) + 1  # the first source's pickle opens the payload
    data[start + 40] ^= 0xFF
    with path.open("r+b") as fh:  # in place: the descriptor the graph keeps sees it
        fh.write(bytes(data))
    with pytest.raises(ShelfDamaged, match="fail their checksum"):
        loaded.decls.sources[first]


def test_a_graph_read_back_pickles_whole_again_outside_a_cache_file(built: SchemaGraph, tmp_path: Path) -> None:
    loaded = _written(built, tmp_path / "registry.db.graph")
    again = pickle.loads(pickle.dumps(loaded))
    last = sorted(built.decls.sources)[-1]
    assert again.decls.sources[last] == built.decls.sources[last]
    assert loaded.decls.sources.loaded() == 0, "pickled from the file's section without unpickling a source"


def test_what_a_run_needs_of_every_source_comes_without_reading_one_back(built: SchemaGraph) -> None:
    from schemarouter.execution.secrets import Secrets

    loaded = _read_back(built)
    env = {auth.env: f"secret-value-of-{auth.env}" for auth in built.source_auths()}
    assert env, "some source of the inventory declares a key"
    assert loaded.source_auths() == built.source_auths()
    expected = Secrets.from_sources(built.decls.sources.values(), env)
    assert Secrets.from_auths(loaded.source_auths(), env) == expected
    assert loaded.decls.sources.loaded() == 0


def test_a_graph_read_back_from_one_file_is_written_whole_to_another(built: SchemaGraph, tmp_path: Path) -> None:
    loaded = _written(built, tmp_path / "first.graph")
    again = _written(loaded, tmp_path / "second.graph")  # its sources copied from the first file's section
    assert loaded.decls.sources.loaded() == 0
    last = sorted(built.decls.sources)[-1]
    assert again.decls.sources[last] == built.decls.sources[last]


def _open_world_questions() -> tuple[SchemaGraph, list[str]]:
    from schemarouter_bench.devset import beside_root, heldout_root, load_dev_questions, load_tmdb_queries
    from schemarouter_bench.frozen import load_frozen
    from schemarouter_bench.openworld import build_open_world

    questions = [q.query for root in (None, heldout_root(), beside_root()) for q in load_dev_questions(root)]
    return build_open_world(load_frozen()).frozen.graph, questions + [q.query for q in load_tmdb_queries()]


def _tool_use_questions(suite: str) -> tuple[SchemaGraph, list[str]]:
    from schemarouter_bench.devset import load_tooluse_questions, metatool_root, toolbench_root
    from schemarouter_bench.frozen import load_frozen
    from schemarouter_bench.openworld import build_tooluse_world

    root = {"tool-use": None, "toolbench": toolbench_root(), "metatool": metatool_root()}[suite]
    return build_tooluse_world(load_frozen(), root).frozen.graph, [q.query for q in load_tooluse_questions(root)]


@pytest.mark.parametrize("suite", ["open world", "tool-use", "toolbench", "metatool"])
def test_every_suite_plans_the_same_from_a_graph_read_back(suite: str) -> None:
    graph, questions = _open_world_questions() if suite == "open world" else _tool_use_questions(suite)
    assert len(questions) > 100
    # every other question of a suite of thousands: a thousand plans still reach its sources, at half
    # the time of the slowest test in the suite
    questions = questions[::2] if len(questions) > 1000 else questions
    # the suite's registry as a cache file would hold it, read back: sources unpickled as questions reach them
    labelled = dataclasses.replace(graph, fingerprint=FINGERPRINT, memos=Memos())  # plans carry it
    fresh, read_back = Router(labelled), Router(persist.decode(persist.encode(labelled), FINGERPRINT))
    for question in questions:
        assert read_back.plan(question).model_dump_json() == fresh.plan(question).model_dump_json(), question
