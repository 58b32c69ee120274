"""A prefiltered pattern skips only texts it cannot match: the substrings it is said to need are
needed. Every prefiltered pattern of the package is checked against its unfiltered search on the
benchmark's questions and on generated text made of the pieces those patterns read."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from schemarouter_bench.dataset import load_queries
from schemarouter_bench.devset import load_dev_questions, load_tmdb_queries

from schemarouter.declarations import collect
from schemarouter.graph.value_readers import build_value_readers
from schemarouter.plugins import plugin_manager
from schemarouter.prefilter import Prefiltered, prefiltered
from schemarouter.understand import entities


def _question_readers() -> list[str]:
    names = ["schemarouter.prefilter"]
    for package in ("schemarouter.understand", "schemarouter.router", "schemarouter.graph"):
        path = importlib.import_module(package).__path__
        names += [m.name for m in pkgutil.iter_modules(path, package + ".")]
    return [n for n in names if not n.endswith((".llm", ".prompt"))]


def _all_prefiltered() -> dict[str, Prefiltered]:
    found: dict[str, Prefiltered] = {f"entities.{k}": v for k, v in entities._patterns().items()
                                     if isinstance(v, Prefiltered)}
    # the identifier patterns the vocabulary and the installed plugins declare (with their needs)
    for i, reader in enumerate(build_value_readers(collect(plugin_manager()))):
        if isinstance(reader.pattern, Prefiltered):
            found[f"declared {reader.concept}[{i}]"] = reader.pattern
    # the modules that read questions: the understand step, the router and the graph's text helpers
    for name_ in _question_readers():
        module = importlib.import_module(name_)
        for name, value in vars(module).items():
            items = list(value.values()) if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else [value]
            for i, item in enumerate(items):
                candidate = item[0] if isinstance(item, tuple) and item else item
                if isinstance(candidate, Prefiltered):
                    found[f"{name_}.{name}[{i}]"] = candidate
    return found


PATTERNS = _all_prefiltered()
SAMPLES = [
    "PMID: 12345678 and PubMed id 99", "CID 2244 or pubchem compound 5793", "arXiv:1605.08386v2 and hep-th/9901001",
    "10.1038/nature12373", "BSYNRYMUTXBXSQ-UHFFFAOYSA-N", "mp-149, JVASP-1002, aflow:0123456789abcdef",
    "COD entry 9008564", "mc3d-1234 and oqmd-4521", "between 1999 and 2020", "Li-Fe-O", "Physics Stack Exchange", "tagged [python]",
    "the past week", "“Deep residual learning for image recognition”", "PASt YEAR", "Cıd 42",
    "the third episode of the second season", "season 3, episode 24", "at 35.78, -78.64", "right now",
    "the most cited papers", "the annual report", "Q1 and the first half", "HP:0001250 and NM_000059.3",
    "fr.wikipedia.org", "between 1000000 and 5000000", "currently live", "3 papers", "gene SHH",
    "on July 4, 2010 and the 4th of July 2010", "the third-quarter report", "Q3", "today's weekly and monthly",
    "this year and this hour", "the most popular, sorted by rank", "computed by density functional theory",
    "measured experimentally", "peer-reviewed papers", "the most-cited papers", "the paper 'Deep residual learning'",
    "on 2023.10.1 or 09/09/2023", "two passengers", "at 10:00 AM or 14:30:15, by noon, at 6 p.m.",
    "departing on April 15th and returning on the 22nd of April 2023",
    "le 12 janvier 2022 à 8 h 15, am 3. März 2021 um 20h30, el 5 de mayo de 2020",
    "2018年1月1日 0時0分0秒, 2022년 1월 12일 8시 15분",
]


def _spans(matches: object) -> list[tuple[int, int, tuple[str | None, ...]]]:
    return [(m.start(), m.end(), m.groups()) for m in matches]  # type: ignore[attr-defined]


def _same(text: str) -> None:
    for where, p in PATTERNS.items():
        assert _spans(p.finditer(text)) == _spans(p.pattern.finditer(text)), (where, text)
        assert (p.search(text) is None) == (p.pattern.search(text) is None), (where, text)


def test_the_package_prefilters_patterns() -> None:
    assert len(PATTERNS) >= 30


def test_skipping_changes_no_match_on_real_questions() -> None:
    questions = [q.query for q in load_queries()] + [q.query for q in load_dev_questions()]
    questions += [q.query for q in load_tmdb_queries()]
    for text in questions + SAMPLES:
        _same(text)


def test_every_prefiltered_pattern_matches_something_checked() -> None:
    questions = [q.query for q in load_queries()] + [q.query for q in load_dev_questions()] + SAMPLES
    silent = [w for w, p in PATTERNS.items() if not any(p.pattern.search(t) for t in questions)]
    assert not silent, f"no checked text matches {silent}: the equality test says nothing of them"


_PIECES = st.sampled_from(
    ["PMID", "PubMed", " id ", "CID", "cid", "PubChem", "10.", "1038", "/", ".", "-", ":", "COD", "19", "20", "99",
     "Stack", "Exchange", "Overflow", "tagged", "past", "last", "week", "this", "year", "'", '"', "‘", "“", "’", "”",
     "Li", "Fe", "O", "mp", "aflow", "x", " ", "Ab", "ABCDEFGHIJKLMN", "v2", "hep", "th", "1234567", "ı", "K",
     "third", "season", "episode", "3", "between", "and", "most", "cited", "annual", "now", "right", "live", "HP",
     "org", "wikipedia", "gene", "SHH", "July", "Sept.", "4,", "2010", "quarter", "q3", "half", "full", "today",
     "weekly", "hour", "popular", "sorted", "rank", "measured", "computed", "papers", "density functional"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=14).map("".join))
def test_skipping_changes_no_match_on_generated_text(text: str) -> None:
    _same(text)


def test_a_case_blind_pattern_takes_lower_case_substrings_and_reads_non_ascii_text() -> None:
    with pytest.raises(ValueError, match="lower case"):
        prefiltered(r"pmid", "PMID", flags=re.IGNORECASE)
    with pytest.raises(ValueError, match="at least one"):
        prefiltered(r"x")
    kelvin = prefiltered(r"\bkelvin\b", "kelvin", flags=re.IGNORECASE)
    assert kelvin.search("300 \u212aelvin") is not None  # the Kelvin sign folds to k: not skipped
    assert kelvin.search("300 degrees") is None
