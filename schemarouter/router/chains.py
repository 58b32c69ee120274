"""Chained steps: a required parameter the question does not give is bound to an earlier step.

``GET /movie/{movie_id}/credits`` needs an id; "Who starred in The Dark Knight?" gives a title. The
graph's links (:mod:`schemarouter.graph.links`) say which endpoints return records carrying a
``movie_id``; of those, the one the question can drive best is chosen (a search that takes the
title, a list the question's words describe such as "top rated"), recursively, to a bounded
depth and never through the same endpoint twice. The result is a small tree of :class:`Node`
whose bindings become ``{"from": step, "field": ..., "pick": "first"}`` in the plan.

A required parameter that neither the question nor a producer can supply leaves the endpoint with
no chain: a declared ``example`` is never a value. (Re-ranking may still plan it alone, naming
what is missing, where it ranks first: :meth:`schemarouter.router.rerank.Scored.planned`.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from schemarouter.graph import EndpointInfo, SchemaGraph
from schemarouter.graph.links import Link, resource_of
from schemarouter.graph.terms import literal_segments, path_terms
from schemarouter.router.endpoint_facts import endpoint_facts, missing_required
from schemarouter.router.memos import RouterGraphMemo
from schemarouter.router.param_facts import is_search_parameter
from schemarouter.router.values import Filled
from schemarouter.understand.base import Analysis

MAX_DEPTH = 3
MOST_RELEVANT = 1  # further producers built for how well the question's words rank them
MAX_PRODUCERS = 4  # producers built per missing parameter (the most likely, by link, path and relevance)
_HOW = {"declared": 2.0, "same name": 1.0, "nested id": 1.0, "resource id": 0.5, "listed records": 0.5}

Filler = Callable[[EndpointInfo, set[str]], Filled]


@dataclass
class Node:
    """One step of a chain: an endpoint, its literal values and the producers of the rest."""

    info: EndpointInfo
    values: dict[str, Any]
    bindings: dict[str, tuple[Node, Link]] = field(default_factory=dict, init=False)
    used: set[str] = field(default_factory=set, kw_only=True)  # question values spent by this node and its producers
    weak: set[str] = field(default_factory=set, kw_only=True)  # of those, the ones tied to their parameter only by shape
    tied: set[str] = field(default_factory=set, kw_only=True)  # of those, the ones the question's words tie to their parameter
    said: set[str] = field(default_factory=set, kw_only=True)  # question terms an enum member or flag the chain sends speaks for
    why: dict[str, str] = field(default_factory=dict, kw_only=True)
    score: float = field(default=0.0, init=False)  # how well the producers fit the question (for choosing among chains)

    def nodes(self) -> list[Node]:
        """Producers first (depth first), then this node: the order steps run in."""
        if not self.bindings:
            return [self]
        out: list[Node] = []
        for producer, _ in self.bindings.values():
            for n in producer.nodes():
                if all(n is not seen for seen in out):
                    out.append(n)
        out.append(self)
        return out


class Relevance:
    """How well the question's words rank an endpoint: its BM25F score over the best candidate's
    (0.0 for one they do not reach). A class rather than a closure: compiled code calls its method
    directly, where calling a closure goes through Python's calling convention, and chains ask it
    of every producer they weigh."""

    def __init__(self, graph: SchemaGraph, scored: Mapping[int, float], best: float) -> None:
        self.numbers = graph.numbers
        self.scored = scored
        self.best = best

    def of(self, info: EndpointInfo) -> float:
        """``info``'s score relative to the best."""
        number = self.numbers.get(info.key)
        return 0.0 if number is None else self.scored.get(number, 0.0) / self.best

    def of_number(self, number: int | None) -> float:
        """:meth:`of` the endpoint numbered ``number`` in the lexical index (None: not in it)."""
        return 0.0 if number is None else self.scored.get(number, 0.0) / self.best


class ChainBuilder:
    """Builds chains for one question over one graph, remembering what it already filled and built
    (the same producer serves many candidate targets)."""

    def __init__(self, graph: SchemaGraph, analysis: Analysis, fill: Filler, relevance: Relevance) -> None:
        self.graph = graph
        self.analysis = analysis
        self._fill = fill
        self.relevance = relevance
        self._filled: dict[tuple[tuple[str, str], frozenset[str]], Filled] = {}
        self._said = frozenset(analysis.all_terms)
        self._built: dict[tuple[tuple[str, str], int, frozenset[str], frozenset[tuple[str, str]]], Node | None] = {}
        # (consumer key, parameter) -> its producers' links, most likely first (see ``_likely``)
        self._ranked: dict[tuple[tuple[str, str], str], list[Link]] = {}
        # ... and those the question's words reach, most relevant first (see ``_most_relevant``)
        self._relevant: dict[tuple[tuple[str, str], str], list[Link]] = {}
        # (producer node, how it links, the resource it supplies) -> its score: many consumers share
        # one producer (the nodes live as long as the builder, so their ids stay theirs)
        self._scores: dict[tuple[int, str, tuple[str, ...]], float] = {}

    def fill(self, info: EndpointInfo, taken: frozenset[str]) -> Filled:
        """The endpoint's values given the question values already ``taken`` (remembered per question)."""
        found = self._filled.get((info.key, frozenset()))
        if found is None:
            found = self._filled[(info.key, frozenset())] = self._fill(info, set())
        if not taken or not (found.used & taken):
            # values others took are values this fill did not use: it would choose the same
            return found
        key = (info.key, taken)
        found = self._filled.get(key)
        if found is None:
            found = self._filled[key] = self._fill(info, set(taken))
        return found

    def build(self, info: EndpointInfo, depth: int = MAX_DEPTH,
              visiting: frozenset[tuple[str, str]] = frozenset(), taken: frozenset[str] = frozenset()) -> Node | None:
        """A chain ending at ``info`` with every required parameter supplied, or None."""
        # the endpoints being visited change a chain only where they are among its producers: a last
        # step has none, the one before it only its direct ones (so alike builds are shared)
        if depth <= 1:
            visiting = frozenset()
        elif depth == 2 and visiting:
            visiting = visiting & self._direct_producers(info)
        key = (info.key, depth, taken, visiting)
        if key in self._built:
            return self._built[key]
        node = self._build(info, depth, visiting, taken)
        self._built[key] = node
        return node

    def _build(self, info: EndpointInfo, depth: int, visiting: frozenset[tuple[str, str]],
               taken: frozenset[str]) -> Node | None:
        filled = self.fill(info, taken)
        if not filled.values and endpoint_facts(self.graph, info).any_concept:
            return None  # it selects records by an entity the question does not give: no request to make
        if filled.guessed and depth < MAX_DEPTH:
            # a search for words the question does not name is an answer only when it is what was
            # asked; its first hit is no record to build on
            return None
        missing = missing_required(self.graph, info, filled.values)
        if not missing:
            # a last step: it shares the fill's values (remembered per question, never changed)
            return Node(info, filled.values, used=filled.used, weak=filled.weak, tied=filled.tied,
                        said=filled.said, why=filled.why)
        if depth <= 1:
            return None
        # its own copies: the producers' values are added to them below
        node = Node(info, dict(filled.values), used=set(filled.used), weak=set(filled.weak),
                    tied=set(filled.tied), said=set(filled.said), why=dict(filled.why))
        links = self.graph.links.get(info.key, {})
        spent = set(taken) | node.used
        inside = visiting | {info.key}  # the producers' builds visit this endpoint too
        for p in missing:
            best: tuple[float, Node, Link] | None = None
            resource = resource_of(p.name, info.path)
            spent_now = frozenset(spent)
            for link in self._likely(links.get(p.name, ()), p.name, info, visiting):
                producer = self.graph.endpoints[link.producer]
                sub = self.build(producer, depth - 1, inside, spent_now)
                if sub is None or _arbitrary(sub, resource, self._said):
                    continue
                score = self._producer_score(sub, link, resource)
                if best is None or score > best[0]:
                    best = (score, sub, link)
            if best is None:
                return None
            score, sub, link = best
            node.bindings[p.name] = (sub, link)
            node.used |= sub.used
            node.weak |= sub.weak
            node.tied |= sub.tied
            node.said |= sub.said
            node.score += score
            spent |= sub.used
        return node

    def _producer_score(self, sub: Node, link: Link, resource: tuple[str, ...]) -> float:
        """:func:`producer_score`, once per producer, link kind and resource."""
        key = (id(sub), link.how, resource)
        found = self._scores.get(key)
        if found is None:
            found = self._scores[key] = producer_score(sub, link, resource, self.relevance, self._said)
        return found

    def _direct_producers(self, info: EndpointInfo) -> frozenset[tuple[str, str]]:
        """The endpoints that can supply some parameter of ``info`` (remembered per graph)."""
        known = self.graph.memos.of(RouterGraphMemo).direct_producers
        found = known.get(info.key)
        if found is None:
            links = self.graph.links.get(info.key, {})
            found = known[info.key] = frozenset(link.producer for group in links.values() for link in group)
        return found

    def searchable(self, info: EndpointInfo) -> bool:
        """Whether ``info`` has a free-text parameter (remembered per graph)."""
        known = self.graph.memos.of(RouterGraphMemo).searchable
        found = known.get(info.key)
        if found is None:
            found = known[info.key] = any(is_search_parameter(p) for p in info.parameters)
        return found

    def _likely(self, links: Iterable[Link], param: str, consumer: EndpointInfo,
                visiting: frozenset[tuple[str, str]]) -> list[Link]:
        """The few producers worth building, by what is known before building them: how sure the link
        is, whether the producer's path names the resource, how relevant it is to the question."""
        key = (consumer.key, param)
        ranked = self._ranked.get(key)
        if ranked is None:
            names = bool(self.analysis.names)
            own = self.analysis.own
            relevance = self.relevance
            scored: list[tuple[float, float, Link]] = []
            for fixed, link, number, searchable, account in self._producers(links, param, consumer):
                if not own and account:
                    # the caller's own space supplies a chain only for a question about the asker's
                    # own records (as it answers only those: router.core): a public article's id is
                    # never looked up in "my" articles
                    continue
                # a search can spend the name the question asks about; a list cannot
                search = 3.0 if names and searchable else 0.0
                relevant = relevance.of_number(number)
                scored.append((fixed + search + relevant, relevant, link))
            scored.sort(key=lambda t: -t[0])  # stable: those skipped below leave the others' order
            ranked = self._ranked[key] = [link for _, _, link in scored]
            # those the question's words reach, most relevant first, equals in the order above (see
            # ``_most_relevant``): worked out here, where each producer's relevance is at hand
            reached = [(relevant, link) for _, relevant, link in scored if relevant > 0]
            reached.sort(key=lambda t: -t[0])
            self._relevant[key] = [link for _, link in reached]
        out: list[Link] = []
        for link in ranked:
            if link.producer not in visiting:
                out.append(link)
                if len(out) == MAX_PRODUCERS:
                    break
        # the producers the question's words describe best are weighed too, whatever their link:
        # "movies directed by Coppola" reaches a movie through the person's credits, no search
        chosen = {id(link) for link in out}  # links are compared as objects: one per (producer, field)
        rest: list[Link] = []
        for link in self._most_relevant(key):
            if link.producer not in visiting and id(link) not in chosen:
                rest.append(link)
                if len(rest) == MOST_RELEVANT:
                    break
        return out + rest

    def _most_relevant(self, key: tuple[tuple[str, str], str]) -> list[Link]:
        """The producers' links of (consumer, parameter) ``key`` the question's words reach, most
        relevant first (equals in the likely order), as :meth:`_likely` worked them out."""
        return self._relevant[key]

    def _producers(self, links: Iterable[Link], param: str,
                   consumer: EndpointInfo) -> list[tuple[float, Link, int | None, bool, bool]]:
        """The producers of ``param`` of ``consumer`` with what no question changes: the link's
        sureness plus whether the producer's path names the resource, the producer's number in the
        lexical index, whether it can search and whether it reads the caller's own space (worked out
        once per graph)."""
        memo = self.graph.memos.of(RouterGraphMemo).producers
        key = (consumer.key, param)
        found: list[tuple[float, Link, int | None, bool, bool]] | None = memo.get(key)
        if found is None:
            resource = resource_of(param, consumer.path)
            found = []
            for link in links:
                producer = self.graph.endpoints.get(link.producer)
                if producer is None or producer.key == consumer.key:
                    continue
                segments = path_terms(producer.path)
                names = 1.0 if resource and segments and resource[-1] in (segments[0], segments[-1]) else 0.0
                found.append((_HOW.get(link.how, 0.0) + names, link, self.graph.numbers.get(producer.key),
                              self.searchable(producer), producer.endpoint.scope == "account"))
            memo[key] = found
        return found


def producer_score(sub: Node, link: Link, resource: tuple[str, ...],
                    relevance: Relevance, said: frozenset[str]) -> float:
    """Prefer producers that spend a value of the question (a search by the name asked about), that
    the question's words describe ("top rated"), whose path says nothing the question does not
    (/tv/popular over /discover/tv for "the most popular TV show"), that the link is sure of, and
    short chains."""
    score = _HOW.get(link.how, 0.0)
    nodes = sub.nodes()
    if sub.used - sub.weak:
        score += 3.0
    score += len(sub.said)  # its enum values answer words of the question ("today's most trending")
    score += relevance.of(sub.info)
    segments = path_terms(sub.info.path)
    if resource and segments and resource[-1] in (segments[0], segments[-1]):
        score += 1.0  # /search/movie or /movie/top_rated for a movie_id
    if not sub.used - sub.weak:
        score -= 0.5 * len(set(segments) - said)  # a list the question's words do not name
    return score - 1.5 * (len(nodes) - 1)  # every further step must earn its place


def _arbitrary(sub: Node, resource: tuple[str, ...], said: frozenset[str]) -> bool:
    """Whether a producer would hand on an arbitrary record: it takes nothing from the question (no
    value, no producer of its own) and its path says nothing the question does after the collection
    it lists ("/districts" for a district_id, "/stations" for a station's district), so its first
    record is whichever the server lists first. A list the question describes by a word after its
    collection's name ("/tv/popular" for "the most popular show") is ordered by what was asked, and
    its first record is the answer."""
    if sub.values or sub.bindings or sub.used - sub.weak:
        return False
    return _qualifiers(sub.info.path, resource).isdisjoint(said)


@lru_cache(maxsize=65_536)  # per path and resource: every producer of every candidate asks, for every question
def _qualifiers(path: str, resource: tuple[str, ...]) -> frozenset[str]:
    """The terms of a path after its collection's own, less the resource's (/tv/popular: popular;
    /districts: none)."""
    return frozenset(t for seg in literal_segments(path)[1:] for t in path_terms("/" + seg)) - frozenset(resource)
