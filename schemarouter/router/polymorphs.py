"""Fields that tell the structures of one composition apart, for a question that names a polymorph.

"Bulk modulus of diamond" reads as the formula C, which selects every carbon structure a source
holds: diamond, graphite and metastable phases alike. The vocabulary says which structure a common
name denotes (``default_plugins`` vocabulary: ``polymorphs``) and which concepts tell structures
apart (formula, space group). A step for such a question fetches the endpoint's fields of those
concepts, so each record shows its structure and the answer can be checked against the one meant.
Nothing here names a source or a material: both come from declarations.
"""

from __future__ import annotations

from schemarouter.default_plugins.vocabulary import Polymorph, telling_concepts
from schemarouter.graph import EndpointInfo, SchemaGraph
from schemarouter.plan import CoverageItem, Plan
from schemarouter.understand.base import Analysis


def named_polymorphs(analysis: Analysis) -> list[Polymorph]:
    """The polymorphs the question names (entities read from a polymorph's common name)."""
    return [e.extra["polymorph"] for e in analysis.entities if isinstance(e.extra.get("polymorph"), Polymorph)]


def structure_fields(info: EndpointInfo, analysis: Analysis) -> dict[str, str]:
    """The endpoint's fields that tell the named polymorphs from the other structures of their
    formula, each with the reason it is fetched; empty when the question names no polymorph."""
    named = named_polymorphs(analysis)
    if not named:
        return {}
    wanted = set(telling_concepts())
    meant = "; ".join(f"{p.name}: {p.formula} in {p.space_group} ({p.space_group_number})" for p in named)
    return {name: f"tells the structures of the formula apart ({meant})"
            for name, f in info.fields.items() if wanted & set(f.field.concepts)}


def structure_items(analysis: Analysis | None, plan: Plan, graph: SchemaGraph) -> list[CoverageItem]:
    """One coverage item per named polymorph: which planned fields show the structure of a record
    (its space group), or that none does, so records of other structures cannot be told apart."""
    if analysis is None:
        return []
    wanted = set(telling_concepts()) - {"formula"}
    items: list[CoverageItem] = []
    for p in named_polymorphs(analysis):
        by = []
        for step in plan.steps:
            info = graph.endpoints.get((step.source, step.endpoint))
            if info is None:
                continue
            by += [f"{step.source}.{step.endpoint}.{name}" for name in step.fields
                   if name in info.fields and wanted & set(info.fields[name].field.concepts)]
        meant = f"{p.name} is {p.formula} in space group {p.space_group} ({p.space_group_number}), {p.prototype}"
        why = (f"{meant}: each record shows its space group to check against" if by else
               f"{meant}, but no planned field shows a record's space group: other structures of {p.formula} "
               "cannot be told apart")
        items.append(CoverageItem(kind="structure", name=p.name, value=f"{p.space_group} ({p.space_group_number})",
                                  covered=bool(by), by=by, why=why))
    return items
