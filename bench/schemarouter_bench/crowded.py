"""The scale condition's registry: the open-world and tool-use documents beside an import corpus.

Thousands of endpoints nobody wrote a question for sit in the same registry as the APIs the suites
ask about, as in a lab that imports a whole API catalogue. The splits report (:mod:`schemarouter_bench.splits`)
measures the imported-sources set and RestBench TMDB over it; the re-ranker's fit
(:mod:`schemarouter_bench.fit_rerank`) can read their tune questions over it too, so the weights are
chosen where distractors crowd the candidates, not only where they do not.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from schemarouter_bench.frozen import Frozen
from schemarouter_bench.import_corpus import OVERLAY, documents
from schemarouter_bench.openworld import (
    Document,
    OpenWorld,
    build_world,
    open_world_documents,
    tooluse_documents,
)


def corpus_documents(corpus: Path, overlay: Path) -> list[Document]:
    """Every document of an import corpus as a distractor source (id from its file name)."""
    out = []
    for _kind, path in documents(corpus):
        sid = "corpus_" + re.sub(r"[^a-z0-9]+", "_", path.stem.lower()).strip("_")
        out.append(Document(sid[:60], path, overlay))
    return out


def build_crowded_world(base: Frozen, corpus: Path) -> OpenWorld:
    """The open-world and tool-use documents and every document of ``corpus`` in one registry (a
    corpus document the importer refuses is left out, as a user's catalogue import reports it)."""
    with tempfile.TemporaryDirectory() as tmp:
        overlay = Path(tmp) / "overlay.yaml"
        overlay.write_text(OVERLAY, encoding="utf-8")
        return build_world(base, open_world_documents() + tooluse_documents() + corpus_documents(corpus, overlay),
                           "open-world and tool-use documents and an import corpus", strict=False)
