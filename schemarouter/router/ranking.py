"""Candidates for one question in ranking order, without scoring every endpoint.

The router's ranking is a sort of every endpoint by its key (descending), ties by label. Only the
endpoints a question's concepts reach (found through the graph's indexes,
:func:`~schemarouter.router.matching.concept_hits`) have a non-zero match; every endpoint serving the
intent belongs to one of the groups the graph presorted at build time
(:mod:`schemarouter.graph.order`), whose members differ only in facts that never vary by question.
So the pool is a lazy merge of a few presorted runs: per group, its reached endpoints bucketed by
score, and its unreached rest. A candidate (its field match, its key) is built only when a plan
reads that far, usually a handful per question.

Filters are decided once per run: :meth:`Pool.where` for tests that read only the key and the
group's facts (what every candidate of a run shares), :meth:`Pool.with_provenance` from the source
type a run knows its candidates answer with (the source's, when nothing matched; the one type all
the endpoint's fields have, when something did), else by testing each candidate as it is read.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schemarouter.graph import EndpointInfo
    from schemarouter.router.matching import EndpointMatch

SortKey = tuple[Any, ...]
Entry = tuple[SortKey, "EndpointInfo"]


@dataclass
class Candidate:
    """An endpoint ranked for one question: how its fields match, and its ranking key."""

    info: EndpointInfo
    match: EndpointMatch
    key: SortKey

    @property
    def source(self) -> str:
        """The id of the endpoint's source."""
        return self.info.key.source


def ranking_key(fit: int, score: float, serves: int, web: int, coverage: int, evidence: float, priority: int,
                n_fields: int) -> SortKey:
    """The one ranking key, compared descending: entity fit, concept-match score, serves the intent,
    not web, coverage of the intent's field groups, intent evidence, source priority, fewest fields."""
    return (fit, score, serves, web, coverage, round(evidence, 3), priority, -n_fields)


def ascending(key: SortKey, label: str) -> SortKey:
    """``key`` negated, then the label: the ranking as an ascending sort, ties by label."""
    return (*(-x for x in key), label)


def sort_key(c: Candidate) -> SortKey:
    """Key descending, then label ascending (the order of ``Router.candidates``)."""
    return ascending(c.key, c.info.label)


class Run:
    """A presorted run of (sort key, endpoint), generated as read and kept for the next reader.

    ``match`` is the match every endpoint of the run has (an unreached run), or None when each
    endpoint's own match must be built (a bucket of reached endpoints)."""

    def __init__(self, entries: Iterator[Entry], match: EndpointMatch | None, provenance: str | None) -> None:
        self._entries = entries
        self._seen: list[Entry] = []
        self._done = False
        self.match = match
        self.provenance = provenance  # what ``_provenance`` gives every candidate of the run, if known

    def _pull(self) -> bool:
        if self._done:
            return False
        nxt = next(self._entries, None)
        if nxt is None:
            self._done = True
            return False
        self._seen.append(nxt)
        return True

    def head(self) -> Entry | None:
        """The run's first entry, or None when it is empty."""
        if not self._seen:
            self._pull()
        return self._seen[0] if self._seen else None

    def __iter__(self) -> Iterator[Entry]:
        i = 0
        while i < len(self._seen) or self._pull():
            yield self._seen[i]
            i += 1


Test = Callable[["Candidate"], bool]


class Pool:
    """Candidates in ranking order, merged lazily from runs, each with the per-candidate tests it still needs."""

    def __init__(self, runs: list[tuple[Run, tuple[Test, ...]]], build: Callable[[EndpointInfo, Run], Candidate],
                 proxy: Callable[[Entry, Run], Candidate]) -> None:
        self.runs = runs
        self._build = build  # the real candidate (cached by the caller)
        self._proxy = proxy  # a stand-in with the run's shared key and match, for run-level tests

    def where(self, keep: Test) -> Pool:
        """Runs whose candidates pass ``keep``, which may read only a candidate's key and group facts."""
        out: list[tuple[Run, tuple[Test, ...]]] = []
        for run, tests in self.runs:
            head = run.head()
            if head is not None and keep(self._proxy(head, run)):
                out.append((run, tests))
        return Pool(out, self._build, self._proxy)

    def with_provenance(self, kind: str, provenance: Callable[[Candidate], str]) -> Pool:
        """Candidates whose ``provenance`` is ``kind``: decided per run where the run knows it."""
        out: list[tuple[Run, tuple[Test, ...]]] = []
        for run, tests in self.runs:
            if run.provenance is None:
                out.append((run, (*tests, lambda c: provenance(c) == kind)))
            elif run.provenance == kind:
                out.append((run, tests))
        return Pool(out, self._build, self._proxy)

    def __iter__(self) -> Iterator[Candidate]:
        tagged = [_tag(run, tests) for run, tests in self.runs]
        for _, info, run, tests in heapq.merge(*tagged, key=itemgetter(0)):
            c = self._build(info, run)
            if all(t(c) for t in tests):
                yield c

    def __bool__(self) -> bool:
        return self.first() is not None

    def first(self) -> Candidate | None:
        """The best candidate, or None."""
        return next(iter(self), None)


def _tag(run: Run, tests: tuple[Test, ...]) -> Iterator[tuple[SortKey, EndpointInfo, Run, tuple[Test, ...]]]:
    for sk, info in run:
        yield sk, info, run, tests


def phrase_scores(concepts: list[str], matched: dict[str, str], best_of: Callable[[str, str], dict[tuple[str, str], float]],
                  phrase_of: Callable[[str], str]) -> dict[tuple[str, str], float]:
    """Match score of every reached endpoint, as ``match_endpoint`` sums it: per phrase of the question the
    best of its concepts, added in the order the phrases first appear (so the floats are the same)."""
    phrases: dict[str, list[dict[tuple[str, str], float]]] = {}
    for concept in concepts:
        said = matched.get(concept, concept)
        phrases.setdefault(phrase_of(said), []).append(best_of(concept, said))
    if len(phrases) == 1 and len(maps := next(iter(phrases.values()))) == 1:
        return dict(maps[0])  # 0 + b == b
    totals: dict[tuple[str, str], float] = {}
    for maps in phrases.values():
        if len(maps) == 1:
            best = maps[0]
        else:
            best = {}
            for m in maps:
                for k, v in m.items():
                    if best.get(k, 0.0) < v:
                        best[k] = v
        for k, b in best.items():
            totals[k] = totals.get(k, 0) + b
    return totals
