"""Algorithm 1: understood question + schema graph -> executable, attributed tool plan.

Candidates come from named sources, else from endpoints serving the intent (and one of its
field groups) that can take the question's entities; a provenance constraint filters them by
the source type of the fields that would answer. Candidates are ranked by concept-match
score, then non-web, then coverage of the intent's groups, priority and fewest fields. One
step, unless several sources are named or the question compares. Fields are identifiers +
concept matches (+ the intent's groups in recall mode), each with unit, source type, license
and attribution from the graph, and the reason it is there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from schemarouter.execution.fallback import Alternative
from schemarouter.graph import EndpointInfo, SchemaGraph, graph_from_url
from schemarouter.graph.dense import dense_enabled, without
from schemarouter.graph.lexical import best_scored
from schemarouter.graph.order import IntentGroup, reached_in
from schemarouter.graph.terms import question_terms
from schemarouter.graph.text import normalize
from schemarouter.plan import Mode, Plan, PlanStep, Understanding
from schemarouter.router.coverage import coverage as coverage_report
from schemarouter.router.endpoint_facts import endpoint_facts, missing_required
from schemarouter.router.matching import EndpointMatch, concept_hits, match_endpoint, match_from_hits
from schemarouter.router.memos import RouterGraphMemo
from schemarouter.router.open_route import OpenPlan, chain_steps, explained, fill, open_route, question_values
from schemarouter.router.param_facts import is_search_parameter
from schemarouter.router.params import fill_params
from schemarouter.router.polymorphs import structure_fields
from schemarouter.router.question_facts import quoted_values
from schemarouter.router.ranking import (
    Candidate,
    Entry,
    Pool,
    Run,
    Test,
    ascending,
    phrase_scores,
    ranking_key,
    sort_key,
)
from schemarouter.router.records_asked import the_list_asked
from schemarouter.router.rerank import (
    FEATURES,
    Scored,
    probability,
    score_candidates,
    threshold,
)
from schemarouter.router.several import per_entity
from schemarouter.router.substitutes import alternatives
from schemarouter.understand.actions import write_methods
from schemarouter.understand.base import Analysis, Understander
from schemarouter.understand.evidence import ENTITY_CONCEPT, entity_concept
from schemarouter.understand.scripts import foreign_script

MAX_COMPARE_STEPS = 3
MIN_COVERAGE = 0.3  # the open route answers alone only when its steps mention this share of the question
OVERRIDE_MARGIN = 0.25  # how much more of the question an undeclared source must explain to beat the vocabulary
OPEN_PROBE = 8  # lexical matches looked at to decide whether the open route could beat a vocabulary plan
CURRENT_TERMS = ("current", "live", "realtim", "now", "latest", "today", "recent")
UNEXPLAINED = 0.05  # a plan whose sources mention less of the question than this does not answer it
# A decline names a write of the kind the request asks for (a DELETE for "remove") where its words
# fit at least this share of the best-fitting write's score; else the best-fitting write of any kind
# (many APIs POST every change: "set a new alarm" is a POST /set_alarm, not an unrelated PUT). Chosen
# on the tune splits: the share from 0.5 to 0.75 names the same writes, 0.9 loses one of the imported set.
METHOD_SHARE = 2 / 3
_TYPED_KINDS = frozenset({"chemsys", "elements"})  # besides the values a concept's declared pattern reads


class Router:
    """Plans questions over one registry's schema graph."""

    def __init__(self, graph: SchemaGraph, understander: Understander | None = None, *,
                 dense: bool | None = None) -> None:
        from schemarouter.understand.rules import RulesUnderstander

        self.graph = graph
        self.understander = understander or RulesUnderstander()
        # re-rank with the dense index too (None: the ``[routing] dense`` setting)
        self.dense = dense_enabled() if dense is None else dense

    @classmethod
    def from_registry(cls, url: str | None = None, understander: Understander | None = None) -> Router:
        """A router over the graph of the registry at ``url`` (the configured one when None)."""
        return cls(graph_from_url(url), understander)

    def substitutes(self, plan: Plan, index: int) -> list[Alternative]:
        """Equivalent steps for ``plan.steps[index]`` when it fails for a reason of its source's own
        (the executor's fallbacks; :mod:`schemarouter.router.substitutes`)."""
        return alternatives(plan, index, self.graph)

    def plan(self, question: str, mode: Mode = "recall", *, plan_id: str | None = None) -> Plan:
        """The plan for ``question``: recall mode adds the intent's field groups, minimal only what it names."""
        if mode not in ("recall", "minimal"):
            raise ValueError(f"mode must be 'recall' or 'minimal', not {mode!r}")
        analysis = self.understander.understand(question, self.graph)
        return self.plan_from_analysis(analysis, mode, plan_id=plan_id)

    def plan_from_analysis(self, analysis: Analysis, mode: Mode = "recall", *, plan_id: str | None = None) -> Plan:
        """The plan for an already understood question (a decline when nothing can answer it)."""
        plan = Plan(
            query=analysis.question, registry_fingerprint=self.graph.fingerprint, mode=mode,
            understanding=analysis.understanding, prompt_tokens=analysis.prompt_tokens, id=plan_id,
            notes=list(analysis.notes),
        )
        if analysis.decline:
            plan.declined = self._write_hint(analysis) if analysis.action else analysis.decline
            plan.coverage = coverage_report(plan, analysis, self.graph)
            return plan
        steps, reason, route = self._choose(analysis, mode)
        steps, reason = self._rerank(analysis, mode, steps, reason, route)
        steps = the_list_asked(steps, self.graph, analysis, mode, self.dense)
        if steps and analysis.live and not self._serves_current(steps) and self._described(steps):
            # a question about now: the best candidate whose source says it serves current data, or a decline
            steps, reason = self._current_instead(analysis, mode)
        steps = per_entity(steps, analysis, self.graph)
        if steps and any(not self.graph.endpoints[(s.source, s.endpoint)].intents for s in steps):
            plan.understanding = analysis.understanding = _claimed(analysis.understanding, steps, self.graph)
        if not steps:
            plan.declined = reason
        used = {s.id for s in steps if s.id}
        for i, step in enumerate(steps):
            if not step.id:
                number = i + 1
                while f"s{number}" in used:
                    number += 1
                step.id = f"s{number}"
                used.add(step.id)
        plan.steps = steps
        plan.coverage = coverage_report(plan, analysis, self.graph)
        return plan

    # -- which route answers ------------------------------------------------------------------
    def _choose(self, analysis: Analysis, mode: Mode) -> tuple[list[PlanStep], str, str]:
        """The vocabulary route's plan, or the open route's where it explains the question better
        (see docs/routing.md, "Two routes, one decision")."""
        graph = self.graph
        u = analysis.understanding
        # the vocabulary speaks only for endpoints it describes: of a named source that declares no
        # intent it knows nothing to choose by, so the open route plans for it
        vocab = [s for s in self._steps(analysis, mode)
                 if s is not None and graph.endpoints[(s.source, s.endpoint)].intents]
        sources = set(u.named_tools) or None
        terms = analysis.terms
        # with a vocabulary plan, only sources the vocabulary cannot see could do better: look for
        # them only when the question's words reach one
        found = open_route(graph, analysis, sources) if not vocab or self._reaches_undeclared(terms) else None
        if found is None and sources and not vocab:
            # "PubChem bioassays" held by a source the vocabulary cannot see: a named source that can
            # answer nothing is then a topic, not a target. A described source is no substitute: the
            # user asked the named one, and its refusal is the honest answer
            anywhere = open_route(graph, analysis, None)
            if anywhere is not None and any(not i.intents for i in anywhere.endpoints):
                found, sources = anywhere, None
        elif found is not None and sources and not vocab and found.coverage < MIN_COVERAGE:
            beyond = self._beyond_named(analysis, found.coverage)
            if beyond is not None:
                found, sources = beyond, None
        if vocab:
            infos = [graph.endpoints[(s.source, s.endpoint)] for s in vocab]
            values = question_values(analysis)
            # a value dumped into free text selects nothing by its kind: only other parameters spend it
            sent = " ".join(str(v) for step, info in zip(vocab, infos, strict=True) for k, v in step.params.items()
                            if (p := info.param(k)) is None or not is_search_parameter(p))
            spent = sum(1 for v in values if v in sent)
            v_cov, _ = explained(graph, infos, terms, len(values), spent, prefixes=analysis.prefixes)
            concept_hit = any((s.score or 0) > 0 for s in vocab)
            strong = concept_hit or bool(u.named_tools) or _typed_entity(analysis)
            # retrieval over declarations speaks for the sources the vocabulary cannot see; over
            # described sources the vocabulary's own reading stands
            undeclared = found is not None and any(not i.intents for i in found.endpoints)
            if sources and not undeclared and v_cov < MIN_COVERAGE:
                beyond = self._beyond_named(analysis, v_cov)
                if beyond is not None:
                    return chain_steps(beyond, graph, analysis, mode), "", "open"
            # a vocabulary plan that explains none of the question's words yields to any that does
            if undeclared and found is not None and found.coverage > v_cov and (
                    v_cov < UNEXPLAINED or (found.coverage >= MIN_COVERAGE
                                            and (not strong or found.coverage >= v_cov + OVERRIDE_MARGIN))):
                return chain_steps(found, graph, analysis, mode), "", "open"
            if terms and not concept_hit and not u.named_tools and not undeclared:
                # words a step sends as free text are explained too: a search for them is an answer
                searched = question_terms(" ".join(v for s in vocab for v in s.params.values() if isinstance(v, str)))
                if explained(graph, infos, terms, len(values), spent, searched=searched)[0] < UNEXPLAINED:
                    return [], f"no registered source returns what the question asks for ({', '.join(terms)})", ""
            return vocab, "", "vocabulary"
        if found is not None and (found.coverage >= MIN_COVERAGE or (sources and found.coverage > 0)):
            return chain_steps(found, graph, analysis, mode), "", "open"
        if u.intent is None and not u.named_tools:
            reason = "nothing in the question matches a registered source, concept or intent"
            script = foreign_script(analysis.question)
            if script is not None:
                reason += f": it is written in {script}, and no registered declaration shares a word with it"
            return [], reason, ""
        return [], "no registered source can answer this with the values given" + self._needs(analysis, sources), ""

    def reranked(self, analysis: Analysis, mode: Mode = "recall") -> tuple[list[PlanStep], list[Scored]]:
        """The routes' own plan for an understood question and every re-ranking candidate, best
        first (what the re-ranker's weights are fitted on; ``schemarouter_bench.fit_rerank``)."""
        if analysis.decline:
            return [], score_candidates(self.graph, analysis, [], False, self.dense)
        steps, _reason, route = self._choose(analysis, mode)
        return steps, score_candidates(self.graph, analysis, steps, route == "vocabulary", self.dense)

    def _rerank(self, analysis: Analysis, mode: Mode, steps: list[PlanStep], reason: str,
                route: str) -> tuple[list[PlanStep], str]:
        """The plan of the candidate re-ranking puts first (:mod:`schemarouter.router.rerank`): the
        routes' own plan where its target, or any endpoint it calls, ranks first; else the best
        candidate's chain (or, where the question cannot supply all it requires, the endpoint alone
        with what is missing named). A declined question stays declined only while the best
        candidate's probability is under the fitted threshold."""
        graph = self.graph
        scored = score_candidates(graph, analysis, steps, route == "vocabulary", self.dense)
        planned = {(s.source, s.endpoint) for s in steps}
        # an open chain's producer that ranks above its target is the better answer on its own: the
        # further step did not earn its place (a search's or a list's records are what was asked)
        target = (steps[-1].source, steps[-1].endpoint) if steps else None
        # the vocabulary's reading of what is asked holds over endpoints the vocabulary describes
        intent = analysis.understanding.intent if route == "vocabulary" else None
        # the caller's own space answers questions about the asker's own records, and only those
        own = analysis.own and any(c.info.endpoint.scope == "account" for c in scored)
        named = set(analysis.understanding.named_tools)

        def answers(c: Scored) -> bool:  # where the routes planned nothing, only a candidate over the threshold
            return bool(steps) or probability(c.score) >= threshold(c.dense)

        for i, candidate in enumerate(scored):
            if (candidate.info.endpoint.scope == "account") != own:
                continue
            if candidate.info.key in planned and (route != "open" or candidate.info.key == target):
                return steps, reason
            if intent is not None and candidate.info.intents and intent not in candidate.info.intents:
                continue  # described for other questions than the one understood
            if not candidate.partly_given(graph) and any(c.takes_the_question() and answers(c) for c in scored[i + 1:]):
                # the question gives none of what it requires, and a later one takes its values (one the
                # threshold would decline is no better: this one is planned, naming what it lacks)
                continue
            if candidate.chain is None and not endpoint_facts(graph, candidate.info).required_named:
                # it needs an input it does not declare (one of several identifiers) and the question
                # gives none: a step could not even name what is missing
                continue
            if not answers(candidate):
                return steps, reason
            if not steps and named and candidate.info.key.source not in named:
                # "... according to the Materials Project": a source the question names and the routes
                # found unable to answer is a constraint another source does not meet
                return steps, reason
            # a candidate the question cannot fully supply is planned where it ranks first: the
            # "buildable" features already weigh what is missing, and the step names it
            return candidate.steps(graph, analysis, mode), ""
        return steps, reason

    def _beyond_named(self, analysis: Analysis, named_share: float) -> OpenPlan | None:
        """The open route's chain over every source, where it beats the plan of a named source that
        explains only ``named_share`` of the question: the source a question names may be what it
        measures ("pageviews on English Wikipedia"), not the one to ask. It must come from a source
        the vocabulary cannot see and explain at least :data:`MIN_COVERAGE`, and the override margin
        more than the named source."""
        anywhere = open_route(self.graph, analysis, None)
        if anywhere is None or all(i.intents for i in anywhere.endpoints):
            return None
        return anywhere if anywhere.coverage >= max(MIN_COVERAGE, named_share + OVERRIDE_MARGIN) else None

    def _needs(self, analysis: Analysis, sources: set[str] | None) -> str:
        """For a named source that cannot answer: what its best-matching endpoint needs that the
        question does not give ("; nyt_archive.archive needs year and month, which the question does
        not give"), or ""."""
        graph = self.graph
        if not sources:
            return ""
        keep = {graph.numbers[i.key] for s in sorted(sources) for i in graph.source_endpoints(s)
                if i.access == "read" and i.key in graph.numbers}
        if not keep:
            return ""
        # the endpoint the question's words reach best, else the source's first
        top = graph.lexical.top(analysis.all_terms, 1, keep=keep)
        info = graph.endpoints[graph.lexical.keys[top[0][0] if top else min(keep)]]
        missing = [p.name for p in missing_required(graph, info, fill(info, graph, analysis, set()).values)]
        if not missing:
            return ""
        listed = missing[0] if len(missing) == 1 else ", ".join(missing[:-1]) + f" and {missing[-1]}"
        return f"; {info.label} needs {listed}, which the question does not give"

    def _reaches_undeclared(self, terms: list[str]) -> bool:
        """Whether an endpoint declaring no intent is among the best lexical matches of ``terms``."""
        lex, graph = self.graph.lexical, self.graph
        if not _has_undeclared(graph):
            return False  # every endpoint is described: nothing to look for
        return any(not graph.endpoints[lex.keys[i]].intents for i, _ in lex.top(terms, OPEN_PROBE))

    def _serves_current(self, steps: list[PlanStep]) -> bool:
        """Whether some step's declaration says it serves current data (current, live, latest, now...)."""
        lex, numbers = self.graph.lexical, self.graph.numbers
        nums = [numbers[(s.source, s.endpoint)] for s in steps if (s.source, s.endpoint) in numbers]
        return bool(lex.covered(nums, CURRENT_TERMS))

    def _current_instead(self, analysis: Analysis, mode: Mode) -> tuple[list[PlanStep], str]:
        """For a question about now whose chosen sources do not say they serve current data: the chain
        of the best re-ranking candidate whose steps say so ("all world football news live" for "the
        latest football news"), where the fitted model would plan it (its probability over the
        threshold, every required parameter supplied); else the decline. Evidence re-ranks: a
        described source that does not serve current data yields to one that does, and only where
        none does is the question declined."""
        graph, lex = self.graph, self.graph.lexical
        named = set(analysis.understanding.named_tools)
        for candidate in score_candidates(graph, analysis, [], False, self.dense):
            if candidate.chain is None or probability(candidate.score) < threshold(candidate.dense):
                continue
            if (candidate.info.endpoint.scope == "account" and not analysis.own) or (
                    named and candidate.info.key.source not in named):
                continue  # not the asker's own records, or not the source the question names
            nodes = candidate.chain.nodes()
            if lex.covered([graph.numbers[n.info.key] for n in nodes if n.info.key in graph.numbers], CURRENT_TERMS):
                return candidate.steps(graph, analysis, mode), ""
        return [], "asks for a value as of now, and no chosen source says it serves current data"

    def _described(self, steps: list[PlanStep]) -> bool:
        """Whether the steps' endpoints are described to the router (intents: its vocabulary knows what
        they serve, and so whether they serve current data); an imported endpoint declares nothing
        either way, so a question about now only prefers one that says it is current."""
        return any(self.graph.endpoints[(s.source, s.endpoint)].intents for s in steps
                   if (s.source, s.endpoint) in self.graph.endpoints)

    def _write_hint(self, analysis: Analysis) -> str:
        """A decline for a request to act, naming the write operation that would do it, if one is known."""
        graph = self.graph
        writes = {graph.numbers[k] for k, i in graph.endpoints.items() if i.access == "write"}
        fitting: set[int] = set()
        if analysis.action:
            # "delete it" is done by a DELETE: the writes of the asked kind (see ``METHOD_SHARE``)
            methods = write_methods(analysis.action)
            fitting = {n for n in writes if graph.endpoints[graph.lexical.keys[n]].endpoint.method in methods}
        reason = analysis.decline or "asks for an action, not for data"
        # "Rename my Vimeo video ...": a source the question names does it, where that source has writes
        named = {n for n in writes if graph.lexical.keys[n][0] in analysis.understanding.named_tools}
        if named:
            writes, fitting = named, fitting & named
        # what to act on, not a quoted value to send ("to 'Field notes, day 3'" names no notes endpoint);
        # words run together as a path writes them ("Watch Later" for /me/watchlater)
        text = without(analysis.question, quoted_values(analysis.question))
        terms = [*question_terms(text), *(c for c in analysis.compounds if c in graph.lexical.idf)]
        if writes:
            scored = graph.lexical.score(terms)
            top = best_scored(scored, 1, writes)
            if top:
                # the asked kind is evidence, not a gate: a write of that kind is named where its
                # words fit nearly as well as the best write's
                fit = best_scored(scored, 1, fitting) if fitting else []
                if fit and fit[0][1] >= METHOD_SHARE * top[0][1]:
                    top = fit
                info = graph.endpoints[graph.lexical.keys[top[0][0]]]
                ep = info.endpoint
                reason += (f"; it would be a write of {info.source.title}'s {ep.method} {ep.path}"
                           f" ({info.key.source}.{ep.id}), and writes are not enabled")
        return reason

    # -- candidates and ranking -------------------------------------------------------------
    def evidence(self, analysis: Analysis, k: int = 6) -> list[tuple[str, float, dict[str, float]]]:
        """The re-ranker's ``k`` best candidates for an understood question, best first: each one's
        label, the probability the fitted model gives it, and its features by name (for explanations)."""
        if analysis.decline:
            return []
        _steps, scored = self.reranked(analysis)
        return [(c.info.label, probability(c.score), dict(zip(FEATURES, c.features, strict=True))) for c in scored[:k]]

    def candidates(self, analysis: Analysis) -> list[Candidate]:
        """Every endpoint, best first (scores all of them: for explanations, not for planning)."""
        infos = list(self.graph.endpoints.values())
        wanted = _wanted_concepts(analysis)
        groups = set(self.graph.intent_groups(analysis.understanding.intent))
        out = sorted(
            (self._keyed(i, match_endpoint(self.graph, i, analysis.understanding.concepts, analysis.matched), analysis, wanted,
                         groups) for i in infos),
            key=lambda c: c.info.label,
        )
        return sorted(out, key=lambda c: c.key, reverse=True)  # stable: ties stay in label order

    def _keyed(
        self, info: EndpointInfo, m: EndpointMatch, analysis: Analysis, wanted: set[str] | None, groups: set[str]
    ) -> Candidate:
        u = analysis.understanding
        score = m.score + _property_param_bonus(info, m, self.graph)
        serves = 1 if u.intent in info.intents else 0
        coverage = len(groups & info.groups)
        fit = _entity_fit(info, wanted)
        evidence = sum(analysis.intent_scores.get(i, 0.0) for i in info.intents)
        key = ranking_key(fit, score, serves, 0 if info.is_web else 1, coverage, evidence, info.source.priority,
                          len(info.fields))
        return Candidate(info, m, key)

    def _ranking(self, analysis: Analysis) -> tuple[Callable[[], Pool], Callable[[str], list[Candidate]]]:
        """The pool of endpoints serving the intent (made when first asked for: a question naming its
        source may never need it), and the ranked endpoints of a named source: the same order
        ``candidates`` gives, restricted to them, building only the candidates a plan reads."""
        u = analysis.understanding
        graph = self.graph
        wanted = _wanted_concepts(analysis)
        groups = set(graph.intent_groups(u.intent))
        # which endpoints have a field for each concept: asked of the whole registry only when the pool
        # is made (a question naming its source reads its own endpoints' fields, a few, one by one)
        hits: dict[tuple[str, str], dict[tuple[str, str], float]] = {}
        built: dict[tuple[str, str], Candidate] = {}
        made: list[Pool] = []

        def make(info: EndpointInfo) -> Candidate:
            c = built.get(info.key)
            if c is None:
                m = (match_from_hits(graph, info, u.concepts, analysis.matched, hits) if made
                     else match_endpoint(graph, info, u.concepts, analysis.matched))
                c = built[info.key] = self._keyed(info, m, analysis, wanted, groups)
            return c

        def build(info: EndpointInfo, run: Run) -> Candidate:
            if run.match is None:
                return make(info)
            c = built.get(info.key)
            if c is None:
                c = built[info.key] = self._keyed(info, _copy_match(run.match), analysis, wanted, groups)
            return c

        def proxy(entry: Entry, run: Run) -> Candidate:
            sk, info = entry
            return Candidate(info, run.match or _NO_MATCH, tuple(-x for x in sk[:8]))

        def pool() -> Pool:
            if made:
                return made[0]
            hits.update({(c, w): concept_hits(graph, c, w) for c, w in ((c, analysis.matched.get(c, c)) for c in u.concepts)})
            scores = phrase_scores(u.concepts, analysis.matched, lambda c, w: hits[(c, w)], normalize)
            numeric = {c for c in u.concepts if _numeric(graph, c)}
            zero = EndpointMatch(0.0, {}, list(u.concepts))
            runs: list[tuple[Run, tuple[Test, ...]]] = []
            intent_groups = graph.intent_order.get(u.intent or "", [])
            reached = reached_in(intent_groups, graph.intent_places.get(u.intent or "", {}), scores)
            for group, group_reached in zip(intent_groups, reached, strict=True):
                head = group.endpoints[0]
                fit = _entity_fit(head, wanted)
                evidence = round(sum(analysis.intent_scores.get(i, 0.0) for i in group.intents), 3)
                web = 0 if group.source_type == "web" else 1  # the head's source type, read of no source
                buckets: dict[float, list[int]] = {}
                for pos in group_reached:
                    key = group.keys[pos]
                    score = scores[key]
                    if group.property_param:
                        score += _bonus([c for c in u.concepts if key not in hits[(c, analysis.matched.get(c, c))]],
                                        numeric)
                    buckets.setdefault(score, []).append(pos)
                for score, positions in buckets.items():
                    runs.append((Run(_entries(group, positions, fit, score, web, evidence), None, group.field_type), ()))
                rest = _bonus(u.concepts, numeric) if group.property_param else 0.0
                unreached = (pos for pos, key in enumerate(group.keys) if key not in scores)
                runs.append((Run(_entries(group, unreached, fit, rest, web, evidence), zero, group.source_type), ()))
            made.append(Pool(runs, build, proxy))
            return made[0]

        def named(source: str) -> list[Candidate]:
            return sorted((make(i) for i in graph.source_endpoints(source)), key=sort_key)

        return pool, named

    def _steps(self, analysis: Analysis, mode: Mode) -> list[PlanStep | None]:
        u = analysis.understanding
        ranked, named = self._ranking(analysis)

        def fitting() -> Pool:
            return ranked().where(lambda c: c.key[0] >= 0)

        if u.named_tools:
            chosen: list[Candidate] = []
            for source in u.named_tools:
                own = [c for c in named(source) if c.key[0] >= 0]
                step = self._first_buildable(own, analysis, mode)
                if step:
                    chosen.append(step)
            if len(chosen) > 1 and not (analysis.compare or len(u.named_tools) > 1):
                chosen = chosen[:1]
            if analysis.compare and len(chosen) == 1:
                # "MP's band gap of GaN against experiment": add the best source of the other provenance
                other = [k for k in analysis.compare_kinds if k != _provenance(chosen[0])]
                extra = None
                if other:
                    same = fitting().with_provenance(other[0], _provenance)
                    extra = next((c for c in same if c.source != chosen[0].source
                                  and self._params(c, analysis)[0] is not None), None)
                if extra is not None:
                    chosen.append(extra)
            return [self._step(c, analysis, mode) for c in chosen]
        pool = fits = fitting()
        groups = set(self.graph.intent_groups(u.intent))
        pool = pool.where(lambda c: bool(groups & c.info.groups) or c.key[1] > 0) or pool
        if u.source_constraint and not (analysis.compare and len(analysis.compare_kinds) > 1):
            filtered = pool.with_provenance(u.source_constraint, _provenance)
            pool = filtered or pool
        if not pool:
            return []
        kinds = analysis.compare_kinds if analysis.compare else []
        if len(kinds) > 1:
            # "computed vs measured": the best source of each provenance
            by_kind = [next((c for c in fits.with_provenance(k, _provenance)
                             if self._params(c, analysis)[0] is not None), None)
                       for k in kinds]
            found = [c for c in by_kind if c is not None]
            if len(found) > 1:
                return [self._step(c, analysis, mode) for c in found]
        if analysis.compare and u.concepts:
            picked: list[Candidate] = []
            best = pool.first().key[1]  # type: ignore[union-attr]
            for c in pool.where(lambda c: c.key[1] > 0):
                if c.key[1] < best - 1e-9 or any(p.source == c.source for p in picked):
                    continue
                if self._params(c, analysis)[0] is None:
                    continue
                picked.append(c)
                if len(picked) == MAX_COMPARE_STEPS:
                    break
            if len(picked) > 1:
                return [self._step(c, analysis, mode) for c in picked]
        first = self._first_buildable(pool, analysis, mode)
        return [self._step(first, analysis, mode)] if first else []

    def _first_buildable(self, ranked: Iterable[Candidate], analysis: Analysis, mode: Mode) -> Candidate | None:
        for c in ranked:
            if self._params(c, analysis)[0] is not None:
                return c
        return None

    def _params(self, c: Candidate, analysis: Analysis) -> tuple[dict[str, Any] | None, list[str]]:
        params, notes = fill_params(c.info, analysis, c.match.unmatched, self.graph.identifier_concepts)
        required = [p.name for p in c.info.parameters if p.required]
        if any(r not in params for r in required):
            return None, notes
        takes_entity = any(p.concept for p in c.info.parameters)
        if takes_entity and not params:
            return None, notes  # nothing to select records by: not an executable request
        return params, notes

    # -- one step -----------------------------------------------------------------------------
    def _step(self, c: Candidate, analysis: Analysis, mode: Mode) -> PlanStep:
        params, notes = self._params(c, analysis)
        info = c.info
        u = analysis.understanding
        why: dict[str, str] = {}
        for f in info.fields.values():
            if f.field.identifier:
                why[f.name] = "identifier of the record"
        for name, (score, reason) in sorted(c.match.fields.items(), key=lambda kv: -kv[1][0]):
            why.setdefault(name, reason + (f" (score {score:g})"))
        property_fields = _property_value_fields(info, c.match, self.graph)
        for name in property_fields:
            why.setdefault(name, "value of the property named in the request parameter")
        groups = self._projection_groups(info, analysis, mode, c.match)
        for f in info.fields.values():
            if f.field.group in groups:
                why.setdefault(f.name, f"in field group {f.field.group} of intent {u.intent or '-'} (recall)")
        for name, reason in structure_fields(info, analysis).items():
            why.setdefault(name, reason)
        fields = [name for name in info.fields if name in why]
        meta = {name: info.fields[name].meta() for name in fields}
        if notes:
            why["_params"] = "; ".join(notes)
        return PlanStep(
            source=info.key.source, endpoint=info.key.endpoint, params=params or {}, fields=fields, meta=meta,
            why=why, score=round(c.key[1], 3),
        )

    def _projection_groups(self, info: EndpointInfo, analysis: Analysis, mode: Mode, m: EndpointMatch) -> set[str]:
        u = analysis.understanding
        intent_groups = set(self.graph.intent_groups(u.intent))
        if analysis.compare and u.intent == "cross_source_comparison" and m.fields:
            # a comparison wants the compared quantity, not every group a comparison could touch
            return set() if mode == "minimal" else {info.fields[n].field.group for n in m.fields}
        if not m.fields and not _property_value_fields(info, m, self.graph):
            if mode == "minimal" and intent_groups:
                # minimal: only what the question's own intent is about ("crystal structure of NaCl":
                # structure and composition), not every intent this endpoint serves
                return intent_groups
            # an ambiguous question: the groups of every intent this endpoint serves in that domain
            domains = set(self.graph.decls.intents[u.intent].domains) if u.intent in self.graph.decls.intents else set()
            groups = set(intent_groups)
            for intent in info.intents:
                found = self.graph.decls.intents.get(intent)
                if found and (not domains or set(found.domains) & domains):
                    groups |= set(found.field_groups)
            return groups
        return set() if mode == "minimal" else intent_groups


def _claimed(u: Understanding, steps: list[PlanStep], graph: SchemaGraph) -> Understanding:
    """The understanding as the open route used it: an entity is claimed only where a chosen endpoint
    takes that kind of value ("lead" read as Pb means nothing to a film database), and an intent only
    where a chosen endpoint serves it."""
    infos = [graph.endpoints[(s.source, s.endpoint)] for s in steps]
    taken = {p.concept for i in infos for p in i.parameters if p.concept}
    served = {intent for i in infos for intent in i.intents}
    params = {k: v for k, v in u.params.items() if k in taken or (k == "elements" and "element" in taken)}
    return u.model_copy(update={"params": params, "intent": u.intent if u.intent in served else None})


def _typed_entity(analysis: Analysis) -> bool:
    """Whether the question carries a value written in a typed notation (a DOI, an id, a formula as
    a formula), which the vocabulary's readers recognize with confidence; a formula read from a word
    ("lead", "iron") is not such a value."""
    for e in analysis.entities:
        if e.extra.get("declared") or e.kind in _TYPED_KINDS or (e.kind == "formula" and not e.extra.get("name")):
            return True
    return False


def _wanted_concepts(analysis: Analysis) -> set[str] | None:
    """Parameter concepts that could carry the question's entities (None: it has no entities)."""
    wanted = {c for e in analysis.entities if e.kind != "year" and (c := entity_concept(e))}
    if not wanted:
        return None
    if any(e.kind == "formula" and e.extra.get("name") for e in analysis.entities):
        wanted.add(ENTITY_CONCEPT["compound"])  # "sodium chloride" is also a compound name
    if "formula" in wanted:
        wanted |= {"element"}
    return wanted


def _entity_fit(info: EndpointInfo, wanted: set[str] | None) -> int:
    """2 if the endpoint takes one of the question's entities as such, 1 only as free text or a page
    title, 0 if the question has none, -1 if it can take none of them."""
    if wanted is None:
        return 0
    concepts = {p.concept for p in info.parameters if p.concept}
    if concepts & wanted:
        return 2
    # free text takes any entity; a page title takes the thing asked about
    loose = {"query_text"}
    if wanted & {"formula", "compound_name", "corp_name"}:
        loose |= {"title"} if any(p.required and p.concept == "title" for p in info.parameters) else set()
    return 1 if concepts & loose else -1


def _provenance(c: Candidate) -> str:
    """Source type of the fields that answer; the source's own type when nothing matched."""
    types = {c.info.fields[n].source_type for n in c.match.fields}
    if len(types) == 1:
        return types.pop()
    if types:
        best = max(c.match.fields.items(), key=lambda kv: kv[1][0])[0]
        return c.info.fields[best].source_type
    return c.info.source.source_type.value


def _property_param_bonus(info: EndpointInfo, m: EndpointMatch, graph: SchemaGraph) -> float:
    """An endpoint that takes the property's name as a parameter answers a concept no field names."""
    if not m.unmatched or not any(p.concept == "property_name" for p in info.parameters):
        return 0.0
    return _bonus(m.unmatched, {c for c in m.unmatched if _numeric(graph, c)})


def _bonus(unmatched: list[str], numeric: set[str]) -> float:
    """The property-name bonus of an endpoint taking a property name, given its unmatched concepts."""
    if not unmatched:
        return 0.0
    return 2.0 * min(len([c for c in unmatched if c in numeric]), 1)


def _numeric(graph: SchemaGraph, concept: str) -> bool:
    """Whether a numeric field carries ``concept``."""
    return concept in graph.numeric_concepts


def _has_undeclared(graph: SchemaGraph) -> bool:
    """Whether some read endpoint declares no intent, one the vocabulary cannot see (remembered per graph)."""
    memo = graph.memos.of(RouterGraphMemo)
    if memo.has_undeclared is None:
        memo.has_undeclared = any(not i.intents and i.access == "read" for i in graph.endpoints.values())
    return memo.has_undeclared


def _entries(group: IntentGroup, positions: Iterable[int], fit: int, score: float, web: int,
             evidence: float) -> Iterator[Entry]:
    """(sort key, endpoint) of a group's endpoints at ``positions``: the key ``Router._keyed`` gives, from
    the group's shared facts and each endpoint's presorted tail (its negated coverage and priority)."""
    for pos in positions:
        neg_coverage, neg_priority, n_fields, label = group.tails[pos]
        key = ranking_key(fit, score, 1, web, -neg_coverage, evidence, -neg_priority, n_fields)
        yield ascending(key, label), group.endpoints[pos]


def _copy_match(m: EndpointMatch) -> EndpointMatch:
    return EndpointMatch(m.score, dict(m.fields), list(m.unmatched))


_NO_MATCH = EndpointMatch()


def _property_value_fields(info: EndpointInfo, m: EndpointMatch, graph: SchemaGraph) -> list[str]:
    if not _property_param_bonus(info, m, graph):
        return []
    return [f.name for f in info.fields.values() if not f.field.identifier and f.field.group not in ("identity", "composition")]
