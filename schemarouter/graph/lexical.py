"""BM25F over what every endpoint declares: retrieval that needs no vocabulary.

A source imported from an OpenAPI document has no concepts, intents or field groups, yet its
paths, summaries, descriptions, tags, parameter and field names say what it returns. This index
makes those words findable. Each endpoint is one document with weighted fields (BM25F: term
frequencies are length-normalized per field, weighted, summed, then saturated once), so a word in
a path segment or a field name counts more than the same word deep in a description.

Built once per graph, next to the vocabulary indexes, from the same declarations. Postings are
compact arrays (endpoint number, pseudo term frequency); scoring a question touches only the
postings of its terms. Where those postings are long (a registry of tens of thousands of
endpoints, where one word of a question is declared by thousands), they are summed as numpy
vectors over the same arrays instead of entry by entry: the same floats in the same order, so the
same scores and the same ranking, at a fraction of the cost.
"""

from __future__ import annotations

import math
import re
from array import array
from bisect import bisect_left
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from schemarouter.graph.terms import name_terms, path_terms, prose_terms

if TYPE_CHECKING:
    from schemarouter.graph.records import EndpointInfo
    from schemarouter.models import Parameter, Source

VECTOR_MIN = 4096  # postings a question's terms must have in all before they are summed as vectors
K1 = 1.2
STRENGTH_HALF = 2.0  # the pseudo term frequency at which a term counts half (a word once in a field name)
# Per document field: (weight, length normalization b). Names a user would say carry the most.
WEIGHTS: dict[str, tuple[float, float]] = {
    "source": (1.5, 0.3),
    "path": (3.0, 0.3),
    "summary": (2.5, 0.5),
    "tags": (1.5, 0.3),
    "description": (1.0, 0.75),
    "param": (1.2, 0.5),
    "param_text": (0.3, 0.75),
    "field": (2.0, 0.5),
    "field_text": (0.4, 0.75),
}
_FIELDS = tuple(WEIGHTS)
MAX_ENUM_TERMS = 40  # a longer enum lists codes (countries, languages), not what the endpoint answers
_STRUCTURAL = ("source", "path", "summary", "tags", "param", "field")
# the document fields whose terms are structural words (the summary is read apart, without its examples)
_NAMED_FIELDS = tuple(i for i, name in enumerate(_FIELDS) if name in _STRUCTURAL and name != "summary")
_SUMMARY_AT = _FIELDS.index("summary")
# a value a text quotes as an example: 'San Francisco, CA', "JFK" (an apostrophe inside a word is none)
_QUOTED = re.compile(r"""(?<!\w)(['"‘“])[^'"‘’“”\n]{1,80}['"’”](?!\w)""")
# ... or names unquoted after a word that introduces examples: "for a city like Boston", "such as Paris or
# Rome", "e.g. Tokyo": capitalized words there are values, not the registry's words
_NAMED_EXAMPLE = re.compile(
    r"\b(?:like|such as|e\.g\.,?|for example,?|for instance,?)\s+"
    r"[A-Z][\w.\-]*(?:(?:\s+|,\s*|\s+(?:or|and)\s+)[A-Z][\w.\-]*)*")


Pieces = tuple[tuple[str, ...], ...]  # the terms of one document field, as the term tuples they came in


def endpoint_document(info: EndpointInfo, params: dict[int, tuple[Parameter, tuple[tuple[str, ...], Pieces]]],
                      source: Pieces | None = None) -> tuple[Pieces, ...]:
    """The terms of one endpoint, per document field (in ``WEIGHTS`` order).

    Each field is kept as the tuples of terms its names and prose gave, not one flat list: those
    tuples are the readers' cached results, shared by every endpoint with the same name or text,
    so holding the documents of 10,000 sources until lengths are averaged costs references only.
    ``params`` keeps the pieces of each parameter model while the index is built: endpoints that
    declare the same parameter share one loaded model.
    """
    ep = info.endpoint
    if source is None:
        source = source_pieces(info.source)
    summary = [prose_terms(ep.summary)] if ep.summary else []
    description = [prose_terms(ep.description)] if ep.description else []
    param: list[tuple[str, ...]] = []
    param_text: list[tuple[str, ...]] = []
    for p in ep.parameters:
        held = params.get(id(p))
        if held is None:
            held = params[id(p)] = (p, _parameter_pieces(p))
        found = held[1]
        param.append(found[0])
        param_text.extend(found[1])
    names: list[str] = []
    field_text: list[tuple[str, ...]] = []
    for f in info.fields.values():
        names.extend(name_terms(f.name))
        for alias in f.field.aliases:
            names.extend(name_terms(alias))
        for concept in f.field.concepts:
            names.extend(name_terms(concept))
        if f.field.description:
            field_text.append(prose_terms(f.field.description))
    # a word counts once among the field names: forty fields of a nested "repositories" object say
    # that the record has a repository, not that the endpoint is about repositories
    field_names = (tuple(dict.fromkeys(names)),)
    return (
        source, (path_terms(ep.path),), tuple(summary), tuple(name_terms(t) for t in ep.tags),
        tuple(description), tuple(param), tuple(param_text), field_names, tuple(field_text),
    )


_uncached_name_terms = name_terms.__wrapped__


def source_pieces(src: Source) -> Pieces:
    """The terms of a source's names (the ``source`` field of each of its endpoints' documents)."""
    # a source's names are its own: read past the names cache, which they would only flush
    return tuple(_uncached_name_terms(name) for name in (src.id, src.title, *src.aliases))


def _parameter_pieces(p: Parameter) -> tuple[tuple[str, ...], Pieces]:
    """The terms of a parameter's name, and those of its description and short enum members."""
    text: list[tuple[str, ...]] = [prose_terms(p.description)] if p.description else []
    if p.enum and len(p.enum) <= MAX_ENUM_TERMS:
        # what the endpoint sorts or filters by ("downloads", "views") is what it can answer; a code
        # by what it means ("Dataset" for item_type 3)
        text.extend(name_terms(m) for m in p.enum if isinstance(m, str) and len(m) > 3)
        text.extend(name_terms(label) for label in (p.enum_labels or {}).values())
    return name_terms(p.name), tuple(text)


@dataclass
class LexicalIndex:
    """BM25F postings over the endpoints of one graph, in graph order."""

    keys: list[tuple[str, str]] = field(default_factory=list)
    # term -> (endpoint numbers, saturated pseudo term frequencies tf / (K1 + tf)): scoring a question
    # then only multiplies by the idf
    postings: dict[str, tuple[array[int], array[float]]] = field(default_factory=dict)
    idf: dict[str, float] = field(default_factory=dict)
    unknown_idf: float = 0.0  # what a word no endpoint mentions weighs (the median idf)
    # terms of names (sources, paths, summaries, tags, parameters, fields), not of prose: the words a
    # registry uses for what it holds, as opposed to example values its descriptions mention
    structural: frozenset[str] = frozenset()

    def score(self, terms: Iterable[str]) -> Mapping[int, float]:
        """Endpoint number -> BM25F score of the terms (endpoints with no term are left out)."""
        found = [(t, posting) for t in dict.fromkeys(terms) if (posting := self.postings.get(t)) is not None]
        if sum(len(posting[0]) for _, posting in found) >= VECTOR_MIN:
            return VectorScores.of(self, found)
        out: dict[int, float] = {}
        get = out.get
        for t, posting in found:  # each once, in order: float sums must not vary with the hash seed
            idf = self.idf[t]
            if not out:
                out = dict(zip(posting[0], [idf * s for s in posting[1]], strict=True))
                get = out.get
                continue
            for i, s in zip(*posting, strict=True):
                out[i] = get(i, 0.0) + idf * s
        return out

    def top(self, terms: Iterable[str], k: int, keep: Collection[int] | None = None) -> list[tuple[int, float]]:
        """The ``k`` best endpoints (number, score), best first, ties in graph order."""
        return best_scored(self.score(terms), k, keep)

    def contains(self, number: int, term: str) -> bool:
        """Whether endpoint ``number``'s document mentions ``term``."""
        return self.strength(number, term) > 0.0

    def strength(self, number: int, term: str) -> float:
        """How firmly endpoint ``number`` declares ``term``, in [0, 1): its saturated pseudo term
        frequency, so a word in a path or a field name counts more than one deep in a description."""
        posting = self.postings.get(term)
        if posting is None:
            return 0.0
        numbers = posting[0]
        i = bisect_left(numbers, number)
        if i < len(numbers) and numbers[i] == number:
            return _strength(posting[1][i])
        return 0.0

    def together(self, terms: Iterable[str]) -> bool:
        """Whether one endpoint's document mentions every one of ``terms``."""
        import numpy as np

        postings = []
        for t in dict.fromkeys(terms):
            posting = self.postings.get(t)
            if posting is None:
                return False  # no endpoint declares it at all
            postings.append(posting[0])
        if not postings:
            return False
        common: Any = None
        for numbers in sorted(postings, key=len):  # the rarest first
            found = np.frombuffer(numbers, dtype=np.intc)
            common = found if common is None else np.intersect1d(common, found, assume_unique=True)
            if not len(common):
                return False
        return True

    def weight(self, term: str) -> float:
        """How much a question term counts: its idf, or the idf of a word no endpoint declares."""
        return self.idf.get(term, self.unknown_idf)

    def source_strength(self, term: str, sources: set[str]) -> float:
        """How firmly any endpoint of ``sources`` declares ``term`` (0.0 when none does)."""
        posting = self.postings.get(term)
        if posting is None:
            return 0.0
        best = max((s for i, s in zip(*posting, strict=True) if self.keys[i][0] in sources), default=0.0)
        return _strength(best)

    def covered(self, numbers: Iterable[int], terms: Iterable[str],
                memo: dict[tuple[int, str], float] | None = None) -> dict[str, float]:
        """Term -> the firmest :meth:`strength` with which one of the endpoints ``numbers`` declares it
        (terms none declares are left out). ``memo`` keeps the strengths for a caller that asks of
        the same endpoints again (a dict, not a callable: a call through an object costs more than
        the lookup it would save)."""
        nums = list(numbers)
        known = {} if memo is None else memo
        out: dict[str, float] = {}
        for t in terms:
            best = 0.0
            for n in nums:
                key = (n, t)
                s = known.get(key)
                if s is None:
                    s = known[key] = self.strength(n, t)
                if s > best:
                    best = s
            if best > 0.0:
                out[t] = best
        return out


class NumberSet(frozenset[int]):
    """Endpoint numbers (the read endpoints of a graph, say), with the boolean mask over all numbers
    that vector scoring filters by, made the first time it is asked for."""

    def mask(self, size: int) -> Any:
        """A numpy boolean array of ``size``, true at the numbers of this set."""
        import numpy as np

        made = self.__dict__.get("_mask")
        if made is None or len(made) != size:
            made = np.zeros(size, dtype=bool)
            made[np.fromiter(self, dtype=np.int64, count=len(self))] = True
            self.__dict__["_mask"] = made
        return made


class VectorScores(Mapping[int, float]):
    """:meth:`LexicalIndex.score` of terms with long postings: one float per endpoint of the graph (0
    where no term is declared), summed term by term as the entry-by-entry path sums them."""

    def __init__(self, totals: Any) -> None:
        self._totals = totals
        self._numbers: Any = None

    @classmethod
    def of(cls, index: LexicalIndex, found: list[tuple[str, tuple[array[int], array[float]]]]) -> VectorScores:
        """The scores of the terms ``found`` (term, posting) in ``index``, in that order."""
        import numpy as np

        totals = np.zeros(len(index.keys), dtype=np.float64)
        for t, (numbers, saturated) in found:
            at = np.frombuffer(numbers, dtype=np.intc)
            # idf * s in double precision, as the other path multiplies two Python floats
            totals[at] += index.idf[t] * np.frombuffer(saturated, dtype=np.float32).astype(np.float64)
        return cls(totals)

    def _touched(self) -> Any:
        if self._numbers is None:
            import numpy as np

            self._numbers = np.flatnonzero(self._totals)
        return self._numbers

    def __getitem__(self, number: int) -> float:
        value = float(self._totals[number]) if 0 <= number < len(self._totals) else 0.0
        if not value:
            raise KeyError(number)
        return value

    def get(self, number: int, default: Any = None) -> Any:
        """The score of endpoint ``number``, or ``default`` where no term reaches it."""
        value = float(self._totals[number]) if 0 <= number < len(self._totals) else 0.0
        return value if value else default

    def __contains__(self, number: object) -> bool:
        return isinstance(number, int) and 0 <= number < len(self._totals) and bool(self._totals[number])

    def __iter__(self) -> Iterator[int]:
        return iter(self._touched().tolist())

    def __len__(self) -> int:
        return len(self._touched())

    def best(self, k: int, keep: Collection[int] | None) -> list[tuple[int, float]]:
        """:func:`best_scored` of these scores."""
        import numpy as np

        if k <= 0:
            return []
        numbers = self._touched()
        if isinstance(keep, NumberSet):
            numbers = numbers[keep.mask(len(self._totals))[numbers]]
        elif keep is not None:
            wanted = np.fromiter((n for n in keep if 0 <= n < len(self._totals)), dtype=np.int64)
            numbers = wanted[self._totals[wanted] > 0]
            numbers.sort()
        scores = self._totals[numbers]
        if len(numbers) > k:
            # everything above the k-th best score, and of those equal to it the lowest numbers
            kth = np.partition(scores, len(scores) - k)[len(scores) - k]
            chosen = scores >= kth
            numbers, scores = numbers[chosen], scores[chosen]
        order = np.lexsort((numbers, -scores))[:k]
        return list(zip(numbers[order].tolist(), scores[order].tolist(), strict=True))


def best_scored(scored: Mapping[int, float], k: int, keep: Collection[int] | None = None) -> list[tuple[int, float]]:
    """The ``k`` best (number, score) of ``scored`` (of the numbers in ``keep``, when given): highest
    score first, ties by the lower number, as sorting them all by (-score, number) would put them.

    One pass that keeps the best ``k`` in order, written out rather than ``heapq.nsmallest`` with a
    key: that one runs as interpreted Python and builds a key tuple for every endpoint that shares a
    word with the question, hundreds of them, to keep a dozen."""
    if isinstance(scored, VectorScores):
        return scored.best(k, keep)
    top: list[tuple[int, float]] = []
    if k <= 0:
        return top
    for number, score in scored.items():
        if keep is not None and number not in keep:
            continue
        if len(top) == k:
            last_number, last_score = top[-1]
            if score < last_score or (score == last_score and number > last_number):
                continue
            top.pop()
        at = len(top)
        while at > 0:
            before_number, before_score = top[at - 1]
            if before_score > score or (before_score == score and before_number < number):
                break
            at -= 1
        top.insert(at, (number, score))
    return top


def _strength(saturated: float) -> float:
    """:meth:`LexicalIndex.strength` from a posting's saturated frequency s = tf / (K1 + tf)."""
    if saturated <= 0.0:
        return 0.0
    tf = K1 * saturated / (1.0 - saturated)
    return tf / (STRENGTH_HALF + tf)


def build_lexical(infos: Iterator[EndpointInfo]) -> LexicalIndex:
    """Index every endpoint (in the order given, which becomes the endpoint numbering)."""
    builder = LexicalBuilder()
    for info in infos:
        builder.add(info)
    return builder.finish()


class LexicalBuilder:
    """Builds the index one endpoint at a time, reading each endpoint's declarations only while it is
    added: a graph built from a registry read in batches drops each batch's declarations before the
    next (:mod:`schemarouter.graph.build`), and what an endpoint's document keeps is its terms."""

    def __init__(self) -> None:
        self.index = LexicalIndex()
        self.docs: list[tuple[Pieces, ...] | None] = []  # each let go of once its postings are made
        self.lengths = array("I")  # every document's field lengths, ``len(_FIELDS)`` per document
        # id() of a parameter model -> the model (held, so that its id is never another's) and its pieces
        self.params: dict[int, tuple[Parameter, tuple[tuple[str, ...], Pieces]]] = {}
        self.structural: set[str] = set()
        self._source: tuple[str, Pieces] | None = None  # the last source's id and the terms of its names

    def add(self, info: EndpointInfo) -> None:
        """Index one endpoint, numbered after those added before it."""
        self.index.keys.append(info.key)
        if self._source is None or self._source[0] != info.key.source:
            # once per source: its endpoints' documents share the terms of its names
            self._source = (info.key.source, source_pieces(info.source))
        doc = endpoint_document(info, self.params, self._source[1])
        self.docs.append(doc)
        self.lengths.extend([sum(map(len, pieces)) for pieces in doc])
        self.structural.update(t for i in _NAMED_FIELDS for piece in doc[i] for t in piece)
        summary = info.endpoint.summary or ""
        # "such as 'San Francisco, CA'": an example a summary quotes is a value, not the registry's word
        example = _QUOTED.search(summary) or _NAMED_EXAMPLE.search(summary)
        pieces = (prose_terms(_NAMED_EXAMPLE.sub(" ", _QUOTED.sub(" ", summary))),) if example else doc[_SUMMARY_AT]
        self.structural.update(t for piece in pieces for t in piece)

    def release(self) -> None:
        """Forget the parameter models read so far (a batch's declarations are about to be dropped)."""
        self.params.clear()

    def finish(self) -> LexicalIndex:
        """The index over every endpoint added."""
        index, docs, structural = self.index, self.docs, self.structural
        self.release()
        index.structural = frozenset(structural)
        n = len(docs)
        if not n:
            return index
        width = len(_FIELDS)
        lengths = self.lengths
        avg = [(sum(lengths[i::width]) / n) or 1.0 for i in range(width)]
        weights = [WEIGHTS[name] for name in _FIELDS]
        postings: dict[str, tuple[array[int], array[float]]] = {}
        for number in range(n):
            doc = docs[number]
            assert doc is not None
            docs[number] = None  # what the postings grow into
            doc_lengths = lengths[number * width : (number + 1) * width]
            pseudo: dict[str, float] = {}
            get = pseudo.get
            for i, pieces in enumerate(doc):
                length = doc_lengths[i]
                if not length:
                    continue
                weight, b = weights[i]
                scale = weight / (1.0 - b + b * length / avg[i])
                # each occurrence adds the field's weight: summed here, not counted first (most terms
                # occur once in a field, and a Counter per field costs more than it saves)
                for piece in pieces:
                    for t in piece:
                        pseudo[t] = get(t, 0.0) + scale
            for t, tf in pseudo.items():
                found = postings.get(t)
                if found is None:
                    found = postings[t] = (array("i"), array("f"))
                found[0].append(number)
                found[1].append(tf / (K1 + tf))
        index.postings = postings
        index.idf = {t: math.log(1.0 + (n - len(a) + 0.5) / (len(a) + 0.5)) for t, (a, _) in postings.items()}
        # A word no endpoint declares counts against every candidate, but no more than a typical word:
        # questions carry chatty words ("finished watching") that say nothing about what is asked.
        ordered = sorted(index.idf.values())
        index.unknown_idf = ordered[len(ordered) // 2] if ordered else 1.0
        return index
