"""Of two endpoints whose paths differ in one word, the one whose word the question writes.

APIs often declare one endpoint per variant of a resource, their paths alike but for one segment:
``/history/daily`` and ``/history/hourly``, ``/forecast/daily`` and ``/forecast/hourly``. Where the
plan's target has such a sibling, selecting by the same parameters, and the question writes the
sibling's word ("historical *hourly* irradiance") but not the target's, the sibling is the variant
asked for: the plan is made for it instead, where the question supplies it as it did the target.
How much of the question a declaration's prose explains cannot outweigh the one word that tells the
variants apart. A word counts as written only as the question writes it, a word or a run of words
joined ("air quality" for ``/airquality``), never a shortening or a word inside another ("day" of
"today").
"""

from __future__ import annotations

import re

from schemarouter.graph import EndpointInfo, SchemaGraph
from schemarouter.plan import Mode, PlanStep
from schemarouter.router.rerank import score_candidates
from schemarouter.understand.base import Analysis

_LONGEST_RUN = 3  # words a path segment may join ("top_rated", "airquality", "on_the_air")


def _segments(path: str) -> list[str]:
    return path.split("?", 1)[0].strip("/").split("/")


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def written_runs(question: str) -> frozenset[str]:
    """Every run of up to :data:`_LONGEST_RUN` consecutive words of ``question``, joined, lower case,
    with and without a plural's final "s"."""
    words = [_letters(w) for w in question.split()]
    words = [w for w in words if w]
    out: set[str] = set()
    for i in range(len(words)):
        for n in range(1, _LONGEST_RUN + 1):
            if i + n <= len(words):
                run = "".join(words[i:i + n])
                out.add(run)
                if run.endswith("s"):
                    out.add(run[:-1])
    return frozenset(out)


def said_sibling(graph: SchemaGraph, target: EndpointInfo, question: str) -> EndpointInfo | None:
    """The one read endpoint of ``target``'s source whose path differs from the target's in one literal
    segment and selects alike (the same query template), whose segment the question writes where it
    does not write the target's; None where there is none, or more than one."""
    runs = written_runs(question)
    mine = _segments(target.path)
    if len(mine) < 2:
        return None  # a path of one segment has no variants: every operation differs there
    query = target.path.partition("?")[2]
    found: list[EndpointInfo] = []
    for other in graph.source_endpoints(target.key.source):
        if other.key == target.key or other.access != "read" or other.path.partition("?")[2] != query:
            continue
        theirs = _segments(other.path)
        if len(theirs) != len(mine):
            continue
        differ = [i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a != b]
        if len(differ) != 1 or "{" in mine[differ[0]] or "{" in theirs[differ[0]]:
            continue
        own, sibling = _letters(mine[differ[0]]), _letters(theirs[differ[0]])
        if own and sibling and sibling in runs and own not in runs:
            found.append(other)
    return found[0] if len(found) == 1 else None


def the_variant_written(steps: list[PlanStep], graph: SchemaGraph, analysis: Analysis, mode: Mode,
                        dense: bool) -> list[PlanStep]:
    """``steps``, or where their one step has a sibling the question writes (:func:`said_sibling`), the
    plan for the sibling, where the question supplies what it requires."""
    if len(steps) != 1:
        return steps
    target = graph.endpoints.get((steps[0].source, steps[0].endpoint))
    if target is None:
        return steps
    sibling = said_sibling(graph, target, analysis.question)
    if sibling is None:
        return steps
    probe = PlanStep(source=sibling.key.source, endpoint=sibling.key.endpoint, fields=[])
    for candidate in score_candidates(graph, analysis, [probe], False, dense):
        if candidate.info.key == sibling.key and candidate.chain is not None and not candidate.chain.bindings:
            return candidate.steps(graph, analysis, mode)
    return steps
