"""How often retrieval puts the gold endpoint in its top: BM25F alone, dense alone, and their fusion.

Routing re-ranks retrieval's top read endpoints, so what retrieval misses the re-ranker never
sees. This measures, over the tune split of every suite, recall@1/5/10 of the gold target (the
last step of any gold option) among the read endpoints for: BM25F over the question's analysis
terms (as the router's ``retrieve`` scores them), the dense index (:mod:`schemarouter.graph.dense`),
and their reciprocal-rank fusion (equal weights, and the dense list at ``DENSE_WEIGHT``), and how often the gold target is in a pool of both
lists' tops; plus the dense index's per-question time and its build time and
size on each registry. ``python -m schemarouter_bench.dense_recall`` prints the table;
``--scale 10000`` measures the index over 10,000 synthesized sources.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass

from schemarouter.graph import SchemaGraph
from schemarouter.graph.dense import DenseIndex, Encoder, build_dense, load_encoder, without
from schemarouter.graph.lexical import best_scored
from schemarouter.router.open_route import question_values
from schemarouter.understand.base import Analysis
from schemarouter.understand.rules import RulesUnderstander
from schemarouter_bench.frozen import load_frozen
from schemarouter_bench.suites import dev_rows, tune_suites
from schemarouter_bench.synth import synthesize

RRF_K = 60  # the usual reciprocal-rank constant: rank 1 and rank 5 differ, rank 40 and 45 barely
DEPTH = 50  # how deep each list is read for the fusion
DENSE_WEIGHT = 0.5  # the dense list's share in the weighted fusion: the static model ranks below BM25F alone
CUTS = (1, 5, 10)
POOL = (10, 5)  # the candidate pool measured: BM25F's top 10 plus the dense top 5 (what a re-ranker sees)

Item = tuple[str, set[tuple[str, str]]]  # a question and its gold target keys


@dataclass
class Suite:
    """One suite's tune questions over the registry they are asked of."""

    name: str
    graph: SchemaGraph
    items: list[Item]


def suites() -> list[Suite]:
    """The tune split of every suite, with gold targets that are read endpoints of the registry."""
    out = [Suite(suite.name, suite.graph, [(q.query, set(q.targets)) for q in suite.questions
                                           if q.kind == "answer" and q.targets])
           for suite in tune_suites()]
    for s in out:  # gold that is no read endpoint of the registry cannot be retrieved by either
        s.items = [(q, gold) for q, gold in s.items if any(_is_read(s.graph, k) for k in gold)]
    return out


def _is_read(graph: SchemaGraph, key: tuple[str, str]) -> bool:
    info = graph.endpoints.get(key)
    return info is not None and info.endpoint.access == "read"


def fuse(*ranked: Iterable[int], weights: tuple[float, ...] | None = None) -> list[int]:
    """Reciprocal-rank fusion of ranked lists of endpoint numbers, best first (ties by number);
    ``weights``: each list's weight (default: all 1)."""
    score: dict[int, float] = {}
    for i, ranking in enumerate(ranked):
        weight = 1.0 if weights is None else weights[i]
        for rank, n in enumerate(ranking):
            score[n] = score.get(n, 0.0) + weight / (RRF_K + 1 + rank)
    return [n for n, _ in sorted(score.items(), key=lambda item: (-item[1], item[0]))]


def dense_query(analysis: Analysis) -> str:
    """The question as the dense index is asked it: the values it carries (names, identifiers,
    numbers, dates) taken out, since a static model averages their tokens in with the words that
    say what is asked."""
    return without(analysis.question, question_values(analysis))


def measure(suite: Suite, index: DenseIndex) -> dict[str, object]:
    """Recall@CUTS of each retriever on one suite, and the dense per-question time (ms)."""
    graph = suite.graph
    understander = RulesUnderstander()
    reads = frozenset(index.numbers.tolist())
    hits: dict[str, list[int]] = {name: [0] * len(CUTS) for name in ("bm25f", "dense", "fused", "wfused")}
    pooled = 0
    times: list[float] = []
    for question, gold in suite.items:
        targets = {graph.numbers[k] for k in gold if k in graph.numbers}
        analysis = understander.understand(question, graph)
        terms = list(dict.fromkeys([*analysis.all_terms,
                                    *(c for c in analysis.compounds if c in graph.lexical.idf)]))
        lexical = [n for n, _ in best_scored(graph.lexical.score(terms), DEPTH, reads)]
        start = time.perf_counter()
        dense = [n for n, _ in index.top(dense_query(analysis), DEPTH)]
        times.append((time.perf_counter() - start) * 1000)
        for name, ranking in (("bm25f", lexical), ("dense", dense), ("fused", fuse(lexical, dense)),
                              ("wfused", fuse(lexical, dense, weights=(1.0, DENSE_WEIGHT)))):
            for i, cut in enumerate(CUTS):
                hits[name][i] += bool(targets & set(ranking[:cut]))
        pooled += bool(targets & {*lexical[:POOL[0]], *dense[:POOL[1]]})
    n = len(suite.items) or 1
    return {"suite": suite.name, "questions": len(suite.items), "endpoints": len(reads),
            **{f"{name}@{cut}": round(h[i] / n, 3) for name, h in hits.items() for i, cut in enumerate(CUTS)},
            f"pool bm25f@{POOL[0]}+dense@{POOL[1]}": round(pooled / n, 3),
            "dense_ms_p50": round(statistics.median(times), 3) if times else None}


def scale(n: int, encode: Encoder, questions: list[str]) -> dict[str, object]:
    """The dense index over ``n`` synthesized sources (:func:`schemarouter_bench.synth.synthesize`):
    build time, the vectors' size, the process's peak RSS, and the per-question top-10 time."""
    from schemarouter.graph import build_graph

    graph = build_graph(synthesize(load_frozen().decls, n), None)
    rss_graph = peak_rss_mb()
    start = time.perf_counter()
    index = build_dense(graph, encode)
    build_s = time.perf_counter() - start
    times = []
    for q in questions:
        t0 = time.perf_counter()
        index.top(q, 10)
        times.append((time.perf_counter() - t0) * 1000)
    return {"sources": n, "read_endpoints": len(index.numbers), "build_s": round(build_s, 2),
            "vectors_mb": round(index.vectors.nbytes / 1e6, 1), "rss_peak_graph_mb": round(rss_graph),
            "rss_peak_with_vectors_mb": round(peak_rss_mb()),
            "top10_ms_p50": round(statistics.median(times), 3), "top10_ms_max": round(max(times), 3)}


def peak_rss_mb() -> float:
    """This process's peak resident memory (VmHWM), in MB."""
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main(argv: list[str] | None = None) -> int:
    """Print one JSON line per suite, then one per registry with the index's build time and size;
    with ``--scale N``, the index over N synthesized sources instead."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=0, help="measure the index over this many synthesized sources")
    args = parser.parse_args(argv)
    encode = load_encoder()
    if encode is None:
        print("error: schemarouter-embeddings is not installed (pip install -e embeddings)", file=sys.stderr)
        return 2
    encode(["warm up"])  # load the model before anything is timed
    if args.scale:
        print(json.dumps(scale(args.scale, encode, [q["query"] for q in dev_rows()])))
        return 0
    built: dict[int, DenseIndex] = {}
    for suite in suites():
        if not suite.items:  # a suite kept whole for testing (held out) has no tune split
            continue
        index = built.get(id(suite.graph))
        if index is None:
            start = time.perf_counter()
            index = built[id(suite.graph)] = build_dense(suite.graph, encode)
            print(json.dumps({"registry": suite.name, "read_endpoints": len(index.numbers),
                              "build_s": round(time.perf_counter() - start, 3),
                              "vectors_mb": round(index.vectors.nbytes / 1e6, 2)}), flush=True)
        print(json.dumps(measure(suite, index)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
