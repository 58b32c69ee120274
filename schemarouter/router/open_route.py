"""Planning from what sources declare: lexical retrieval, question values and chains.

The vocabulary route (concepts, intents, field groups) knows the sources their authors described.
This route knows every source: it ranks read endpoints by BM25F over their declarations
(:mod:`schemarouter.graph.lexical`), fills each candidate's parameters from the values the
question carries (:mod:`schemarouter.router.values`, plus the vocabulary's own rules for
parameters that declare a concept), binds what is still missing to producers
(:mod:`schemarouter.router.chains`), and keeps the chain that explains most of the question:

1. coverage: the share of the question's content terms (idf-weighted) some step's declaration
   mentions — a word nothing in the registry mentions counts against every candidate;
2. values spent: a question that names a thing or gives an identifier is answered by a chain that
   uses it;
3. the target's own BM25F score, then how well the producers fit, then fewer steps.

Fields are those whose names, aliases or descriptions the question's terms reach, plus record
identifiers; in recall mode also what situates the record (its name or title, DOI or URL, date);
where no field is reached, the endpoint's fields (recall mode) or its first few (minimal mode).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from schemarouter.field_paths import parse_path
from schemarouter.graph import EndpointInfo, SchemaGraph
from schemarouter.graph.lexical import NumberSet, best_scored
from schemarouter.graph.terms import name_terms, path_terms, prose_terms
from schemarouter.models import Parameter
from schemarouter.plan import Mode, PlanStep
from schemarouter.router.chains import ChainBuilder, Node, Relevance
from schemarouter.router.endpoint_facts import EndpointFacts, endpoint_facts
from schemarouter.router.guesses import paired, split_pair
from schemarouter.router.memos import QuestionMemo, RouterGraphMemo
from schemarouter.router.params import fill_params
from schemarouter.router.question_facts import may_fill
from schemarouter.router.unit_bounds import in_unit_written
from schemarouter.router.values import Filled, open_values
from schemarouter.understand.base import Analysis

TOP_K = 12
MINIMAL_FIELDS = 6
STEP_COST = 0.05
SAID_STRENGTH = 0.7  # how firmly a question word an enum member or flag answers is explained (graded)
SPENDING_SOURCES = 2  # sources whose endpoints are also tried for the values they take
SPENDING_LIMIT = 24  # at most this many such endpoints
SPENDING_SCAN = 32  # of at most this many looked at (each is filled from the question)
_LABEL_TERMS = frozenset({"name", "titl", "label", "symbol"})
# fields that situate a value: which record (its name or title), where to find it again (its DOI
# or URL) and when (its date or time)
_CONTEXT_TERMS = _LABEL_TERMS | frozenset({"doi", "url", "date", "datetim", "time", "timestamp", "day"})


@dataclass
class OpenPlan:
    """The best chain for a question and how well it explains the question."""

    chain: Node
    coverage: float  # share of the question's term weight the chain's declarations mention
    covered: set[str]
    key: tuple[Any, ...]

    @property
    def endpoints(self) -> list[EndpointInfo]:
        """The chain's endpoints, producers first."""
        return [n.info for n in self.chain.nodes()]


def explained(graph: SchemaGraph, infos: Iterable[EndpointInfo], terms: list[str], values: int = 0,
              spent: float = 0, *, searched: Iterable[str] = (), said: Iterable[str] = (),
              prefixes: Iterable[str] = (), graded: bool = False) -> tuple[float, set[str]]:
    """(share of the question the endpoints explain, the terms they explain): the idf weight of the
    ``terms`` their declarations mention, the ``searched`` terms a step sends as free text, the
    ``said`` terms an enum member or flag the steps send speaks for, the identifier ``prefixes`` their
    sources declare anywhere, and the ``spent`` of the question's ``values`` (names, identifiers,
    counts) their parameters take, each value weighing as much as a typical word.

    ``graded`` counts each term by how firmly it is declared instead of fully: a word in a path or
    summary says more about an endpoint than the same word in a field name; a word an enum member
    answers ("downloaded" -> order=downloads) counts :data:`SAID_STRENGTH`; an identifier's prefix
    ("MONDO" of MONDO:0007739) as firmly as any endpoint of the step's source declares it, since a
    namespace belongs to a source, not to the one endpoint whose description shows an example."""
    full, firm, covered = explained_both(graph, infos, terms, values, spent, searched=searched, said=said,
                                         prefixes=prefixes)
    return (firm if graded else full), covered


def explained_both(graph: SchemaGraph, infos: Iterable[EndpointInfo], terms: list[str], values: int = 0,
                   spent: float = 0, *, searched: Iterable[str] = (), said: Iterable[str] = (),
                   prefixes: Iterable[str] = ()) -> tuple[float, float, set[str]]:
    """:func:`explained` counted fully and graded at once (the open route ranks by both):
    (share, graded share, the terms explained)."""
    return Explaining(graph, terms, values).both(infos, spent, searched=searched, said=said, prefixes=prefixes)


class Explaining:
    """:func:`explained_both` for one question's ``terms`` and number of ``values``, asked of many
    candidate chains: the question's total weight once, and each endpoint's strength on a term once
    (the same producers recur in most chains)."""

    def __init__(self, graph: SchemaGraph, terms: list[str], values: int) -> None:
        self.graph = graph
        self.lex = lex = graph.lexical
        self.terms = terms
        self.total = sum(lex.weight(t) for t in terms) + lex.unknown_idf * values
        self._strength: dict[tuple[int, str], float] = {}  # (endpoint number, term) -> its strength

    def firmer(self, infos: Sequence[EndpointInfo], term: str) -> bool:
        """Whether the last of ``infos`` declares ``term`` more firmly than every one before it."""
        numbers = self.graph.numbers
        strength = self.lex.strength
        last = strength(numbers[infos[-1].key], term) if infos[-1].key in numbers else 0.0
        return last > max((strength(numbers[i.key], term) for i in infos[:-1] if i.key in numbers), default=0.0)

    def both(self, infos: Iterable[EndpointInfo], spent: float = 0, *, searched: Iterable[str] = (),
             said: Iterable[str] = (), prefixes: Iterable[str] = ()) -> tuple[float, float, set[str]]:
        """(share, graded share, the terms explained) of the endpoints ``infos`` (see :func:`explained`)."""
        lex, terms, total = self.lex, self.terms, self.total
        if not total:
            return 0.0, 0.0, set()
        infos = list(infos)
        numbers = [self.graph.numbers[i.key] for i in infos if i.key in self.graph.numbers]
        covered = lex.covered(numbers, terms, self._strength)
        searched, said, prefixes = set(searched), set(said), set(prefixes)
        sources = {i.key.source for i in infos} if prefixes else set()
        for t in terms:  # in the question's order: the sum below must not vary with the hash seed
            if t in searched:
                covered[t] = 1.0
            elif t in said:
                covered[t] = max(covered.get(t, 0.0), SAID_STRENGTH)
            if t in prefixes:
                held = lex.source_strength(t, sources)
                if held:
                    covered[t] = max(covered.get(t, 0.0), held)
        full = firm = 0.0
        for t, strength in covered.items():
            weight = lex.weight(t)
            full += weight
            firm += weight * strength
        spent_weight = lex.unknown_idf * spent
        return (full + spent_weight) / total, (firm + spent_weight) / total, set(covered)


def fill(info: EndpointInfo, graph: SchemaGraph, analysis: Analysis, taken: set[str]) -> Filled:
    """Values for ``info`` from the question: the vocabulary's rules for concept parameters, the
    declarations' types, formats, patterns and enums for the rest, and declared defaults last.
    Remembered per question (the open route and re-ranking fill the same endpoints): the result is
    shared, and a caller that adds to it adds to a copy."""
    memo = analysis.memos.of(QuestionMemo).fills
    key = (id(graph), info.key, frozenset(taken))
    found = memo.get(key)
    if found is None:
        found = memo[key] = _fill(info, graph, analysis, taken)
    return found


def _fill(info: EndpointInfo, graph: SchemaGraph, analysis: Analysis, taken: set[str]) -> Filled:
    facts = endpoint_facts(graph, info)
    if not may_fill(facts, analysis):
        # no parameter can take anything this question carries (most endpoints, for most questions)
        out = Filled()
        _defaults(out, facts)
        return out
    lex = graph.lexical
    number = graph.numbers.get(info.key)

    nouns = path_nouns(graph)

    def opened(params: Sequence[Parameter]) -> Filled:
        return open_values(params, analysis, info.path, taken, lambda term: term not in lex.idf,
                           lambda term: number is None or not lex.strength(number, term), facts.by_name,
                           nouns.__contains__)

    if not facts.concepts:
        out = opened(info.parameters)  # the question's values are all there is to fill
    else:
        out = Filled()
        values, notes = fill_params(info, analysis, list(analysis.understanding.concepts), graph.identifier_concepts)
        out.values.update(values)
        if values:
            out.used.add("concepts")
        for note in notes:
            out.why.setdefault("_params", note)
        out.merge(opened([p for p in info.parameters if p.name not in out.values]))
    pairs = pairs_of(graph, info)
    if pairs:  # two names joined for a pair of parameters ("between New York and Los Angeles")
        out.merge(split_pair(pairs, out))
    _defaults(out, facts)
    return out


def pairs_of(graph: SchemaGraph, info: EndpointInfo) -> tuple[tuple[str, str], ...]:
    """The pairs of parameters of ``info`` (:func:`~schemarouter.router.guesses.paired`), remembered per graph."""
    memo = graph.memos.of(RouterGraphMemo).pairs
    found = memo.get(info.key)
    if found is None:
        found = memo[info.key] = paired(tuple(p.name for p in info.parameters))
    return found


def _defaults(out: Filled, facts: EndpointFacts) -> None:
    """The declared default of each required parameter the question gave no value."""
    for p in facts.defaults:
        if p.name not in out.values:
            out.values[p.name] = p.default
            out.why[p.name] = "the declared default; the question does not say"
    for p, member in facts.everything:
        if p.name not in out.values:
            # a required filter the question narrows nothing by: the member that keeps every record
            out.values[p.name] = member
            out.why[p.name] = f"'{member}' selects every record; the question does not narrow it"
    for p, member in facts.formats:
        if p.name not in out.values:
            out.values[p.name] = member
            out.why[p.name] = f"'{member}': the response format the executor reads"


def open_route(graph: SchemaGraph, analysis: Analysis, sources: set[str] | None = None) -> OpenPlan | None:
    """The best chain over read endpoints (of ``sources`` when given), or None when no endpoint's
    declaration mentions a term of the question or none can be supplied with its parameters."""
    # a question about now wants a source that says it serves current data
    terms = [*analysis.terms, *(["current"] if analysis.live and "current" not in analysis.terms else [])]
    lex = graph.lexical
    # "home page" also finds an endpoint whose declaration writes it as one word (urlHomepage)
    terms += [c for c in analysis.compounds if c in lex.idf and c not in terms]
    keep = read_numbers(graph) if sources is None else {
        graph.numbers[i.key] for s in sources for i in graph.source_endpoints(s) if i.access == "read"
    }
    scored = lex.score(terms)
    ranked = best_scored(scored, TOP_K, keep)
    if sources is not None and not ranked:
        # a named source whose declarations share no word with the question: all its endpoints
        ranked = [(i, 0.0) for i in sorted(keep)][:TOP_K]
    if not ranked:
        return None
    best_score = ranked[0][1] or 1.0
    relevance = Relevance(graph, scored, best_score)
    values_given = question_values(analysis)
    builder = ChainBuilder(graph, analysis, lambda i, taken: fill(i, graph, analysis, taken), relevance)
    # endpoints the words rank lower are looked for only for values no ranked endpoint takes
    unspent = set(values_given)
    for number, _ in ranked:
        filled = builder.fill(graph.endpoints[lex.keys[number]], frozenset())
        unspent -= filled.used - filled.weak
    candidates = ranked + _spending(graph, builder, ranked, keep, unspent, relevance)
    best = _best_chain(graph, analysis, builder, candidates, terms, values_given, best_score)
    if best is None and sources is not None:
        # nothing the words rank can be built for the named source: its searches, given the words no
        # source describes ("Look up cystic fibrosis in the Monarch Initiative")
        searched = " ".join(w for w, term in analysis.words if term not in lex.idf)
        seen = {number for number, _ in candidates}
        searches = [
            (number, 0.0) for s in sorted(sources) for i in graph.source_endpoints(s)
            if (number := graph.numbers[i.key]) in keep and number not in seen and builder.searchable(i)
            and searched and searched in builder.fill(i, frozenset()).used
        ]
        best = _best_chain(graph, analysis, builder, searches, terms, values_given, best_score)
    return best


def _best_chain(graph: SchemaGraph, analysis: Analysis, builder: ChainBuilder, candidates: list[tuple[int, float]],
                terms: list[str], values_given: set[str], best_score: float) -> OpenPlan | None:
    """The chain among ``candidates`` (endpoint numbers and their BM25F scores) that explains the
    question best (see the module docstring), or None when none can be built."""
    lex = graph.lexical
    said = set(analysis.all_terms)
    explaining = Explaining(graph, terms, len(values_given))
    best: OpenPlan | None = None
    for number, score in candidates:
        info = graph.endpoints[lex.keys[number]]
        chain = builder.build(info)
        if chain is None:
            continue
        nodes = chain.nodes()
        infos = [n.info for n in nodes]
        spent = len(values_given & chain.used) - 0.5 * len(values_given & chain.weak)
        share, graded, covered = explaining.both(infos, spent, said=chain.said, prefixes=analysis.prefixes)
        producers = _producers_share(explaining, infos, covered, chain, spent, analysis.prefixes) if len(nodes) > 1 else None
        if producers is not None:
            graded = producers  # the target only repeats what its producers explain: weighed as they are, less its step
        graded -= STEP_COST * (len(nodes) - 1)  # a further step must explain more of the question
        # in steps of 0.05: a hair more of a word in some description is no reason for a longer chain
        # then the target whose path says least the question does not ("/account/articles" for a
        # question about public articles says "account")
        unsaid = len(set(path_terms(info.path)) - said)
        tied = len(values_given & chain.tied)  # values the question's words tie to their parameters
        # the caller's own space answers only, and first, a question about the asker's own records
        fits = analysis.own == any(i.scope == "account" for i in infos)
        # among equals, the record a value addresses (/videos/{video_id}) before more records of its
        # kind hanging under it (/videos/{video_id}/videos: related ones), which a question would name
        under = _under_record(info.path)
        key = (fits, round(graded * 20), spent, tied, -unsaid, -under, round(score / best_score, 3), -len(nodes),
               round(chain.score, 3))
        if best is None or key > best.key:
            best = OpenPlan(chain, share, covered, key)
    return best


def _producers_share(explaining: Explaining, infos: list[EndpointInfo], covered: set[str], chain: Node,
                     spent: float, prefixes: Iterable[str]) -> float | None:
    """The graded share of the question a chain's producers explain, where its last step (its target)
    adds nothing to what they give (else None): it
    explains no word of the question they leave unexplained, spends no value of the question they
    do not, and makes no word its own path says more firmly explained. "Which specimens did a
    collector catalogue, and their locality?" is answered by the collector's specimens, whose records
    carry their locality; the detail of each specimen, whose summary says "locality", only says it
    more firmly, which is no reason for a third step (a plan is as short as the question needs). A
    target whose path names what it says more firmly stays: /specimens/{specimen_id}/images for
    their images, where the list only describes a thumbnail as an image."""
    if not chain.used <= set().union(*(producer.used for producer, _link in chain.bindings.values())):
        return None
    _full, graded, before = explaining.both(infos[:-1], spent, said=chain.said, prefixes=prefixes)
    if not covered <= before or any(explaining.firmer(infos, t) for t in set(path_terms(infos[-1].path)) & covered):
        return None
    return graded


def _under_record(path: str) -> int:
    """1 for a path that goes on after its last parameter to more records of the kind it addresses
    (``/videos/{video_id}/videos``: a video's related videos), else 0: a question about "video
    76979871" that says no more addresses the video itself."""
    segments = path.strip("/").split("/")
    last = max((i for i, seg in enumerate(segments) if seg.startswith("{")), default=len(segments) - 1)
    after = {t for seg in segments[last + 1:] for t in path_terms("/" + seg)}
    before = {t for seg in segments[:last] if not seg.startswith("{") for t in path_terms("/" + seg)}
    return int(bool(after) and after <= before)


def path_nouns(graph: SchemaGraph) -> frozenset[str]:
    """The terms of the read endpoints' paths: the nouns records are listed under (once per graph)."""
    memo = graph.memos.of(RouterGraphMemo)
    if memo.path_nouns is None:
        memo.path_nouns = frozenset(t for i in graph.endpoints.values() if i.access == "read"
                                    for t in path_terms(i.path))
    return memo.path_nouns


def read_numbers(graph: SchemaGraph) -> frozenset[int]:
    """The numbers of the graph's read endpoints (worked out once per graph, not per question)."""
    memo = graph.memos.of(RouterGraphMemo)
    if memo.read_numbers is None:
        memo.read_numbers = NumberSet(graph.numbers[k] for k, i in graph.endpoints.items() if i.access == "read")
    return memo.read_numbers


def _spending(graph: SchemaGraph, builder: ChainBuilder, ranked: list[tuple[int, float]], keep: Collection[int],
              values: set[str], relevance: Relevance) -> list[tuple[int, float]]:
    """Endpoints of the best-matching sources that take a value of the question directly (a date, a
    station code, a postal code) although its words rank them lower: candidates by what they can be
    sent, not only by what they say."""
    if not values:
        return []
    lex = graph.lexical
    seen = {number for number, _ in ranked}
    sources = list(dict.fromkeys(lex.keys[number][0] for number, _ in ranked))[:SPENDING_SOURCES]
    out: list[tuple[int, float]] = []
    looked = 0
    for source in sources:
        # those the question's words reach first, then the rest in declaration order
        infos = sorted(graph.source_endpoints(source), key=lambda i: -relevance.of(i))
        for info in infos:
            number = graph.numbers[info.key]
            if number in seen or number not in keep:
                continue
            looked += 1
            if looked > SPENDING_SCAN:
                return out
            if not may_fill(endpoint_facts(graph, info), builder.analysis):
                continue  # it takes nothing from this question, so it spends nothing
            filled = builder.fill(info, frozenset())
            if (filled.used - filled.weak) & values:
                out.append((number, 0.0))
                if len(out) >= SPENDING_LIMIT:
                    return out
    return out


def question_values(analysis: Analysis) -> set[str]:
    """The values a question carries that a plan should spend (as written): names, identifiers, counts,
    labelled values, codes, dates, coordinates."""
    typed = (e for e in analysis.entities if e.extra.get("declared"))  # a DOI, PMID, arXiv id a concept's pattern read
    return ({str(e.value) for e in (*analysis.names, *analysis.identifiers, *typed)}
            | {str(n) for n in analysis.counts.values()}
            | set(analysis.labels.values()) | set(analysis.codes) | set(analysis.dates) | set(analysis.months)
            | ({f"{analysis.coordinates}"} if analysis.coordinates else set()))


def chain_steps(plan: OpenPlan, graph: SchemaGraph, analysis: Analysis, mode: Mode) -> list[PlanStep]:
    """Plan steps of a chain, producers first, with ids, bindings, fields and their metadata."""
    nodes = plan.chain.nodes()
    ids = {id(n): f"s{i + 1}" for i, n in enumerate(nodes)}
    bound: dict[int, set[str]] = {}
    for n in nodes:
        for producer, link in n.bindings.values():
            bound.setdefault(id(producer), set()).add(link.field)
    steps = []
    for n in nodes:
        params: dict[str, Any] = dict(n.values)
        why: dict[str, str] = {}
        for pname, (producer, link) in n.bindings.items():
            params[pname] = {"from": ids[id(producer)], "field": link.field, "pick": "first"}
            why[f"_bind_{pname}"] = f"{pname} from {ids[id(producer)]}.{link.field} ({link.how})"
        is_target = n is plan.chain
        # a field a parameter names (sort_by=cost_eur: the rows come ordered by it) is part of the answer
        named = {v for v in n.values.values() if isinstance(v, str) and v in n.info.fields}
        fields = _fields(graph, n.info, analysis, mode, is_target, bound.get(id(n), set()), why, named)
        meta = {name: n.info.fields[name].meta() for name in fields}
        notes = [f"{k}: {v}" for k, v in n.why.items() if not k.startswith("_")]
        if notes:
            why["_params"] = "; ".join(notes)
        steps.append(PlanStep(
            id=ids[id(n)], source=n.info.key.source, endpoint=n.info.key.endpoint, params=params, fields=fields,
            meta=meta, why=why, score=round(plan.coverage, 3),
        ))
    return steps


@lru_cache(maxsize=65_536)
def _own_key(path: str) -> str:
    """The last key of a response path (``nasa_jpl_url.port`` -> ``port``, ``items[].title`` ->
    ``title``), read by the paths' own parser (declared paths were validated with it)."""
    segments = parse_path(path)
    return segments[-1].key if segments else ""  # the whole record ("$") has no key of its own


def field_terms(info: EndpointInfo, name: str) -> tuple[set[str], set[str]]:
    """(terms of a field's name, aliases and concepts; terms of its description)."""
    f = info.fields[name].field
    named = set(name_terms(name))
    for alias in f.aliases:
        named.update(name_terms(alias))
    for concept in f.concepts:
        named.update(name_terms(concept))
    return named, set(prose_terms(f.description)) if f.description else set()


@dataclass(slots=True, frozen=True)
class _FieldTerms:
    """What a field's declaration says, as choosing fields reads it (once per graph)."""

    named: frozenset[str]  # terms of its name, aliases and concepts
    prose: frozenset[str]  # terms of its description
    situates: bool  # its own key says which record, where or when (name, title, DOI, URL, date)
    labels: bool  # its name says which record (name, title, label, symbol)


@dataclass(slots=True, init=False)
class Described:
    """What the fields of one endpoint declare (once per graph): each field's :class:`_FieldTerms`,
    and per term the positions of the fields that name it and of those whose description has it,
    so choosing fields looks up the question's few terms instead of reading every field."""

    fields: dict[str, _FieldTerms]
    names: list[str]  # the field names in declaration order (positions index it)
    named_at: dict[str, list[int]]  # term -> positions of the fields naming it, ascending
    prose_at: dict[str, list[int]]  # term -> positions of the fields describing with it, ascending

    def __init__(self, fields: dict[str, _FieldTerms]) -> None:
        self.fields = fields
        self.names = list(fields)
        self.named_at = {}
        self.prose_at = {}
        for at, terms in enumerate(fields.values()):
            for t in terms.named:
                self.named_at.setdefault(t, []).append(at)
            for t in terms.prose:
                self.prose_at.setdefault(t, []).append(at)

    def naming(self, at: Iterable[int]) -> dict[str, None]:
        """The names of the fields at positions ``at``, in declaration order (a dict as an ordered set)."""
        return dict.fromkeys(self.names[i] for i in sorted(at))


def _field_terms(graph: SchemaGraph, info: EndpointInfo) -> Described:
    """:class:`Described` of the fields of ``info`` (worked out once per graph)."""
    memo = graph.memos.of(RouterGraphMemo).field_terms
    found: Described | None = memo.get(info.key)
    if found is None:
        fields = {}
        for name, f in info.fields.items():
            named, prose = field_terms(info, name)
            # by the field's own key: the port and host of a nasa_jpl_url object say nothing
            situates = bool(set(name_terms(_own_key(f.field.path))) & _CONTEXT_TERMS)
            fields[name] = _FieldTerms(frozenset(named), frozenset(prose), situates,
                                       bool(set(name_terms(name)) & _LABEL_TERMS))
        found = memo[info.key] = Described(fields)
    return found


def series_beside(info: EndpointInfo, chosen: Iterable[str]) -> dict[str, str]:
    """The lists a chosen list is read against: fields named alike in sibling objects of the record
    (``energies.data`` beside ``intensities.data``, ``times.values`` beside ``temperatures.values``)
    are the columns of one series, and a spectrum's intensities mean nothing without the energies
    they were measured at. Only lists of the record itself (no list of records on the way: one
    record's columns, not the rows of a listing), each with why it was added."""
    chosen = list(chosen)
    out: dict[str, str] = {}
    for name in chosen:
        segments = _own_list(info, name)
        if segments is None:
            continue
        for other in info.fields:
            if other == name or other in chosen or other in out:
                continue
            beside = _own_list(info, other)
            if (beside is not None and len(beside) == len(segments) and beside[-1] == segments[-1]
                    and beside[:-2] == segments[:-2]):
                out[other] = f"the list {name} is read against (its series' other column)"
    return out


def _own_list(info: EndpointInfo, name: str) -> tuple[str, ...] | None:
    """The keys of the path of field ``name`` where it is a list inside an object of the record
    (``energies.data``), else None."""
    field = info.fields[name].field
    if field.type != "array":
        return None
    segments = parse_path(field.path)
    if len(segments) < 2 or any(seg.selectors for seg in segments):
        return None
    return tuple(seg.key for seg in segments)


def _short_forms(terms: Iterable[str]) -> dict[str, list[str]]:
    """How a field name may write the question's terms short: each prefix of four letters or more
    that is at most 60 % of its term ("temp" of temperatur, "desc" of descript; "count" is no
    countri), with the terms it stands for."""
    out: dict[str, list[str]] = {}
    for t in terms:
        for k in range(4, int(0.6 * len(t)) + 1):
            if t[:k].isalpha():
                out.setdefault(t[:k], []).append(t)
    return out


def _fields(graph: SchemaGraph, info: EndpointInfo, analysis: Analysis, mode: Mode, is_target: bool, bound: set[str],
            why: dict[str, str], named: set[str] | None = None) -> list[str]:
    terms = dict.fromkeys(analysis.all_terms)  # a set in the question's order: the reasons must not vary by run
    # "home page" names a field urlHomepage, "full text" one called fulltext: two words said apart
    # match a name that writes them as one
    names_only = [t for t in analysis.compounds if t not in terms]
    terms.update(dict.fromkeys(names_only))
    chosen: dict[str, str] = {}
    for name, f in info.fields.items():
        if f.field.identifier:
            chosen[name] = "identifier of the record"
    for name in bound:
        chosen[name] = "supplies a parameter of a later step"
    for name in named or ():
        chosen.setdefault(name, "a parameter of the step names it (the rows are ordered or chosen by it)")
    short_forms = _short_forms(terms)
    described = _field_terms(graph, info)
    # a description that names its source ("the NASA center that leads the project") says nothing of
    # the field to a question that names the source: the source's title words select fields by name only
    in_prose = set(terms) - {"name"} - set(names_only) - set(prose_terms(info.source.title))
    # per term, the positions of the fields naming it, as written or short ("temp" for temperatur;
    # letters only: "temp", not "pm25")
    named_at: dict[str, set[int]] = {}
    for t in terms:
        at = described.named_at.get(t)
        if at:
            named_at.setdefault(t, set()).update(at)
    for word, stands_for in short_forms.items():
        at = described.named_at.get(word)
        if at:
            for t in stands_for:
                named_at.setdefault(t, set()).update(at)
    # per term, the fields it reaches in declaration order (a dict as an ordered set: the reasons
    # must not vary by run)
    by_name = {t: described.naming(at) for t, at in named_at.items()}
    by_prose = {t: described.naming(at) for t in in_prose if (at := described.prose_at.get(t))}
    # a word most fields' descriptions share ("... of the project") describes the record, not a field
    common = max(MINIMAL_FIELDS, len(info.fields) // 2)
    by_prose = {t: names for t, names in by_prose.items() if len(names) <= common}
    hits: dict[str, str] = {}
    for t in terms:  # per word of the question: the fields named for it, else those described with it
        for name in by_name.get(t) or by_prose.get(t) or ():
            how = "name" if t in by_name else "description"
            hits.setdefault(name, f"field {how} matched '{t}'")
    if is_target:
        # "trips shorter than 15 minutes": the field in the unit of a quantity the question writes
        for name, f in info.fields.items():
            said_in = in_unit_written(f.field.unit, analysis.question) if f.field.unit else None
            if said_in is not None:
                hits.setdefault(name, f"field unit matches a quantity in {said_in}")
        chosen.update(hits)
        for name, reason in series_beside(info, hits).items():
            chosen.setdefault(name, reason)
        if not hits:
            names = [n for n in info.fields if n not in chosen]
            if mode == "minimal":
                names = names[:MINIMAL_FIELDS]
            for name in names:
                chosen[name] = "the endpoint's record (the question names no field)"
        elif mode == "recall":
            for name, field_words in described.fields.items():
                if field_words.situates:
                    chosen.setdefault(name, "says which record and when (recall)")
    else:
        for name, field_words in described.fields.items():
            if field_words.labels and len(chosen) < 4:
                chosen.setdefault(name, "shows which record was picked")
    for name, reason in chosen.items():
        why.setdefault(name, reason)
    return [n for n in info.fields if n in chosen]
