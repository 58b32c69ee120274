"""The synthetic inventories of the scaling run: requested sizes, unique ids, deterministic by seed."""

from __future__ import annotations

import pytest
from schemarouter_bench.frozen import inventory_declarations
from schemarouter_bench.synth import counts, synthesize

from schemarouter.declarations import validate
from schemarouter.registry import Registry


@pytest.fixture(scope="module")
def base():  # type: ignore[no-untyped-def]
    return inventory_declarations()


def _shape(decls):  # type: ignore[no-untyped-def]
    return [
        (s.id, s.title, tuple(s.aliases), tuple((e.id, tuple(f.name for f in e.fields)) for e in s.endpoints))
        for s in decls.sources.values()
    ]


@pytest.mark.parametrize("n", [1, 19, 20, 250])
def test_requested_count_with_unique_ids_and_aliases(base, n: int) -> None:  # type: ignore[no-untyped-def]
    decls = synthesize(base, n)
    assert counts(decls)["sources"] == n == len({s.id for s in decls.sources.values()})
    copies = [s for s in decls.sources.values() if s.id not in base.sources]
    aliases = [a.lower() for s in copies for a in s.aliases]
    assert len(aliases) == len(set(aliases))  # a copy's name picks out that copy
    validate(decls)


def test_same_seed_same_inventory_other_seed_other(base) -> None:  # type: ignore[no-untyped-def]
    assert _shape(synthesize(base, 120, seed=3)) == _shape(synthesize(base, 120, seed=3))
    assert _shape(synthesize(base, 120, seed=3)) != _shape(synthesize(base, 120, seed=4))


def test_copies_vary_field_counts_and_add_concepts(base) -> None:  # type: ignore[no-untyped-def]
    decls = synthesize(base, 200)
    per_endpoint = {
        len(e.fields) for s in decls.sources.values() if s.id not in base.sources for e in s.endpoints
    }
    assert len(per_endpoint) > 10
    assert len(decls.concepts) > len(base.concepts)
    for s in decls.sources.values():  # identifiers always survive the copy
        for e in s.endpoints:
            original = base.sources[s.id.rsplit("_x", 1)[0] if s.id not in base.sources else s.id]
            ids = {f.name for f in original.endpoint(e.id).fields if f.identifier}
            assert ids <= {f.name for f in e.fields}


def test_a_synthetic_inventory_syncs_into_a_registry(base, tmp_path) -> None:  # type: ignore[no-untyped-def]
    decls = synthesize(base, 60)
    with Registry.open(f"sqlite:///{tmp_path}/r.db") as registry:
        registry.sync(decls)
        assert len(registry.load().sources) == 60
