"""Fit the router's re-ranking weights on the tune split of every suite, and write them to the package.

``python -m schemarouter_bench.fit_rerank [--check]``

The router re-ranks the read endpoints retrieval ranks best with a linear score over a few features
any registry has (:mod:`schemarouter.router.rerank`). Its weights are a conditional logit fitted
here: for each answerable *tune* question of every suite (first-party dev set, imported sources,
held-out scientific APIs, the API beside TMDB, RestBench TMDB, the tool-use and ToolBench suites), the candidates
the router scores and which of them is the gold target (the last step of any gold option). Each
suite weighs the same in the fit, so the thousand tool-use questions do not drown the rest. The
decline threshold is the probability above which answering a question the routes declined gains
more right answers than it answers questions that should be declined, on the same tune rows.
The logit's weights are then polished (:func:`polish`): moved one weight and one small step at a
time while the mean tune accuracy over suites rises and no suite's falls, since the likelihood is not
the accuracy a router is judged by. With ``--corpus DIR`` (an import corpus, ``make corpus``) the
imported-sources set and TMDB are also read over the crowded registry (:mod:`schemarouter_bench.crowded`),
so the weights hold where thousands of distractors crowd the candidates. ``--polish`` polishes the weights stored in the package instead
of fitting anew (the threshold is fitted again on the result). Test questions are never read. The result goes to
``schemarouter/router/data/rerank.json`` with what it was fitted on; ``--check`` fits and prints
without writing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
from collections import Counter
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from schemarouter.router import Router
from schemarouter.router.rerank import FEATURES, probability
from schemarouter_bench.frozen import Frozen
from schemarouter_bench.suites import TuneQuestion, tune_suites

L2 = 0.01
STEPS = 1500
LEARNING_RATE = 0.05


@dataclass
class Row:
    """One tune question: its candidates' features, which are gold, and what the routes planned."""

    suite: str
    answerable: bool
    features: np.ndarray  # candidates x features
    gold: np.ndarray  # bool per candidate
    given: list[bool]  # the question gives some of what it requires (``Scored.partly_given``)
    takes: list[bool]  # it takes the question's own values (``Scored.takes_the_question``)
    planned: bool  # the routes planned something (not declined)


def _rows(router: Router, suite: str, questions: list[TuneQuestion]) -> list[Row]:
    out = []
    for q in questions:
        analysis = router.understander.understand(q.query, router.graph)
        steps, scored = router.reranked(analysis)
        out.append(Row(
            suite, q.kind == "answer",
            np.array([s.features for s in scored], dtype=float).reshape(-1, len(FEATURES)),
            np.array([s.info.key in q.targets for s in scored], dtype=bool),
            [s.partly_given(router.graph) for s in scored], [s.takes_the_question() for s in scored], bool(steps),
        ))
    return out


def tune_rows(base: Frozen | None = None, dense: bool = True, corpus: Path | None = None) -> list[Row]:
    """Every tune question of every suite in English that asks for data or for nothing a source
    holds (requests to act are declined before re-ranking), as candidate rows; ``dense``: with the
    dense index, or as the lexical-only mode sees them; ``corpus``: with the crowded suites too."""
    rows: list[Row] = []
    for suite in tune_suites(base, corpus):
        kept = [q for q in suite.questions if q.lang == "en" and q.kind != "action"]
        rows += _rows(Router(suite.graph, dense=dense), suite.name, kept)
    return rows


def fit(rows: list[Row]) -> np.ndarray:
    """Weights maximizing the suite-weighted likelihood that a gold candidate is chosen (Adam, L2)."""
    data = [r for r in rows if r.answerable and r.gold.any()]
    per_suite = Counter(r.suite for r in data)
    weight = np.array([1.0 / per_suite[r.suite] for r in data])
    weight /= weight.sum()
    w = np.zeros(len(FEATURES))
    m, v = np.zeros_like(w), np.zeros_like(w)
    for t in range(1, STEPS + 1):
        grad = L2 * w
        for r, q in zip(data, weight, strict=True):
            s = r.features @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            pos = p[r.gold].sum()
            grad = grad + q * (p @ r.features - (p[r.gold] @ r.features[r.gold]) / pos)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= LEARNING_RATE * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w


def _best(r: Row, w: np.ndarray) -> tuple[bool, float] | None:
    """(is the planned candidate gold, its score), or None when there is none. The router plans the
    best candidate whether or not the question supplies all it requires (the step then names what
    is missing), unless the question gives none of it and a later candidate takes the question's
    own values."""
    s = r.features @ w
    order = [int(j) for j in np.argsort(-s, kind="stable")]  # among equals, retrieval's order
    for i, j in enumerate(order):
        if not r.given[j] and any(r.takes[k] for k in order[i + 1:]):
            continue
        return bool(r.gold[j]), float(s[j])
    return None


POLISH_STEPS = (0.25, -0.25, 0.1, -0.1)
POLISH_ROUNDS = 10


def polish(rows: list[Row], w: np.ndarray, frozen: frozenset[str] = frozenset()) -> np.ndarray:
    """``w`` moved one weight and one step at a time while the mean over suites of the tune accuracy
    (:func:`accuracy`) rises and no suite's falls: the likelihood the logit maximizes is not the
    accuracy a router is judged by. ``frozen``: features left as they are."""
    def score(v: np.ndarray) -> tuple[float, dict[str, float]]:
        per = accuracy(rows, v)
        return sum(per.values()) / len(per), per

    best = score(w)
    floor = best[1]  # no suite may end below where the logit left it
    for _round in range(POLISH_ROUNDS):
        moved = False
        for j, name in enumerate(FEATURES):
            if name in frozen:
                continue
            for step in POLISH_STEPS:
                trial = w.copy()
                trial[j] += step
                value, per = score(trial)
                if value > best[0] + 1e-9 and all(per[s] >= floor[s] for s in floor):
                    w, best, moved = trial, (value, per), True
                    break
        if not moved:
            break
    return w


def fit_threshold(rows: list[Row], w: np.ndarray) -> float:
    """The probability under which a question the routes declined stays declined."""
    declined = [(r.answerable, b) for r in rows if not r.planned and (b := _best(r, w)) is not None]
    best, gain = 1.0, 0
    for cut in sorted({probability(score) for _a, (_ok, score) in declined}):
        g = sum((1 if ok else 0) if answerable else -1 for answerable, (ok, score) in declined
                if probability(score) >= cut)
        if g > gain:
            best, gain = cut, g
    return best


def accuracy(rows: list[Row], w: np.ndarray) -> dict[str, float]:
    """Per suite, the share of answerable rows whose best candidate is gold."""
    out: dict[str, list[bool]] = {}
    for r in rows:
        if r.answerable:
            b = _best(r, w)
            out.setdefault(r.suite, []).append(bool(b and b[0]))
    return {suite: round(sum(v) / len(v), 3) for suite, v in out.items()}


def main(argv: list[str] | None = None) -> None:
    """Fit on the tune splits, print per-suite tune accuracy, and write the weights (unless --check)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    ap.add_argument("--check", action="store_true", help="fit and print, do not write")
    ap.add_argument("--polish", action="store_true",
                    help="polish the weights stored in the package on the tune splits instead of fitting anew")
    ap.add_argument("--corpus", type=Path, metavar="DIR",
                    help="an import corpus (make corpus): fit on the crowded suites' tune questions too")
    args = ap.parse_args(argv)
    stored = json.loads(files("schemarouter.router").joinpath("data", "rerank.json").read_text("utf-8"))
    doc: dict[str, Any] = {
        "about": "conditional-logit re-ranking weights fitted by schemarouter_bench.fit_rerank on the tune "
                 "split of every benchmark suite; test questions were not read. 'hybrid': with the dense "
                 "index (schemarouter-embeddings installed); 'lexical': without it",
        "fitted": dt.date.today().isoformat(),
        "method": ("the stored weights polished" if args.polish else "conditional logit, then polished")
                  + " on tune accuracy (fit_rerank.polish)",
    }
    for name, dense in (("hybrid", True), ("lexical", False)):
        rows = tune_rows(dense=dense, corpus=args.corpus)
        start = (np.array([float(stored[name]["weights"].get(f, 0.0)) for f in FEATURES]) if args.polish
                 else fit(rows))
        w = polish(rows, start, frozenset() if dense else frozenset({"dense", "dense_rank"}))
        cut = fit_threshold(rows, w)
        print(f"{name}: tune accuracy (best candidate is gold):", accuracy(rows, w))
        print(f"{name}: weights:", {f: round(float(x), 3) for f, x in zip(FEATURES, w, strict=True)},
              "threshold:", cut)
        doc["tune_questions"] = dict(Counter(r.suite for r in rows))
        doc[name] = {
            "weights": {f: round(float(x), 4) for f, x in zip(FEATURES, w, strict=True)},
            "bias": 0.0,
            "threshold": round(cut, 4) if math.isfinite(cut) else 1.0,
        }
    if not args.check:
        target = Path(str(files("schemarouter.router").joinpath("data", "rerank.json")))
        target.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {target}")


if __name__ == "__main__":
    main()
