"""What an endpoint's parameters say whatever the question, worked out once per endpoint and graph.

Each parameter's :class:`~schemarouter.router.param_facts.ParamFacts` together, and the groups that
ranking and filling read for every question (its required parameters, those with a default, a
select-all or a JSON format member, the kinds of value it needs), kept in the graph's
:class:`~schemarouter.router.memos.RouterGraphMemo`. Read from the endpoint's record only, so that
ranking a candidate reads no source back.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Collection
from dataclasses import dataclass

from schemarouter.graph import EndpointInfo, SchemaGraph
from schemarouter.models import Parameter
from schemarouter.router.enum_kinds import all_member, json_member
from schemarouter.router.memos import RouterGraphMemo
from schemarouter.router.param_facts import ParamFacts, parameter_facts


@dataclass(frozen=True, slots=True)
class EndpointFacts:
    """What an endpoint's parameters say whatever the question: each one's :class:`ParamFacts`, and
    the groups that filling them reads for every question."""

    by_name: dict[str, ParamFacts]
    concepts: bool  # a parameter declares a concept the vocabulary rules fill (not free text)
    any_concept: bool  # a parameter declares a concept, free text included
    # required, and not the credential the executor sends; each with its name (read off the model once)
    required_named: tuple[tuple[Parameter, str], ...]
    defaults: tuple[Parameter, ...]  # required, with a declared default
    # required, with no default, and one enum member that selects every record ("all-access"): that member
    everything: tuple[tuple[Parameter, str], ...]
    # required, with no default, and an enum of response formats ("json", "xml"): its JSON member
    formats: tuple[tuple[Parameter, str], ...]
    # whether a question can give the parameters the value reading fills anything: the kinds of value
    # they need (their ``needs`` together), and whether one is free text or part of a date (those take more)
    needs: int
    cues: frozenset[str]
    open_text: bool


def endpoint_facts(graph: SchemaGraph, info: EndpointInfo) -> EndpointFacts:
    """The endpoint's :class:`EndpointFacts` (worked out once per graph, in its memo)."""
    memo = graph.memos.of(RouterGraphMemo).param_facts
    found: EndpointFacts | None = memo.get(info.key)
    if found is None:
        path = info.path
        auth = info.auth_name
        params = info.parameters
        by_name = {p.name: parameter_facts(p, path, auth, graph.identifier_concepts) for p in params}
        found = memo[info.key] = EndpointFacts(
            by_name=by_name,
            concepts=any(p.concept and p.concept != "query_text" for p in params),
            any_concept=any(p.concept for p in params),
            required_named=tuple((p, p.name) for p in params if p.required and not by_name[p.name].credential),
            defaults=tuple(p for p in params if p.required and p.default is not None),
            everything=tuple((p, member) for p in params if p.required and p.default is None
                             and (member := all_member(p.enum)) is not None),
            formats=tuple((p, member) for p in params if p.required and p.default is None
                          and (member := json_member(p.enum)) is not None),
            needs=functools.reduce(operator.or_, (f.needs for f in by_name.values() if f.own), 0),
            cues=frozenset().union(*(f.cues for f in by_name.values() if f.own)),
            open_text=any(f.search or (f.own and f.date_part) for f in by_name.values()),
        )
    return found


def missing_required(graph: SchemaGraph, info: EndpointInfo, given: Collection[str]) -> list[Parameter]:
    """The required parameters of ``info`` that ``given`` (parameter names) lacks; the one its
    source sends the key in is never missing (the executor sends it)."""
    facts = endpoint_facts(graph, info)
    return [p for p, name in facts.required_named if name not in given]
