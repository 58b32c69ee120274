"""The schema graph: typed nodes/edges from the registry, indexes, cache, exporters, CLI."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from schemarouter.cli import cli
from schemarouter.graph import EdgeKind, NodeKind, SchemaGraph, build_graph, load_graph
from schemarouter.graph.export import to_dot, to_graphml, to_json
from schemarouter.graph.text import chunks, humanize, normalize
from schemarouter.registry import Registry
from tests.routing_support import graph, routing_db  # noqa: F401 (fixtures)


def test_every_declared_thing_is_a_typed_node(graph: SchemaGraph) -> None:
    kinds = {n.kind for n in graph.nodes.values()}
    assert kinds == set(NodeKind)
    n_fields = sum(len(ep.fields) for s in graph.sources.values() for ep in s.endpoints)
    assert sum(1 for n in graph.nodes.values() if n.kind is NodeKind.ResponseField) == n_fields
    assert {e.kind for e in graph.edges} == set(EdgeKind)


def test_edges_connect_fields_to_units_groups_concepts(graph: SchemaGraph) -> None:
    out = {(e.kind, e.target) for e in graph.edges if e.source == "field:materials_project/summary/band_gap"}
    assert (EdgeKind.HAS_UNIT, "unit:eV") in out
    assert (EdgeKind.IN_GROUP, "group:electronic") in out
    assert (EdgeKind.MAPS_TO_CONCEPT, "concept:band_gap") in out
    assert (EdgeKind.HAS_SOURCE_TYPE, "source_type:calculated") in out


def test_indexes(graph: SchemaGraph) -> None:
    assert ("materials_project", "band_gap") in {(f.source, f.name) for f in graph.concept_fields["band_gap"]}
    assert graph.resolve_source("Crystallography Open Database") == "cod"
    assert graph.resolve_source("no such thing") is None
    assert ("pubchem", "compound_properties") in graph.intent_endpoints["compound_identification"]
    assert "electronic" in graph.intent_groups("material_property")


def test_field_source_type_override_is_resolved(graph: SchemaGraph) -> None:
    fields = graph.endpoints[("pubchem", "compound_properties")].fields
    assert fields["XLogP"].source_type == "calculated"
    assert graph.endpoints[("pubchem", "experimental_properties")].fields["logp"].source_type == "experimental"
    assert graph.sources["pubchem"].source_type.value == "curated"


def test_humanize_splits_names() -> None:
    assert humanize("HBondDonorCount") == "h bond donor count"
    assert humanize("agl_thermal_conductivity_300K") == "agl thermal conductivity 300 k"
    assert humanize("is-referenced-by-count") == "is referenced by count"
    assert humanize("_id") == "id" and humanize("__") == "" and humanize("x.y") == "x y"


# names as declarations write them, ASCII separators and letters beyond ASCII included
_NAME_TEXT = st.text(st.sampled_from("aZ09_-. /{}\t\u00e9\u00c4\u03bb\u2013"), max_size=30)


@given(_NAME_TEXT)
def test_chunks_are_what_a_split_on_non_alphanumerics_leaves(name: str) -> None:
    import re

    assert chunks(name) == [c for c in re.split(r"[^A-Za-z0-9]+", name) if c]
    assert normalize(name) == " ".join(re.findall(r"[A-Za-z0-9]+", name)).lower()


def test_cache_by_fingerprint(routing_db: str) -> None:
    with Registry.open(routing_db) as reg:
        first, second = load_graph(reg), load_graph(reg)
        assert first is second
        assert first.fingerprint == reg.fingerprint()
    rebuilt = build_graph(first.decls, "other")
    assert rebuilt is not first and rebuilt.fingerprint == "other"


def test_exporters_are_well_formed(graph: SchemaGraph) -> None:
    doc = json.loads(to_json(graph))
    assert len(doc["nodes"]) == len(graph.nodes) and len(doc["edges"]) == len(graph.edges)
    root = ET.fromstring(to_graphml(graph))
    ns = "{http://graphml.graphdrawing.org/xmlns}"
    assert len(root.findall(f"{ns}graph/{ns}node")) == len(graph.nodes)
    dot = to_dot(graph)
    assert dot.startswith("digraph schema {") and dot.count(" -> ") == len(graph.edges)


def test_cli_registry_graph(routing_db: str, tmp_path) -> None:
    out = tmp_path / "g.graphml"
    result = CliRunner().invoke(cli, ["registry", "graph", "--format", "graphml", "--output", str(out), "--db", routing_db])
    assert result.exit_code == 0, result.output
    assert ET.parse(out).getroot().tag.endswith("graphml")
    result = CliRunner().invoke(cli, ["registry", "graph", "--db", routing_db])
    assert json.loads(result.output)["registry_fingerprint"].startswith("sha256:")


def test_a_graph_s_repr_names_it_in_one_short_line(graph: SchemaGraph) -> None:
    # a failing assertion or a log line prints it: spelling out every index takes gigabytes at scale
    shown = repr(graph)
    assert shown == (f"SchemaGraph(fingerprint={graph.fingerprint!r}, sources={len(graph.decls.sources)}, "
                     f"endpoints={len(graph.endpoints)})")
    assert len(shown) < 200
