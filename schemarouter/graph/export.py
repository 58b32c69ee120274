"""Write the schema graph as JSON, GraphML or Graphviz DOT (``schemarouter registry graph``)."""

from __future__ import annotations

import json
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from schemarouter.graph.build import SchemaGraph

FORMATS = ("json", "graphml", "dot")


def to_json(g: SchemaGraph) -> str:
    """The graph's nodes and edges as a JSON document."""
    doc: dict[str, Any] = {
        "registry_fingerprint": g.fingerprint,
        "nodes": [{"id": n.id, "kind": n.kind.value, "label": n.label, **_plain(n.attrs)} for n in g.nodes.values()],
        "edges": [{"source": e.source, "kind": e.kind.value, "target": e.target} for e in g.edges],
    }
    return json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=False)


def _plain(attrs: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in attrs.items() if isinstance(v, (str, int, float, bool, list)) or v is None}


def to_graphml(g: SchemaGraph) -> str:
    """The graph as GraphML, for graph tools such as Gephi or yEd."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
        '  <key id="kind" for="node" attr.name="kind" attr.type="string"/>',
        '  <key id="label" for="node" attr.name="label" attr.type="string"/>',
        '  <key id="ekind" for="edge" attr.name="kind" attr.type="string"/>',
        f'  <graph id={quoteattr(g.fingerprint or "registry")} edgedefault="directed">',
    ]
    for n in g.nodes.values():
        lines.append(
            f'    <node id={quoteattr(n.id)}><data key="kind">{escape(n.kind.value)}</data>'
            f'<data key="label">{escape(n.label)}</data></node>'
        )
    for i, e in enumerate(g.edges):
        lines.append(
            f'    <edge id="e{i}" source={quoteattr(e.source)} target={quoteattr(e.target)}>'
            f'<data key="ekind">{e.kind.value}</data></edge>'
        )
    lines += ["  </graph>", "</graphml>"]
    return "\n".join(lines) + "\n"


def _dot_id(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


_SHAPES = {"Tool": "box3d", "Endpoint": "box", "Parameter": "note", "ResponseField": "ellipse", "Intent": "diamond"}


def to_dot(g: SchemaGraph) -> str:
    """The graph in Graphviz's DOT language."""
    lines = ["digraph schema {", "  rankdir=LR;"]
    for n in g.nodes.values():
        shape = _SHAPES.get(n.kind.value, "plaintext")
        lines.append(f"  {_dot_id(n.id)} [label={_dot_id(n.label)}, shape={shape}];")
    for e in g.edges:
        lines.append(f"  {_dot_id(e.source)} -> {_dot_id(e.target)} [label={_dot_id(e.kind.value)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def export(g: SchemaGraph, fmt: str) -> str:
    """The graph in ``fmt`` (json, graphml or dot); any other format is an error naming the known ones."""
    if fmt == "json":
        return to_json(g)
    if fmt == "graphml":
        return to_graphml(g)
    if fmt == "dot":
        return to_dot(g)
    raise ValueError(f"unknown graph format {fmt!r}; choose one of {', '.join(FORMATS)}")
