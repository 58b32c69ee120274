"""Retrieval is the spine of every routing decision; what else the router knows re-ranks its top.

The candidates for a question are the read endpoints retrieval ranks best (BM25F over what every
endpoint declares, :mod:`schemarouter.graph.lexical`), plus the endpoint the vocabulary or open
route planned. Each is described by a few numbers any registry has (``FEATURES``): how well
retrieval ranks it (BM25F, and the dense index of :mod:`schemarouter.graph.dense` where
``schemarouter-embeddings`` is installed), whether the question can supply its required parameters (directly or through
a chain of producers), how much of the question it explains and spends, whether the question names
its source, whether the vocabulary route chose it. A linear score over them, with weights fitted on
the tune splits of the benchmark's suites (``schemarouter_bench.fit_rerank``; stored in
``data/rerank.json`` with where they came from; one model with the dense index, one for the
lexical-only mode), picks the target. Evidence re-ranks; it never turns
the best candidate into a decline: only a request to act (the understand step) or a best score
under the fitted threshold does. Whether the question supplies every required parameter is
evidence too: the best candidate is planned even where the question leaves every value out, and
its step names what is missing (:meth:`Scored.planned`). It yields only to a later candidate that
takes the question's own values (:meth:`Scored.takes_the_question`: "Look up dodo bones" is a
lookup's term, not a description that needs a key) and would itself be planned (where the routes
planned nothing, one under the threshold would be declined: the best is planned instead); a later
one that only a guess fills is no better (a question about "a specific artist" still asks for an
artist's tracks).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from schemarouter.graph import EndpointInfo, SchemaGraph
from schemarouter.graph.lexical import best_scored
from schemarouter.graph.terms import letters, naming_path, path_terms
from schemarouter.plan import Mode, PlanStep
from schemarouter.router.chains import ChainBuilder, Node, Relevance
from schemarouter.router.endpoint_facts import endpoint_facts
from schemarouter.router.guesses import guess_required
from schemarouter.router.memos import RouterGraphMemo
from schemarouter.router.open_route import (
    Explaining,
    OpenPlan,
    chain_steps,
    fill,
    question_values,
    read_numbers,
)
from schemarouter.router.runs import longest_run
from schemarouter.router.values import Filled
from schemarouter.understand.base import Analysis

TOP_K = 10  # read endpoints retrieval hands to the re-ranker

FEATURES = (
    "lexical",  # its BM25F score over the best candidate's
    "rank",  # 1 / (1 + its rank in retrieval)
    "current",  # it is the target the vocabulary or open route planned
    "vocabulary",  # ... and that plan came from the vocabulary (a concept, a named source, an entity),
    # times the share of the candidates the vocabulary describes (it chose among those only)
    "buildable",  # every required parameter is supplied, from the question or a chain of producers
    "direct",  # ... from the question alone (no producer step)
    "required",  # share of its required parameters the question supplies directly
    "spent",  # share of the question's values (names, ids, numbers...) its chain spends
    "explained",  # share of the question's term weight its chain's declarations explain (graded)
    "named",  # the question names its source
    "consensus",  # share of the candidates from its source
    "unsaid",  # share of its path's words the question does not say
    "guessed",  # share of its required parameters given a last-resort guess (router.guesses)
    "idle",  # the question writes values (names, ids, numbers...) and its chain spends none of them
    "dense",  # its cosine to the question in the dense index over the best cosine (0 without the index)
    "dense_rank",  # 1 / (1 + its rank in dense retrieval) (0 without the index)
    "answers",  # its own declaration says what the question asks for (understand.asked; 0 where none is read)
)
_CURRENT, _VOCABULARY, _GUESSED, _SPENT, _EXPLAINED = (
    FEATURES.index(n) for n in ("current", "vocabulary", "guessed", "spent", "explained"))
# The dense ranking the features read. Dense retrieval re-ranks BM25F's candidates and adds none of
# its own: adding its top 5 gave the same tune accuracy and cost a millisecond per question.
DENSE_WINDOW = 20


UNGIVEN = "required; the question does not give it"  # why a planned step lacks a required parameter


@dataclass
class Scored:
    """One candidate target, its chain (None: the question cannot supply it), features and score."""

    info: EndpointInfo
    chain: Node | None
    features: tuple[float, ...]
    score: float = 0.0
    dense: bool = False  # scored by the hybrid model (a dense index answered)
    filled: Filled | None = None  # what the question alone gives its parameters

    def partly_given(self, graph: SchemaGraph) -> bool:
        """Whether the question gives (or a guess reads off it) a value for at least one of the
        required parameters that declare no default: the question is about this endpoint's inputs
        even where it leaves some out. Always true for a candidate with a chain."""
        if self.chain is not None:
            return True
        values = self.filled.values if self.filled is not None else {}
        facts = endpoint_facts(graph, self.info)
        preset = {p.name for p in facts.defaults} | {p.name for p, _m in (*facts.everything, *facts.formats)}
        return any(name in values and name not in preset for _p, name in facts.required_named)

    def takes_the_question(self) -> bool:
        """Whether the question itself supplies everything it requires (no last-resort guess) and it
        spends some of the values the question writes, or it is the open route's own plan (a chain
        built from the question's words, a search given the words no source describes): the
        question is about its inputs."""
        f = self.features
        opened = bool(f[_CURRENT]) and not f[_VOCABULARY]
        return self.chain is not None and not f[_GUESSED] and (f[_SPENT] > 0 or opened)

    def planned(self, graph: SchemaGraph) -> Node:
        """The chain to plan: its chain, or, where the question cannot supply every required parameter,
        the endpoint alone with the values the question gives and each missing parameter named (an
        agent asks its user for those; the executor refuses the step until they are given)."""
        if self.chain is not None:
            return self.chain
        filled = self.filled or Filled()
        why = dict(filled.why)
        for p, _name in endpoint_facts(graph, self.info).required_named:
            if p.name not in filled.values:
                why[p.name] = UNGIVEN
        return Node(self.info, dict(filled.values), used=set(filled.used), why=why)

    def steps(self, graph: SchemaGraph, analysis: Analysis, mode: Mode) -> list[PlanStep]:
        """The plan steps of :meth:`planned`, scored by the share of the question it explains."""
        return chain_steps(OpenPlan(self.planned(graph), self.features[_EXPLAINED], set(), ()), graph, analysis, mode)


@cache
def _model(dense: bool = True) -> tuple[tuple[float, ...], float, float]:
    """(weights in ``FEATURES`` order, bias, decline threshold) fitted on the tune splits: with dense
    retrieval, or for the lexical-only mode (``schemarouter-embeddings`` not installed)."""
    data: dict[str, Any] = json.loads(files("schemarouter.router").joinpath("data", "rerank.json").read_text("utf-8"))
    model = data["hybrid" if dense else "lexical"]
    weights = model["weights"]
    return (tuple(float(weights.get(name, 0.0)) for name in FEATURES), float(model["bias"]),
            float(model["threshold"]))


def dense_scores(graph: SchemaGraph, analysis: Analysis) -> tuple[dict[int, float], dict[int, int]] | None:
    """(cosine over the best cosine, rank) of the read endpoints dense retrieval ranks first, or None
    when there is no dense index (lexical-only mode) or the question says nothing it knows."""
    # numpy and the model load only where the dense index is asked for (a CLI run need not pay them)
    from schemarouter.graph.dense import dense_index, without

    index = dense_index(graph)
    if index is None:
        return None
    text = without(analysis.text or analysis.question, [str(v) for v in question_values(analysis)])
    top = index.top(text, DENSE_WINDOW)
    if not top or top[0][1] <= 0:
        return None
    best = top[0][1]
    return {n: max(c, 0.0) / best for n, c in top}, {n: r for r, (n, _c) in enumerate(top)}


def score_candidates(graph: SchemaGraph, analysis: Analysis, current: Sequence[PlanStep],
                     vocabulary: bool, dense_too: bool = False) -> list[Scored]:
    """Every candidate target with its features and score, best first (ties keep retrieval's order).
    ``current``: the steps the vocabulary or open route planned (its last step is its target);
    ``vocabulary``: whether they came from the vocabulary route; ``dense_too``: read the dense index
    as well (where one is installed)."""
    lex = graph.lexical
    terms = list(dict.fromkeys([*analysis.all_terms, *(c for c in analysis.compounds if c in lex.idf)]))
    lexical = lex.score(terms)  # once: retrieval ranks by it and chains weigh their producers by it
    ranked = best_scored(lexical, TOP_K, read_numbers(graph))
    numbers = [n for n, _ in ranked]
    dense = dense_scores(graph, analysis) if dense_too else None
    target = graph.endpoints.get((current[-1].source, current[-1].endpoint)) if current else None
    if target is not None and graph.numbers.get(target.key) not in numbers:
        numbers.append(graph.numbers[target.key])
    if not numbers:
        return []
    scores = dict(ranked)
    best_score = ranked[0][1] if ranked and ranked[0][1] > 0 else 1.0
    relevance = Relevance(graph, lexical, best_score)
    builder = ChainBuilder(graph, analysis, lambda i, taken: fill_or_guess(i, graph, analysis, taken), relevance)
    values = question_values(analysis)
    explaining = Explaining(graph, analysis.terms, len(values))
    said = set(analysis.all_terms)
    forms = said_forms(said)
    named = set(analysis.understanding.named_tools)
    sources = [lex.keys[n][0] for n in numbers]
    described = sum(1 for n in numbers if graph.endpoints[lex.keys[n]].intents) / len(numbers)
    telling = graph.memos.of(RouterGraphMemo).telling_paths
    out: list[Scored] = []
    for rank, number in enumerate(numbers):
        info = graph.endpoints[lex.keys[number]]
        chain = builder.build(info)
        filled = builder.fill(info, frozenset())
        required = [p for p, _ in endpoint_facts(graph, info).required_named]
        supplied = sum(1 for p in required if p.name in filled.values and p.name not in filled.guessed)
        guessed = sum(1 for p in required if p.name in filled.guessed)
        is_current = target is not None and info.key == target.key
        if chain is not None:
            spent = len(values & chain.used) / len(values) if values else 0.0
            explained = explaining.both([n.info for n in chain.nodes()], spent * len(values), said=chain.said,
                                        prefixes=analysis.prefixes)[1]
        else:
            spent = len(values & filled.used) / len(values) if values else 0.0
            explained = explaining.both([info], spent * len(values), prefixes=analysis.prefixes)[1]
        path = telling.get(info.key)
        if path is None:  # per endpoint once: it reads the source's title, and candidates recur
            path = telling[info.key] = frozenset(telling_path_terms(info))
        features = (
            scores.get(number, 0.0) / best_score,
            1.0 / (1 + rank),
            float(is_current),
            float(is_current and vocabulary) * described,
            float(chain is not None),
            float(chain is not None and not chain.bindings),
            supplied / len(required) if required else 1.0,
            spent,
            explained,
            float(info.key.source in named),
            sources.count(info.key.source) / len(sources),
            unsaid_share(path, said, forms),
            guessed / len(required) if required else 0.0,
            float(bool(values) and spent == 0.0),
            dense[0].get(number, 0.0) if dense else 0.0,
            1.0 / (1 + dense[1][number]) if dense and number in dense[1] else 0.0,
            float(any(lex.strength(number, term) for term in analysis.asked)),
        )
        out.append(Scored(info, chain, features, _score(features, dense is not None), dense is not None, filled))
    out.sort(key=lambda s: -s.score)  # stable: retrieval's order among equals
    return out


def telling_path_terms(info: EndpointInfo) -> set[str]:
    """The terms of an endpoint's path that say what it does, for ``unsaid``: a segment that only
    spells its source's id or title ("/MusicTool" of the tool titled "Music Tool") names the tool,
    which a question need not say (``named`` weighs one that does), and a brand's words are no
    evidence either way ("Able Style" is no answer to a question about styles, nor "Music Tool" a
    wrong one for a question about music)."""
    names = frozenset((letters(info.key.source), letters(info.source_title)))
    return set(path_terms(naming_path(info.path, names)))


SHORTEST_STEM = 4  # a shortening this long or longer names its word ("calc", "hypot")
STEM_SLACK = 2  # letters by which two stems of one root may differ ("histor", "histori")


def said_forms(said: set[str]) -> frozenset[str]:
    """What a question says, for :func:`unsaid_share`: its terms and every shortening of one at least
    :data:`SHORTEST_STEM` letters long (worked out once per question)."""
    return frozenset(said) | {q[:n] for q in said for n in range(SHORTEST_STEM, len(q))}


def unsaid_share(path: AbstractSet[str], said: set[str], forms: frozenset[str] | None = None) -> float:
    """Share of a path's words the question does not say. A path word that shortens a word the
    question says says it (paths abbreviate: "calc_area", "math_hypot"), and so does one a letter or
    two longer than it (stems of one root: "histori" for history beside "histor" for historical); a
    path word that only begins with a word of the question ("formationenergi") does not, unless it
    is nothing but words the question says run together ("specificcolorset" for a question about a
    specific set of colors: :func:`run_together`). ``forms``: :func:`said_forms` of ``said``, where
    the caller has it."""
    if not path:
        return 0.0
    forms = said_forms(said) if forms is None else forms

    def says(term: str) -> bool:
        if term in forms:  # said, or a shortening of a word said
            return len(term) >= SHORTEST_STEM or term in said
        return len(term) > SHORTEST_STEM and (any(
            len(term) - k >= SHORTEST_STEM and term[:-k] in said for k in range(1, STEM_SLACK + 1))
            or run_together(term, said))

    return sum(1 for t in path - said if not says(t)) / len(path)


SHORTEST_PIECE = 3  # letters of the shortest said word a run-together path word is read as holding
# verbs that only say an endpoint returns something, which many APIs open an operation's name with
ACCESSORS = ("get", "list", "fetch", "find", "retrieve", "read", "search", "show", "query", "lookup")


def run_together(term: str, said: set[str]) -> bool:
    """Whether ``term`` is two or more words the question says written as one (paths of many APIs
    join words without a separator: "randomcolorset", "specificcolorset"), each a said stem of at
    least :data:`SHORTEST_PIECE` letters followed by at most :data:`STEM_SLACK` letters of its
    ending ("specif" + "ic"); an opening verb of :data:`ACCESSORS` need not be said ("getrandomarray"
    for "generate a random array", "listusers" for "the active users")."""
    stems = [s for s in said if len(s) >= SHORTEST_PIECE and s in term]
    accessor = next((v for v in ACCESSORS if term.startswith(v)), None)
    if len(stems) < (1 if accessor is not None else 2):
        return False
    pieces: dict[int, int] = {0: 0}  # position reached -> fewest words to reach it
    # a verb that only says the endpoint returns something may open the name unsaid ("get" of
    # "getrandomarray" for "generate a random array"): the words after it say what it returns
    if accessor is not None:
        pieces[len(accessor)] = 1
    for start in range(len(term)):
        if start not in pieces:
            continue
        for s in stems:
            if term.startswith(s, start):
                for ending in range(STEM_SLACK + 1):
                    end = start + len(s) + ending
                    if end <= len(term) and pieces.get(end, len(term)) > pieces[start] + 1:
                        pieces[end] = pieces[start] + 1
    return pieces.get(len(term), 0) >= 2


def fill_or_guess(info: EndpointInfo, graph: SchemaGraph, analysis: Analysis, taken: set[str]) -> Filled:
    """:func:`~schemarouter.router.open_route.fill`, then a guess for each required parameter it
    leaves empty (:func:`~schemarouter.router.guesses.guess_required`)."""
    out = Filled()
    out.merge(fill(info, graph, analysis, taken))  # a copy: the fill is shared (remembered per question)
    required = [p for p, _ in endpoint_facts(graph, info).required_named]
    if any(p.name not in out.values for p in required):
        lex, number = graph.lexical, graph.numbers.get(info.key)

        def own(term: str) -> bool:  # a word the endpoint's own declaration leaves unsaid
            return number is None or not lex.strength(number, term)

        out.merge(guess_required(required, analysis, out, lambda: longest_run(analysis, own)))
    return out


def _score(features: tuple[float, ...], dense: bool) -> float:
    weights, bias, _threshold = _model(dense)
    return bias + sum(w * x for w, x in zip(weights, features, strict=True))


def probability(score: float) -> float:
    """The score as the fitted model's probability that the candidate is the one asked for."""
    return 1.0 / (1.0 + math.exp(-score))


def threshold(dense: bool = True) -> float:
    """The probability under which the best candidate is no answer (fitted on the tune splits)."""
    return _model(dense)[2]
