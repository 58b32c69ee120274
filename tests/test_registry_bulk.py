"""Bulk inserts: the rows a sync writes through ``insert_many`` (one ``executemany``; ``COPY`` on Postgres)
are exactly the rows SQLAlchemy Core's ``insert()`` writes, on SQLite and on Postgres."""

from __future__ import annotations

from typing import Any

import pytest
from schemarouter_bench.synth import synthesize
from sqlalchemy import select

from schemarouter.declarations import collect
from schemarouter.plugins import make_plugin_manager
from schemarouter.registry import Registry
from schemarouter.registry import mapping as m


def _rows(reg: Registry) -> dict[str, list[tuple[Any, ...]]]:
    with reg.engine.connect() as conn:
        return {
            table.name: sorted((tuple(r) for r in conn.execute(select(table))), key=repr)
            for table in m.INSERT_ORDER
        }


def _core(connection: Any, table: Any, rows: list[dict[str, Any]]) -> None:
    connection.execute(table.insert(), rows)


def test_bulk_rows_equal_core_rows(any_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # copies of the real sources: every column kind (JSON lists and objects, booleans, NULLs, licenses)
    decls = synthesize(collect(make_plugin_manager()), 60)
    with Registry.open(any_url) as reg:
        reg.replace(decls)
        bulk = _rows(reg)
        with monkeypatch.context() as patch:
            patch.setattr(m, "insert_many", _core)
            reg.replace(decls)
        core = _rows(reg)
        assert sum(len(rows) for rows in bulk.values()) > 1000
        assert bulk == core
        assert reg.load().sources == decls.sources


def test_rows_without_a_default_column_fall_back_to_core(sqlite_url: str) -> None:
    """A row that leaves out a column with a default is inserted by Core, which fills the default."""
    with Registry.open(sqlite_url) as reg, reg.engine.begin() as conn:
        m.insert_many(conn, m.T_FIELD_GROUPS, [{"name": "g1"}, {"name": "g2"}])
        got = sorted(tuple(r) for r in conn.execute(select(m.T_FIELD_GROUPS.c.name, m.T_FIELD_GROUPS.c.description)))
    assert got == [("g1", ""), ("g2", "")]


def test_a_sources_endpoint_fingerprints_from_one_dump_equal_their_own_digests() -> None:
    """A sync works out a source's fingerprint and its endpoints' from one dump: the same digests as each
    declaration's own, also where a description holds the text that stands in for the endpoints."""
    from schemarouter.registry.fingerprint import (
        _ENDPOINTS,
        digest,
        source_and_endpoint_fingerprints,
        source_fingerprint,
    )

    sources = list(collect(make_plugin_manager()).sources.values())
    tricky = sources[0].model_copy(update={"description": _ENDPOINTS})  # its text is the stand-in's
    empty = sources[0].model_copy(update={"endpoints": []})
    assert len(sources) >= 19
    for source in [*sources, tricky, empty]:
        fingerprint, endpoints = source_and_endpoint_fingerprints(source)
        assert fingerprint == source_fingerprint(source), source.id
        assert endpoints == [digest(e) for e in source.endpoints], source.id
