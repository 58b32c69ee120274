"""Synthetic inventories of any size, derived from the real 19 sources (for the scaling run).

Deterministic by seed. Source ``i`` is a renamed copy of real source ``i mod 19`` (the first 19
are the real ones unchanged), so the mix of domains, endpoints and parameters stays realistic:

- id ``<base>_x<i>``, a title and two aliases built from a seeded word list and ``i`` (distinct
  across the inventory, so named-source routing has real work to do);
- each endpoint keeps a seeded 60-100 % of its fields (identifiers always) and gains 0-4
  synthetic fields of the base source's groups, so field counts vary like real APIs';
- about a third of the concept-bearing fields are moved to a new concept of their own
  (``<concept>_x<i>``, with its own alias), the rest keep the shared vocabulary; every kept
  field alias is joined by one alias unique to the copy;
- the vocabulary (intents, field groups) is the real one plus the new concepts.
"""

from __future__ import annotations

import random

from schemarouter.declarations import Declarations, Owner
from schemarouter.models import DomainConcept, Endpoint, ResponseField, Source

SEED = 7
SYNTHETIC_OWNER = Owner("plugin", "schemarouter-synthetic", "1")
_WORDS = [
    "aurora", "basalt", "cobalt", "delta", "ember", "fjord", "garnet", "helix", "indigo", "jasper",
    "krypton", "lumen", "meridian", "nimbus", "onyx", "prism", "quartz", "rhodium", "sierra", "tundra",
    "umbra", "vertex", "willow", "xenon", "yttria", "zephyr", "atlas", "boreal", "cirrus", "dune",
]


def _name(rng: random.Random, i: int) -> str:
    return f"{rng.choice(_WORDS).title()} {rng.choice(_WORDS).title()} {i}"


def synthesize(base: Declarations, n: int, seed: int = SEED) -> Declarations:
    """An inventory of ``n`` sources: the real ones first, then renamed copies."""
    if n < 1:
        raise ValueError("n must be at least 1")
    rng = random.Random(seed)
    real = [base.sources[sid] for sid in sorted(base.sources)]
    out = Declarations(
        intents=dict(base.intents), field_groups=dict(base.field_groups), concepts=dict(base.concepts)
    )
    for i in range(n):
        src = real[i % len(real)]
        if i < len(real):
            out.sources[src.id] = src
            out.owners[src.id] = base.owners.get(src.id, SYNTHETIC_OWNER)
            continue
        copy = _copy_source(src, i, rng, out)
        out.sources[copy.id] = copy
        out.owners[copy.id] = SYNTHETIC_OWNER
    return out


def _copy_source(src: Source, i: int, rng: random.Random, out: Declarations) -> Source:
    title = _name(rng, i)
    endpoints = [_copy_endpoint(e, i, rng, out) for e in src.endpoints]
    return src.model_copy(
        update={
            "id": f"{src.id[:40]}_x{i}",
            "title": title,
            "aliases": [title, f"{title.split()[0]} DB {i}", f"{src.id[:12]}-{i}"],
            "description": f"Synthetic copy {i} of {src.title}. {src.description}",
            "priority": rng.randint(1, 9),
            "endpoints": endpoints,
        }
    )


def _copy_endpoint(e: Endpoint, i: int, rng: random.Random, out: Declarations) -> Endpoint:
    keep_share = rng.uniform(0.6, 1.0)
    fields: list[ResponseField] = []
    for f in e.fields:
        if not f.identifier and rng.random() > keep_share:
            continue
        update: dict[str, object] = {}
        if f.aliases:
            update["aliases"] = [
                *f.aliases[: max(1, len(f.aliases) // 2)],
                f"{f.name.replace('_', ' ')} x{i}",
            ]
        if f.concepts and rng.random() < 1 / 3:
            concept = f"{f.concepts[0][:50]}_x{i}"
            if concept not in out.concepts:
                out.concepts[concept] = DomainConcept(name=concept, aliases=[f"{concept.replace('_', ' ')}"])
            update["concepts"] = [concept]
        fields.append(f.model_copy(update=update))
    groups = sorted({f.group for f in e.fields})
    for j in range(rng.randint(0, 4)):
        fields.append(
            ResponseField(
                name=f"extra_{j}_x{i}",
                path=f"extra.m{j}",
                type=rng.choice(["number", "string"]),
                group=rng.choice(groups),
                description=f"Synthetic measure {j} of copy {i}.",
            )
        )
    return e.model_copy(update={"fields": fields})


def counts(decls: Declarations) -> dict[str, int]:
    """How many sources, endpoints, fields and concepts the declarations hold."""
    endpoints = [e for s in decls.sources.values() for e in s.endpoints]
    return {
        "sources": len(decls.sources),
        "endpoints": len(endpoints),
        "fields": sum(len(e.fields) for e in endpoints),
        "concepts": len(decls.concepts),
    }
