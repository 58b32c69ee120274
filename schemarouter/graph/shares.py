"""How many of a concept's fields each intent wants, counted once per graph at build time.

Intent evidence (``understand.evidence``) weighs a concept by the share of the fields answering
it (those carrying the concept, then those named like it) whose endpoint serves an intent that
wants the field's group. Counting that per question walks thousands of fields at 10,000 sources;
these counts let it be read in a few dict lookups.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from schemarouter.graph.build import FieldInfo, SchemaGraph

Counts = tuple[int, tuple[tuple[str, int], ...]]  # (fields counted, (intent, fields it wants) in first-seen order)


def intent_counts(g: SchemaGraph) -> tuple[dict[str, Counts], dict[str, Counts]]:
    """(concept -> counts over the fields carrying it, field name -> counts over the fields of that
    name that do not carry it as a concept)."""
    wants = {name: set(intent.field_groups) for name, intent in g.decls.intents.items()}
    endpoints = g.endpoints
    cache: dict[tuple[tuple[str, str], str], tuple[str, ...]] = {}

    def wanted_by(f: FieldInfo) -> tuple[str, ...]:
        key = ((f.source, f.endpoint), f.field.group)
        found = cache.get(key)
        if found is None:
            intents = endpoints[key[0]].endpoint.intents
            found = cache[key] = tuple(i for i in intents if f.field.group in wants.get(i, ()))
        return found

    def count(fields: list[FieldInfo]) -> Counts:
        per_intent: dict[str, int] = {}
        for f in fields:
            for intent in wanted_by(f):
                per_intent[intent] = per_intent.get(intent, 0) + 1
        return len(fields), tuple(per_intent.items())

    by_concept = {c: count(fields) for c, fields in g.concept_fields.items()}
    by_name: dict[str, Counts] = {}
    for name, fields in g.index.fields_by_name.items():
        others = [f for f in fields if name not in f.field.concepts]
        if others:
            counted = count(others)
            if counted[1] or name in by_concept:  # else it adds nothing: no intent, no other field to share with
                by_name[name] = counted
    return by_concept, by_name
