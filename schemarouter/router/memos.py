"""What the router works out once and reads many times, as typed memos it owns.

:class:`RouterGraphMemo` holds the answers about one graph (kept in ``graph.memos``; the graph is
immutable once built, so they never go stale), :class:`QuestionMemo` those about one question
(kept in ``analysis.memos``). Neither lower layer knows these classes: see :mod:`schemarouter.memos`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from schemarouter.graph.links import Link
    from schemarouter.graph.records import EndpointKey
    from schemarouter.router.endpoint_facts import EndpointFacts
    from schemarouter.router.matching import Hit
    from schemarouter.router.open_route import Described
    from schemarouter.router.question_facts import QuestionWords
    from schemarouter.router.values import Filled
    from schemarouter.understand.entities import Entity

Key = tuple[str, str]  # (source id, endpoint id)


@dataclass
class RouterGraphMemo:
    """Per graph: answers routing works out once and reads for every question."""

    # (concept, words said) -> endpoint key -> best field score: ``matching.concept_hits``
    concept_hits: dict[tuple[str, str], dict[Key, float]] = field(default_factory=dict)
    # endpoint key -> (concept, words said) -> how its fields answer: ``matching``
    endpoint_hits: dict[Key, dict[tuple[str, str], Hit]] = field(default_factory=dict)
    # numbers of the endpoints that read (not write): ``open_route``
    read_numbers: frozenset[int] | None = None
    # whether some read endpoint declares no intent: ``core``
    has_undeclared: bool | None = None
    # endpoint key -> whether it has a free-text parameter: ``chains``
    searchable: dict[Key, bool] = field(default_factory=dict)
    # (consumer key, parameter) -> (fixed score, link, producer's lexical number, searchable, reads the
    # caller's own space) of each producer: ``chains``
    producers: dict[tuple[Key, str], list[tuple[float, Link, int | None, bool, bool]]] = field(default_factory=dict)
    # endpoint key -> what its parameters' declarations say of the values they take: ``param_facts``
    param_facts: dict[Key, EndpointFacts] = field(default_factory=dict)
    # endpoint key -> what its fields declare, per field and per term: ``open_route``
    field_terms: dict[Key, Described] = field(default_factory=dict)
    # endpoint key -> the endpoints that can supply any of its parameters: ``chains``
    direct_producers: dict[Key, frozenset[Key]] = field(default_factory=dict)
    # endpoint key -> its pairs of parameters (``company1``/``company2``): ``rerank``
    pairs: dict[Key, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    # the units response fields declare ("GPa", "K"): ``coverage``
    units: frozenset[str] | None = None
    # the terms of the read endpoints' paths, the nouns records are listed under: ``open_route``
    path_nouns: frozenset[str] | None = None
    # endpoint key -> the terms of its path that say what it does (not its tool's name): ``rerank``
    telling_paths: dict[Key, frozenset[str]] = field(default_factory=dict)


@dataclass
class QuestionMemo:
    """Per question: what the value reading derives from the analysis once and reads for every
    candidate endpoint (``question_facts``, ``values``, ``numbers``)."""

    says: int | None = None  # the SAYS_* bits of the kinds of value it carries
    words: frozenset[str] | None = None  # everything it says in words, as parameter cues name it
    said: QuestionWords | None = None
    identifiers: list[Entity] | None = None  # identifier-shaped tokens and recognized ids, in order
    article_nouns: list[tuple[str, int]] | None = None  # "the/a/an <noun>" and where a name would start
    number_after: dict[str, str | None] = field(default_factory=dict)  # parameter name -> number written after it
    # (graph, endpoint key, question values others took) -> the endpoint's values from the question:
    # ``open_route.fill``, asked by the open route's chains and by re-ranking's alike
    fills: dict[tuple[int, Key, frozenset[str]], Filled] = field(default_factory=dict)


__all__ = ["EndpointKey", "QuestionMemo", "RouterGraphMemo"]
