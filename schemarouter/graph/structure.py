"""The typed nodes and edges of the schema graph (the paper's Section 4), built when first asked for.

Routing reads only the graph's indexes (``build.py``), never its node and edge lists; those serve
export (``schemarouter registry graph``) and inspection. At 10,000 sources they are millions of
small objects, so :class:`~schemarouter.graph.build.SchemaGraph` builds them from its declarations
on first access instead of with every graph.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from schemarouter.graph.model import Edge, EdgeKind, Node, NodeKind, endpoint_id, field_id, param_id, tool_id

if TYPE_CHECKING:
    from schemarouter.declarations import Declarations
    from schemarouter.models import ResponseField, Source


def field_meta(source: Source, f: ResponseField) -> tuple[str, str, str | None]:
    """(effective source type, license id, attribution) of a field: its own override, else its source's."""
    license_ = f.license or source.license
    return (f.source_type or source.source_type).value, license_.id, license_.attribution or license_.name


class _Builder:
    def __init__(self) -> None:
        self.nodes: dict[str, Node] = {}
        self.edges: list[Edge] = []

    def node(self, node_id: str, kind: NodeKind, label: str, **attrs: object) -> str:
        if node_id not in self.nodes:
            self.nodes[node_id] = Node(node_id, kind, label, dict(attrs))
        return node_id

    def edge(self, src: str, kind: EdgeKind, dst: str) -> None:
        self.edges.append(Edge(src, kind, dst))

    def alias(self, alias: str) -> str:
        # Aliases are attributes of the ALIASED_AS edge's far end; one node per distinct spelling.
        return self.node(f"alias:{alias}", NodeKind.DomainConcept, alias, alias=True)


def build_structure(decls: Declarations) -> tuple[dict[str, Node], list[Edge]]:
    """Typed nodes by id and edges for every declaration (for export and inspection, not routing)."""
    b = _Builder()
    for group in decls.field_groups.values():
        b.node(f"group:{group.name}", NodeKind.FieldGroup, group.name, description=group.description)
    for intent in decls.intents.values():
        iid = b.node(f"intent:{intent.name}", NodeKind.Intent, intent.name, domains=list(intent.domains))
        for group_name in intent.field_groups:
            b.edge(iid, EdgeKind.REQUIRES_GROUP, f"group:{group_name}")
    for concept in decls.concepts.values():
        cid = b.node(f"concept:{concept.name}", NodeKind.DomainConcept, concept.name)
        for alias in concept.aliases:
            b.edge(cid, EdgeKind.ALIASED_AS, b.alias(alias))
    for source in sorted(decls.sources.values(), key=lambda s: s.id):
        _add_source(b, source)
    return b.nodes, b.edges


def _add_source(b: _Builder, source: Source) -> None:
    tid = b.node(tool_id(source.id), NodeKind.Tool, source.title, domain=source.domain, priority=source.priority)
    st = b.node(f"source_type:{source.source_type.value}", NodeKind.SourceType, source.source_type.value)
    lic = b.node(f"license:{source.license.id}", NodeKind.LicensePolicy, source.license.id, name=source.license.name)
    b.edge(tid, EdgeKind.HAS_SOURCE_TYPE, st)
    b.edge(tid, EdgeKind.UNDER_LICENSE, lic)
    for ep in source.endpoints:
        eid = b.node(endpoint_id(source.id, ep.id), NodeKind.Endpoint, ep.id, method=ep.method)
        b.edge(tid, EdgeKind.HAS_ENDPOINT, eid)
        for intent in ep.intents:
            b.edge(eid, EdgeKind.SERVES_INTENT, f"intent:{intent}")
        for p in ep.parameters:
            pid = b.node(param_id(source.id, ep.id, p.name), NodeKind.Parameter, p.name, type=p.type, required=p.required)
            b.edge(eid, EdgeKind.HAS_PARAM, pid)
            if p.concept:
                b.edge(pid, EdgeKind.MAPS_TO_CONCEPT, f"concept:{p.concept}")
        for f in ep.fields:
            source_type, license_id, _ = field_meta(source, f)
            fid = b.node(field_id(source.id, ep.id, f.name), NodeKind.ResponseField, f.name, type=f.type)
            b.edge(eid, EdgeKind.RETURNS_FIELD, fid)
            b.edge(fid, EdgeKind.IN_GROUP, f"group:{f.group}")
            b.edge(fid, EdgeKind.HAS_SOURCE_TYPE, b.node(f"source_type:{source_type}", NodeKind.SourceType, source_type))
            b.edge(fid, EdgeKind.UNDER_LICENSE, b.node(f"license:{license_id}", NodeKind.LicensePolicy, license_id))
            if f.unit:
                b.edge(fid, EdgeKind.HAS_UNIT, b.node(f"unit:{f.unit}", NodeKind.Unit, f.unit))
            for concept in f.concepts:
                b.edge(fid, EdgeKind.MAPS_TO_CONCEPT, f"concept:{concept}")
            for alias in f.aliases:
                b.edge(fid, EdgeKind.ALIASED_AS, b.alias(alias))
