"""The default order of the endpoints serving each intent, computed once per graph.

Most endpoints of a large inventory match none of a question's words. For those the router's
ranking key (``router.core``) depends only on facts of the endpoint fixed at build time: which
parameter concepts it takes, which intents it serves, whether it takes a property name, whether it
returns one of the intent's field groups, its source type, the coverage of the intent's groups,
its priority and field count. Grouping the endpoints of each intent by the facts that vary by
question (:class:`IntentGroup`), each group already sorted by the rest, lets the router rank the
zero-score remainder by merging a few presorted lists instead of scoring every endpoint.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping

    from schemarouter.graph.records import EndpointInfo
    from schemarouter.models import Intent


@dataclass
class IntentGroup:
    """Endpoints serving one intent that share every ranking fact a question can vary, best first."""
    concepts: frozenset[str]  # parameter concepts (entity fit)
    required_title: bool  # a required title parameter (entity fit)
    intents: tuple[str, ...]  # intents served, in declared order (intent evidence)
    property_param: bool  # takes a property name (score bonus)
    overlap: bool  # returns one of the intent's field groups
    source_type: str  # the source's type (provenance when no field matched; web or not)
    field_type: str | None  # the one source type all its fields have (provenance when any matched), else None
    endpoints: list[EndpointInfo] = field(default_factory=list)  # best first
    keys: list[tuple[str, str]] = field(default_factory=list)  # their keys, same order
    # their ranking-key facts that never vary by question, negated for an ascending sort, same order:
    # (-coverage of the intent's groups, -priority, field count, label)
    tails: list[tuple[int, int, int, str]] = field(default_factory=list)


class IntentOrderBuilder:
    """Intent -> its endpoints' groups (every intent any endpoint serves; others have no endpoint), made
    one endpoint at a time (each endpoint's declarations read only as it is added)."""

    def __init__(self, intents: Mapping[str, Intent]) -> None:
        self.intents = intents
        self.groups: dict[str, dict[tuple[object, ...], IntentGroup]] = {}
        self.wanted: dict[str, set[str]] = {}

    def add(self, info: EndpointInfo) -> None:
        """Place one endpoint in the groups of every intent it serves."""
        groups, wanted = self.groups, self.wanted
        ep = info.endpoint
        params = ep.parameters
        facts = (
            frozenset(p.concept for p in params if p.concept),
            any(p.required and p.concept == "title" for p in params),
            tuple(ep.intents),
            any(p.concept == "property_name" for p in params),
        )
        types = {f.source_type for f in info.fields.values()}
        field_type = types.pop() if len(types) == 1 else None
        label, priority, n_fields = info.label, info.source.priority, len(info.fields)
        for intent in dict.fromkeys(ep.intents):
            if intent not in wanted:
                declared = self.intents.get(intent)
                wanted[intent] = set(declared.field_groups) if declared else set()
            covered = len(wanted[intent] & info.groups)
            sig = (*facts, covered > 0, info.source.source_type.value, field_type)
            by_sig = groups.setdefault(intent, {})
            group = by_sig.get(sig)
            if group is None:
                group = by_sig[sig] = IntentGroup(*sig)
            group.endpoints.append(info)
            group.tails.append((-covered, -priority, n_fields, label))

    def finish(self) -> dict[str, list[IntentGroup]]:
        """Intent -> its groups, each sorted."""
        for by_sig in self.groups.values():
            for group in by_sig.values():
                # ascending tails: most coverage, highest priority, fewest fields, then label
                order = sorted(range(len(group.tails)), key=group.tails.__getitem__)
                group.endpoints = [group.endpoints[i] for i in order]
                group.tails = [group.tails[i] for i in order]
                group.keys = [i.key for i in group.endpoints]
        return {intent: list(by_sig.values()) for intent, by_sig in self.groups.items()}


# A place in an intent's groups packed into one int, (group number << _POS_BITS) | position: one small
# object per endpoint and intent where a tuple in a list cost three (the map is kept with the graph).
_POS_BITS = 32
_POS_MASK = (1 << _POS_BITS) - 1


def group_places(groups: list[IntentGroup]) -> dict[tuple[str, str], int]:
    """Endpoint key -> its place in ``groups`` (an endpoint serves an intent once, so it sits in one of
    its groups), packed as an int: a question's reached endpoints then find their groups in one pass
    (:func:`reached_in`), not one pass per group. Worked out once per graph, as it is built."""
    return {key: number << _POS_BITS | pos for number, group in enumerate(groups) for pos, key in enumerate(group.keys)}


def reached_in(groups: list[IntentGroup], places: Mapping[tuple[str, str], int],
               scored: Collection[tuple[str, str]]) -> list[list[int]]:
    """Per group of ``groups``, the ascending positions of its endpoints whose keys are in ``scored`` (the
    endpoints a question's words reached), in one pass over ``scored``: a question that reaches a few
    endpoints costs what it reaches, not the size of the groups (thousands at 10,000 sources)."""
    out: list[list[int]] = [[] for _ in groups]
    get = places.get
    for key in scored:
        place = get(key)
        if place is not None:
            out[place >> _POS_BITS].append(place & _POS_MASK)
    for positions in out:
        positions.sort()
    return out
