"""A cold start of a large registry reads its sources a batch at a time and builds the graph as it
goes, spilling each batch's declarations once the graph has what it needs of them: the graph plans
exactly as one built from the whole read, and holds no batch live."""

from __future__ import annotations

from pathlib import Path

import pytest
from schemarouter_bench.dataset import load_queries
from schemarouter_bench.synth import synthesize

from schemarouter.declarations import Declarations, collect
from schemarouter.graph import build as graph_build
from schemarouter.graph import build_graph, build_graph_in_batches, cache, persist
from schemarouter.graph.build import SchemaGraph
from schemarouter.graph.cache import build_from_registry
from schemarouter.graph.shelf import SourceShelf
from schemarouter.plugins import make_plugin_manager
from schemarouter.registry import Registry
from schemarouter.registry import batches as registry_batches
from schemarouter.router import Router

SOURCES = 60
BATCH = 7  # sources per batch: several batches, the last one short


def _questions() -> list[str]:
    queries = load_queries()
    return [q.query for q in queries[:: max(1, len(queries) // 30)]]


def _shelf(graph: SchemaGraph) -> SourceShelf:
    shelf = graph.decls.sources
    assert isinstance(shelf, SourceShelf)
    return shelf


def _plans(graph: SchemaGraph) -> list[str]:
    router = Router(graph)
    return [router.plan(q).model_dump_json(exclude={"registry_fingerprint"}) for q in _questions()]


@pytest.fixture(scope="module")
def synthetic() -> Declarations:
    return synthesize(collect(make_plugin_manager()), SOURCES)


def _registry(url: str, decls: Declarations) -> Registry:
    registry = Registry.open(url)
    registry.sync(decls)
    return registry


def test_a_graph_built_in_batches_is_the_graph_of_the_whole_read(any_url: str, synthetic: Declarations,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # phrases go to columns every few hundred terms, as a large registry's do every 250,000
    monkeypatch.setattr(graph_build, "PHRASES_COMPACTED_AT", 300)
    registry = _registry(any_url, synthetic)
    try:
        whole = build_graph(registry.load(), registry.fingerprint())
        with registry.batches(BATCH) as batches:
            assert len(batches) == SOURCES and batches.size == BATCH
            batched = build_graph_in_batches(batches)
    finally:
        registry.close()
    assert batched.fingerprint == whole.fingerprint == registry.fingerprint()
    assert list(batched.endpoints) == list(whole.endpoints)
    assert list(batched.decls.sources) == list(whole.decls.sources)
    assert batched.decls.owners == whole.decls.owners
    # the indexes made of what every declaration says, term by term and link by link
    assert batched.lexical.keys == whole.lexical.keys
    assert batched.lexical.idf == whole.lexical.idf
    assert {t: (list(a), list(f)) for t, (a, f) in batched.lexical.postings.items()} == \
        {t: (list(a), list(f)) for t, (a, f) in whole.lexical.postings.items()}
    assert batched.links == whole.links
    assert {i: [g.keys for g in gs] for i, gs in batched.intent_order.items()} == \
        {i: [g.keys for g in gs] for i, gs in whole.intent_order.items()}
    assert batched.concept_intent_counts == whole.concept_intent_counts
    assert [(r.concept, r.integer) for r in batched.value_readers] == [(r.concept, r.integer) for r in whole.value_readers]
    assert list(batched.source_auths()) == list(whole.source_auths())
    # kept as sorted columns in the batched graph, as term objects in the other: the same terms
    assert batched.phrases._columns is not None and not whole.phrases._columns
    assert batched.phrases.__getstate__() == whole.phrases.__getstate__()
    assert batched.source_by_alias == whole.source_by_alias
    assert _aliases(batched) == _aliases(whole)
    assert _plans(batched) == _plans(whole)


def _aliases(graph: SchemaGraph) -> dict[str, list[str]]:
    return {alias: [repr(f) for f in (found if isinstance(found, list) else [found])]
            for alias, found in graph.index.fields_by_alias.items()}


def test_intent_counts_are_every_field_counted_once_per_intent_that_wants_its_group(synthetic: Declarations) -> None:
    graph = build_graph(synthetic, None)
    wants = {name: set(intent.field_groups) for name, intent in synthetic.intents.items()}
    expected: dict[str, tuple[int, dict[str, int]]] = {}
    for source in sorted(synthetic.sources.values(), key=lambda s: s.id):
        for endpoint in source.endpoints:
            for f in endpoint.fields:
                for concept in f.concepts:
                    fields, per_intent = expected.get(concept, (0, {}))
                    for intent in endpoint.intents:
                        if f.group in wants.get(intent, ()):
                            per_intent[intent] = per_intent.get(intent, 0) + 1
                    expected[concept] = (fields + 1, per_intent)
    assert graph.concept_intent_counts == {c: (n, tuple(per.items())) for c, (n, per) in expected.items()}
    # equal counts are one object
    counts = list(graph.concept_intent_counts.values())
    assert len({id(c) for c in counts}) == len(set(counts))


def test_no_batch_stays_live_and_each_source_reads_back_whole(sqlite_url: str, synthetic: Declarations) -> None:
    registry = _registry(sqlite_url, synthetic)
    try:
        with registry.batches(BATCH) as batches:
            graph = build_graph_in_batches(batches)
        shelf = _shelf(graph)
        assert shelf.loaded() == 0  # every source spilled: the build holds none of them
        first = next(iter(graph.endpoints.values()))
        # read back from the spill on first use, equal to what the registry holds
        source, _owner = registry.source(first.key.source)
        assert first.source == source
        assert first.endpoint == next(e for e in source.endpoints if e.id == first.key.endpoint)
        assert shelf.loaded() == 1
        for f in first.fields.values():
            assert f.field == next(x for x in first.endpoint.fields if x.name == f.name)
    finally:
        registry.close()


def test_a_graph_built_in_batches_goes_to_its_cache_file_and_back(tmp_path: Path, synthetic: Declarations) -> None:
    registry = _registry(f"sqlite:///{tmp_path / 'registry.db'}", synthetic)
    try:
        with registry.batches(BATCH) as batches:
            graph = build_graph_in_batches(batches)
    finally:
        registry.close()
    path = tmp_path / "registry.db.graph"
    assert persist.write(path, graph)
    assert _shelf(graph).loaded() == 0  # the file took the spilled pickles as they are
    read = persist.read(path, graph.fingerprint or "")
    assert read is not None
    assert _plans(read) == _plans(graph)


def test_a_cold_start_builds_in_batches_only_past_its_threshold(sqlite_url: str, synthetic: Declarations,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    registry = _registry(sqlite_url, synthetic)
    try:
        monkeypatch.setattr(registry_batches, "BATCH_SOURCES", BATCH)
        monkeypatch.setattr(cache, "BATCHED_ABOVE_SOURCES", SOURCES)  # not past it: read whole, kept live
        whole, _read_s = build_from_registry(registry)
        assert _shelf(whole).loaded() == SOURCES
        monkeypatch.setattr(cache, "BATCHED_ABOVE_SOURCES", SOURCES - 1)
        batched, read_s = build_from_registry(registry)
        assert _shelf(batched).loaded() == 0
        assert read_s > 0
        monkeypatch.setenv("SCHEMAROUTER_DENSE", "1")  # embedding every endpoint reads every declaration
        dense, _read_s = build_from_registry(registry)
        assert _shelf(dense).loaded() == SOURCES
    finally:
        registry.close()
    assert _plans(batched) == _plans(whole)


def test_a_shelf_settles_only_on_the_sources_it_was_given() -> None:
    shelf = SourceShelf()
    for source in list(collect(make_plugin_manager()).sources.values())[:2]:
        shelf.add(source)
    with pytest.raises(ValueError, match="every source added"):
        shelf.settle(["not-a-source"])


def test_a_cold_start_that_cannot_spill_reads_the_registry_whole(sqlite_url: str, synthetic: Declarations,
                                                                monkeypatch: pytest.MonkeyPatch,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    registry = _registry(sqlite_url, synthetic)

    class FullDisk:
        def __init__(self) -> None:
            raise OSError(28, "No space left on device")

    try:
        monkeypatch.setattr(registry_batches, "BATCH_SOURCES", BATCH)
        monkeypatch.setattr(cache, "BATCHED_ABOVE_SOURCES", 1)
        expected = _plans(build_graph(registry.load(), registry.fingerprint()))
        monkeypatch.setattr(graph_build, "Spill", FullDisk)
        with caplog.at_level("WARNING", logger="schemarouter.graph.cache"):
            graph, _read_s = build_from_registry(registry)
    finally:
        registry.close()
    assert "No space left on device" in caplog.text and "reading the registry whole" in caplog.text
    assert _shelf(graph).loaded() == SOURCES and graph.fingerprint is not None
    assert _plans(graph) == expected
