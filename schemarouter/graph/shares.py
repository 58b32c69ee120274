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
    from collections.abc import Mapping

    from schemarouter.graph.records import EndpointInfo
    from schemarouter.models import Intent

Counts = tuple[int, tuple[tuple[str, int], ...]]  # (fields counted, (intent, fields it wants) in first-seen order)


class IntentCounter:
    """(concept -> counts over the fields carrying it, field name -> counts over the fields of that name
    that do not carry it as a concept), counted one endpoint at a time in graph order, which is the
    order of ``concept_fields`` and ``fields_by_name`` (field names and concepts are unique per endpoint
    and field, as the models validate); each endpoint's declarations read only as it is added.

    Each count is kept as the immutable tuple the graph keeps, and a first count as one object for equal
    ones: most concepts and names are counted once (one field, one intent), and a tally object with a
    dictionary each, for hundreds of thousands of them, was a large part of a cold start's memory."""

    def __init__(self, intents: Mapping[str, Intent]) -> None:
        self.wants = {name: set(intent.field_groups) for name, intent in intents.items()}
        self.concepts: dict[str, Counts] = {}
        self.names: dict[str, Counts] = {}
        self.first: dict[Counts, Counts] = {}  # the counts of keys counted once, one object each

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
                self._count(concepts, concept, wanted)
            if f.name not in carried:
                self._count(names, f.name, wanted)

    def _count(self, acc: dict[str, Counts], key: str, wanted: tuple[str, ...]) -> None:
        fields, per_intent = acc.get(key, _NONE)
        if wanted:
            pairs = list(per_intent)  # in first-seen order
            for intent in wanted:
                for j, (name, n) in enumerate(pairs):
                    if name == intent:
                        pairs[j] = (name, n + 1)
                        break
                else:
                    pairs.append((intent, 1))
            per_intent = tuple(pairs)
        counts = (fields + 1, per_intent)
        # a first count is shared as it is made (most keys are counted once); a later one replaces the
        # last, and equal ones are made one object at the end (sharing every count as it is made would
        # keep every intermediate one)
        acc[key] = self.first.setdefault(counts, counts) if fields == 0 else counts

    def finish(self) -> tuple[dict[str, Counts], dict[str, Counts]]:
        """(concept -> counts, field name -> counts)."""
        # equal counts are one object: thousands of concepts and names are counted alike
        seen = self.first
        by_concept = self.concepts
        for concept, counts in by_concept.items():  # in place: no second dictionary of them all
            by_concept[concept] = seen.setdefault(counts, counts)
        # a name's counts add nothing where no intent wants it and no concept shares its name
        by_name = one_per_value({name: c for name, c in self.names.items() if c[1] or name in by_concept}, seen)
        return by_concept, by_name


_NONE: Counts = (0, ())
