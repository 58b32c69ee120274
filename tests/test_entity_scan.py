"""The entity readers skip a pattern only for a text it cannot match: the substrings a pattern is
said to need are needed. Checked on the benchmark's questions and on generated text made of the
characters the patterns read."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from schemarouter.bench.dataset import load_queries
from schemarouter.bench.devset import load_dev_questions, load_tmdb_queries
from schemarouter.understand import entities

GATED = sorted({*entities._NEEDS, *entities._NEEDS_ANY_CASE})
SAMPLES = [
    "PMID: 12345678 and PubMed id 99", "CID 2244 or pubchem compound 5793", "arXiv:1605.08386v2 and hep-th/9901001",
    "10.1038/nature12373", "BSYNRYMUTXBXSQ-UHFFFAOYSA-N", "mp-149, JVASP-1002, aflow:0123456789abcdef",
    "COD entry 9008564", "between 1999 and 2020", "Li-Fe-O", "Physics Stack Exchange", "tagged [python]",
    "the past week", "“Deep residual learning for image recognition”", "PASt YEAR", "Cıd 42",
]


def _spans(matches: object) -> list[tuple[int, int, tuple[str | None, ...]]]:
    return [(m.start(), m.end(), m.groups()) for m in matches]  # type: ignore[attr-defined]


def _same(text: str) -> None:
    scan = entities._scanner(text)
    patterns = entities._patterns()
    for key in GATED:
        assert _spans(scan(key)) == _spans(patterns[key].finditer(text)), (key, text)


def test_skipping_changes_no_match_on_real_questions() -> None:
    questions = [q.query for q in load_queries()] + [q.query for q in load_dev_questions()]
    questions += [q.query for q in load_tmdb_queries()]
    for text in questions + SAMPLES:
        _same(text)


def test_every_pattern_matches_a_sample_so_the_check_is_not_empty() -> None:
    patterns = entities._patterns()
    assert all(any(patterns[key].search(s) for s in SAMPLES) for key in GATED)


_PIECES = st.sampled_from(
    ["PMID", "PubMed", " id ", "CID", "cid", "PubChem", "10.", "1038", "/", ".", "-", ":", "COD", "19", "20", "99",
     "Stack", "Exchange", "Overflow", "tagged", "past", "last", "week", "this", "year", "'", '"', "‘", "“", "’", "”",
     "Li", "Fe", "O", "mp", "aflow", "x", " ", "Ab", "ABCDEFGHIJKLMN", "v2", "hep", "th", "1234567", "ı", "K"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=14).map("".join))
def test_skipping_changes_no_match_on_generated_text(text: str) -> None:
    _same(text)

