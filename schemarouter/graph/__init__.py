"""The schema graph (tools, endpoints, parameters, fields, concepts, units, provenance, licenses)."""

from schemarouter.graph.build import SchemaGraph, build_graph, build_graph_in_batches
from schemarouter.graph.cache import clear_cache, graph_from_url, load_graph
from schemarouter.graph.model import Edge, EdgeKind, Node, NodeKind
from schemarouter.graph.records import EndpointInfo, FieldInfo

__all__ = [
    "Edge", "EdgeKind", "EndpointInfo", "FieldInfo", "Node", "NodeKind", "SchemaGraph",
    "build_graph", "build_graph_in_batches", "clear_cache", "graph_from_url", "load_graph",
]
