"""How many of a concept's fields each intent wants, counted once per graph at build time.

Intent evidence (``understand.evidence``) weighs a concept by the share of the fields answering
it (those carrying the concept, then those named like it) whose endpoint serves an intent that
wants the field's group. Counting that per question walks thousands of fields at 10,000 sources;
these counts let it be read in a few dict lookups.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from schemarouter.graph.alike import one_per_value

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from schemarouter.graph.records import EndpointInfo
    from schemarouter.models import Intent

Counts = tuple[int, tuple[tuple[str, int], ...]]  # (fields counted, (intent, fields it wants) in first-seen order)


def intent_counts(
    endpoints: Iterable[EndpointInfo], intents: Mapping[str, Intent]
) -> tuple[dict[str, Counts], dict[str, Counts]]:
    """(concept -> counts over the fields carrying it, field name -> counts over the fields of that
    name that do not carry it as a concept). One pass over the endpoints in graph order, which is the
    order of ``concept_fields`` and ``fields_by_name`` (field names and concepts are unique per endpoint
    and field, as the models validate)."""
    counter = IntentCounter(intents)
    for info in endpoints:
        counter.add(info)
    return counter.finish()


class IntentCounter:
    """:func:`intent_counts` one endpoint at a time (each endpoint's declarations read only as it is added)."""

    def __init__(self, intents: Mapping[str, Intent]) -> None:
        self.wants = {name: set(intent.field_groups) for name, intent in intents.items()}
        self.concepts: dict[str, _Tally] = {}
        self.names: dict[str, _Tally] = {}

    def add(self, info: EndpointInfo) -> None:
        """Count the fields of one endpoint."""
        served, wants, concepts, names = info.intents, self.wants, self.concepts, self.names
        by_group: dict[str, tuple[str, ...]] = {}
        for f in info.fields.values():
            group = f.field.group
            wanted = by_group.get(group)
            if wanted is None:
                wanted = by_group[group] = tuple(i for i in served if group in wants.get(i, ()))
            carried = f.field.concepts
            for concept in carried:
                _count(concepts, concept, wanted)
            if f.name not in carried:
                _count(names, f.name, wanted)

    def finish(self) -> tuple[dict[str, Counts], dict[str, Counts]]:
        """(concept -> counts, field name -> counts), as :func:`intent_counts` gives them."""
        concepts, names = self.concepts, self.names
        # equal counts are one object: thousands of concepts and names are counted alike (one field, one intent)
        seen: dict[Counts, Counts] = {}
        by_concept = one_per_value({c: t.counts() for c, t in concepts.items()}, seen)
        by_name = one_per_value({
            name: t.counts() for name, t in names.items() if t.per_intent or name in by_concept
        }, seen)  # else it adds nothing: no intent, no other field to share with
        return by_concept, by_name


class _Tally:
    """Fields counted for one concept or name, and how many of them each intent wants."""

    __slots__ = ("fields", "per_intent")

    def __init__(self) -> None:
        self.fields = 0
        # in first-seen order; None until an intent wants one (most names no intent wants: a dictionary
        # each was tens of megabytes at 100,000 sources)
        self.per_intent: dict[str, int] | None = None

    def counts(self) -> Counts:
        return self.fields, tuple(self.per_intent.items()) if self.per_intent else ()


def _count(acc: dict[str, _Tally], key: str, wanted: tuple[str, ...]) -> None:
    tally = acc.get(key)
    if tally is None:
        tally = acc[key] = _Tally()
    tally.fields += 1
    if not wanted:
        return
    per = tally.per_intent
    if per is None:
        per = tally.per_intent = {}
    for intent in wanted:
        per[intent] = per.get(intent, 0) + 1
