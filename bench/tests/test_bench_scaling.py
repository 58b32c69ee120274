"""The scaling measurements on small synthetic inventories (the full sizes run in `make bench`)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from schemarouter_bench.dataset import load_queries
from schemarouter_bench.frozen import inventory_declarations
from schemarouter_bench.scaling import count_long, run_scaling, sync_postgres
from schemarouter_bench.synth import synthesize
from schemarouter_bench.targets import check

from schemarouter.tokens import count_tokens


@pytest.fixture(scope="module")
def base():  # type: ignore[no-untyped-def]
    return inventory_declarations()


def test_small_scaling_run_measures_every_column(base) -> None:  # type: ignore[no-untyped-def]
    rows = run_scaling(base, load_queries()[:12], sizes=(19, 40), pg_admin_url=None)
    assert [r["sources"] for r in rows] == [19, 40]
    for r in rows:
        for key in ("sync_sqlite_s", "graph_build_s", "rss_peak_mb", "schemarouter_p50_ms", "bm25_p50_ms"):
            assert r[key] > 0, key
        assert r["schemarouter_p50_ms"] <= r["schemarouter_p95_ms"]
        assert 20 < r["rss_peak_mb"] < 2000  # the child's own peak, not its parent's
        # the embedding model is installed with the project: the same probe embeds and routes dense too
        assert r["dense_build_s"] > 0 and 0 < r["dense_p50_ms"] <= r["dense_p95_ms"]
        assert r["rss_dense_peak_mb"] >= r["rss_peak_mb"]
    # The whole schema is in prompt-all's prompt: it grows with the inventory.
    assert rows[1]["prompt_all_tokens"] > rows[0]["prompt_all_tokens"] * 1.5
    targets = check({"routers": [], "scaling": rows})
    assert {t["met"] for t in targets} == {None}  # nothing at 10,000 sources measured here


def test_long_texts_are_counted_in_chunks_exactly() -> None:
    text = "\n".join(f"line {i}: band_gap[eV], formation_energy_per_atom[eV/atom]" for i in range(300))
    assert count_long(text, chunk_chars=500) == count_tokens(text)


@pytest.mark.postgres
def test_postgres_sync_creates_and_drops_its_own_database(base) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import POSTGRES_ADMIN_URL, _postgres_or_skip

    _postgres_or_skip()
    engine = sa.create_engine(POSTGRES_ADMIN_URL)
    with engine.connect() as conn:
        before = set(conn.execute(sa.text("SELECT datname FROM pg_database")).scalars())
    seconds = sync_postgres(synthesize(base, 25), POSTGRES_ADMIN_URL)
    with engine.connect() as conn:
        after = set(conn.execute(sa.text("SELECT datname FROM pg_database")).scalars())
    engine.dispose()
    assert isinstance(seconds, float) and seconds > 0
    assert {d for d in after - before if d.startswith("sr_bench_")} == set()


def test_postgres_unreachable_is_reported_not_raised(base) -> None:  # type: ignore[no-untyped-def]
    result = sync_postgres(synthesize(base, 19), "postgresql+psycopg://nobody@127.0.0.1:1/none")
    assert isinstance(result, str) and result.startswith("not measured")


def test_dense_targets_are_checked_at_ten_thousand_sources() -> None:
    row = {"sources": 10000, "graph_build_s": 2.5, "dense_build_s": 3.0, "dense_p50_ms": 4.0,
           "rss_dense_peak_mb": 700.0}
    targets = {t["target"]: t for t in check({"routers": [], "scaling": [row]})}
    assert targets["routing p50 at 10,000 sources, dense on"]["met"] is True
    both = targets["graph and dense vectors build at 10,000 sources"]
    assert both["measured"] == 5.5 and both["met"] is False  # the graph and its vectors together
    assert targets["router process peak RSS at 10,000 sources, dense on"]["met"] is False
    # the dense process's own build where it reports one: with dense on a cold start reads the registry
    # whole, not in the lexical process's batches
    own = check({"routers": [], "scaling": [{**row, "dense_graph_build_s": 1.5}]})
    assert next(t for t in own if t["target"] == "graph and dense vectors build at 10,000 sources")["measured"] == 4.5
    # without the model (no dense figures) no dense target is reported, rather than one measured as 0
    lexical = check({"routers": [], "scaling": [{"sources": 10000, "graph_build_s": 2.5}]})
    assert not any("dense" in t["target"] for t in lexical)
