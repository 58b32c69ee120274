"""Identifier kinds are data: a concept declares how its values are written (``patterns``), plugins add
their own records' shapes, the registry keeps them, and the understand step reads values with them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from schemarouter import hookimpl
from schemarouter.declarations import collect
from schemarouter.graph import build_graph
from schemarouter.models import DomainConcept, ValuePattern
from schemarouter.plugins import make_plugin_manager
from schemarouter.registry import Registry
from schemarouter.router import Router
from tests.factories import source_dict

LAB_ID = ValuePattern(regex=r"\b(LAB-\d{4})\b", needs=["LAB-"])
CELL_ID = ValuePattern(regex=r"\b(CELL-\d{4})\b", needs=["CELL-"])


class LabPlugin:
    """A source whose samples are looked up by an id of its own shape (``LAB-0042``)."""

    __name__ = "lab_plugin"

    @hookimpl
    def register_concepts(self, register):  # type: ignore[no-untyped-def]
        register(DomainConcept(name="sample_id", description="A lab sample id.", patterns=[LAB_ID]))
        register(DomainConcept(name="material_id", patterns=[CELL_ID]))  # adds to the vocabulary's concept

    @hookimpl
    def register_sources(self, register):  # type: ignore[no-untyped-def]
        endpoint = source_dict()["endpoints"][0]
        endpoint["parameters"] = [{"name": "sample", "type": "string", "concept": "sample_id", "required": True}]
        register(source_dict(endpoints=[endpoint]))


def test_a_pattern_must_compile_not_match_empty_and_fit_its_needs() -> None:
    with pytest.raises(ValidationError, match="not a valid regular expression"):
        ValuePattern(regex="(unclosed")
    with pytest.raises(ValidationError, match="matches the empty string"):
        ValuePattern(regex=r"\d*")
    with pytest.raises(ValidationError, match="lower case"):
        ValuePattern(regex=r"(?i)\bLAB-\d+", needs=["LAB-"])


def test_patterns_merge_are_stored_and_read_values(tmp_path) -> None:  # type: ignore[no-untyped-def]
    decls = collect(make_plugin_manager(load_entrypoints=False, extra=[LabPlugin()]))
    assert decls.concepts["sample_id"].patterns == [LAB_ID]
    # the vocabulary's own material_id patterns come first, the plugin's is added once
    assert decls.concepts["material_id"].patterns[-1] == CELL_ID
    with Registry.open(f"sqlite:///{tmp_path / 'r.db'}") as registry:
        registry.sync(decls)
        loaded = registry.load()
    assert loaded.concepts["sample_id"].patterns == [LAB_ID]
    graph = build_graph(loaded, loaded.fingerprint)
    assert {"sample_id", "doi", "pmid"} <= graph.identifier_concepts
    plan = Router(graph).plan("What is the band gap of sample LAB-0042?")
    assert [(s.source, s.params) for s in plan.steps] == [("lab_store", {"sample": "LAB-0042"})]
    analysis = Router(graph).understander.understand("band gaps of LAB-0042 and CELL-0007", graph)
    read = [(e.kind, e.value) for e in analysis.entities if e.extra.get("declared")]
    assert read == [("sample_id", "LAB-0042"), ("material_id", "CELL-0007")]


def test_overlapping_values_keep_the_longest() -> None:
    from schemarouter.graph.value_readers import build_value_readers
    from schemarouter.understand.entities import recognize

    readers = build_value_readers(collect(make_plugin_manager(load_entrypoints=False)))
    # an arXiv number inside a DOI is part of the DOI
    found = recognize("see 10.48550/arXiv.2301.12345 for details", readers=readers)
    assert [(e.kind, e.value) for e in found] == [("doi", "10.48550/arXiv.2301.12345")]
