"""Scores for plans over sources nobody tuned the router for (imported dev set and RestBench TMDB).

Imported-sources dev set, per question:

- *endpoint set exact*: the plan's (source, endpoint) multiset equals the gold's or an
  alternative's (steps compared as a multiset: order and parameters aside);
- *gold fields found*: recall over the gold's (source, endpoint, field) triples, leaving out
  only the fields the gold itself marks as identifiers;
- *required parameters filled*: of the gold's parameters (a gold step lists exactly the values the
  question requires the call to carry, whether or not the document marks them required), those
  the plan fills with the gold literal (after normalization) or binds to a producer step whose
  endpoint is the gold producer's; a value the plan guesses where the gold binds counts as a
  miss. The same over only the parameters the document itself requires is reported beside it;
- *declined*: the plan has no steps.

RestBench TMDB, per query (plan steps mapped to ``"METHOD /path"`` through the registry, path
variable names ignored so ``/person/{movie_id}`` matches ``/person/{person_id}``): gold
endpoints found (multiset recall), whole chain exact (the ordered lists are equal), first
endpoint correct, no plan at all.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from schemarouter.plan import Plan
from schemarouter_bench.devset import DevQuestion, DevStep, TmdbQuery, is_binding
from schemarouter_bench.metrics import values_match


@dataclass(frozen=True)
class PlanView:
    """A plan step as the scores see it (chained plans carry step ids and binding parameters)."""

    id: str | None
    source: str
    endpoint: str
    params: dict[str, Any]
    fields: list[str]

    @property
    def key(self) -> tuple[str, str]:
        """The (source, endpoint) pair the step calls."""
        return (self.source, self.endpoint)


def plan_view(plan: Plan) -> list[PlanView]:
    """The plan's steps reduced to what open-world scoring compares."""
    out = []
    for step in plan.steps:
        data = step.model_dump()
        out.append(PlanView(data.get("id"), step.source, step.endpoint, dict(step.params), list(step.fields)))
    return out


# -- parameter values ----------------------------------------------------------------------------
_DATE_FORMATS = ("%Y-%m-%d", "%Y/%m/%d", "%d.%m.%Y", "%B %d, %Y", "%d %B %Y", "%Y%m%d")


def _as_date(value: Any) -> dt.date | None:
    if not isinstance(value, str):
        return None
    text = value.strip()
    for fmt in _DATE_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    try:
        return dt.datetime.fromisoformat(text).date()
    except ValueError:
        return None


def _as_list(value: Any) -> list[Any] | None:
    if isinstance(value, list):
        return value
    if isinstance(value, str) and ("," in value or ";" in value):
        return [p.strip() for p in re.split(r"[,;]", value) if p.strip()]
    return None


def literal_matches(gold: Any, got: Any) -> bool:
    """Whether ``got`` is the gold literal: ``{"one_of": [...]}`` accepts any listed value; lists compare
    as sets (a comma-separated string counts as a list, a one-item list as its item); dates by date;
    the rest as the first-party metrics compare (numbers by value, text case- and space-insensitively)."""
    if isinstance(gold, dict) and "one_of" in gold:
        return any(literal_matches(g, got) for g in gold["one_of"])
    if got is None or is_binding(got):
        return False
    if isinstance(gold, list) or isinstance(got, list):
        g = gold if isinstance(gold, list) else _as_list(gold) or [gold]
        o = got if isinstance(got, list) else _as_list(got) or [got]
        return len(g) == len(o) and all(any(literal_matches(x, y) for y in o) for x in g)
    gd, od = _as_date(gold), _as_date(got)
    if gd is not None and od is not None:
        return gd == od
    if isinstance(gold, bool) and isinstance(got, str):
        return got.strip().casefold() == str(gold).casefold()
    return values_match(gold, got)


# -- the imported-sources dev set -------------------------------------------------------------------
@dataclass
class OptionScore:
    """How one plan matches one gold option: endpoint match, field and parameter hits."""

    exact: bool
    fields_hit: int
    fields_total: int
    params_hit: int
    params_total: int
    doc_required_hit: int
    doc_required_total: int
    missing_fields: list[str] = field(default_factory=list)
    param_misses: list[str] = field(default_factory=list)

    @property
    def field_recall(self) -> float | None:
        """The share of gold fields the plan fetches; None when the option counts none."""
        return self.fields_hit / self.fields_total if self.fields_total else None

    def rank(self) -> tuple[bool, float, int]:
        """The sort key that picks the best-fitting gold option."""
        return (self.exact, self.field_recall or 0.0, self.params_hit - self.params_total)


def _match_steps(plan: list[PlanView], gold: list[DevStep]) -> list[PlanView | None]:
    """For each gold step, the unused plan step on the same endpoint whose literal values fit it best
    (so two steps on one endpoint match whatever their order in the plan)."""
    used: set[int] = set()
    out: list[PlanView | None] = []
    for g in gold:
        candidates = [i for i, s in enumerate(plan) if i not in used and s.key == (g.source, g.endpoint)]

        def fit(i: int, g: DevStep = g) -> int:
            return sum(literal_matches(v, plan[i].params.get(k)) for k, v in g.params.items() if not is_binding(v))

        hit = max(candidates, key=lambda i: (fit(i), -i)) if candidates else None
        if hit is not None:
            used.add(hit)
        out.append(plan[hit] if hit is not None else None)
    return out


def _binding_ok(value: Any, gold_value: dict[str, Any], plan: list[PlanView], gold: list[DevStep]) -> bool:
    if not is_binding(value):
        return False
    producer = next((s for s in plan if s.id is not None and s.id == value["from"]), None)
    wanted = next((g for g in gold if g.id == gold_value["from"]), None)
    return producer is not None and wanted is not None and producer.key == (wanted.source, wanted.endpoint)


def score_option(plan: list[PlanView], gold: list[DevStep], required: dict[str, set[str]]) -> OptionScore:
    """``required``: per gold call ("METHOD /path"), the parameter names the document requires."""
    exact = Counter(s.key for s in plan) == Counter((g.source, g.endpoint) for g in gold)
    matched = _match_steps(plan, gold)
    score = OptionScore(exact, 0, 0, 0, 0, 0, 0)
    for g, step in zip(gold, matched, strict=True):
        for name in g.counted_fields:
            score.fields_total += 1
            if step is not None and name in step.fields:
                score.fields_hit += 1
            else:
                score.missing_fields.append(f"{g.source}.{g.endpoint}.{name}")
        for name, want in g.params.items():
            got = None if step is None else step.params.get(name)
            ok = _binding_ok(got, want, plan, gold) if is_binding(want) else literal_matches(want, got)
            score.params_total += 1
            score.params_hit += ok
            if name in required.get(g.call, set()):
                score.doc_required_total += 1
                score.doc_required_hit += ok
            if not ok:
                shown = f"{{from {want['from']}.{want['field']}}}" if is_binding(want) else repr(want)
                score.param_misses.append(f"{g.endpoint}.{name}: want {shown}, got {got!r}")
    return score


def best_option(
    plan: list[PlanView], q: DevQuestion, required: dict[str, set[str]]
) -> tuple[int, OptionScore]:
    """The index and score of the gold option the plan fits best."""
    scored = [(i, score_option(plan, option, required)) for i, option in enumerate(q.gold_sets)]
    return max(scored, key=lambda t: t[1].rank())


def names_write(declined: str | None, write_endpoint: str | None, operation_id: str | None) -> bool:
    """Whether a decline names the write operation that would do what was asked (path or operation id)."""
    if not declined or not write_endpoint:
        return False
    text = declined.casefold()
    _method, _, path = write_endpoint.partition(" ")
    return path.casefold() in text or bool(operation_id and operation_id.casefold() in text)


# -- RestBench TMDB ------------------------------------------------------------------------------------
_VAR = re.compile(r"\{[^{}]*\}")


def normalize_call(call: str) -> str:
    """``"GET /person/{movie_id}/movie_credits "`` -> ``"GET /person/{}/movie_credits"``."""
    method, _, path = call.strip().partition(" ")
    return f"{method.upper()} {_VAR.sub('{}', path.strip())}"


@dataclass
class ChainScore:
    """How a plan's call chain matches a RestBench solution chain."""

    found: float
    exact: bool
    first: bool
    no_plan: bool
    plan_calls: list[str]
    gold_calls: list[str]


def score_chain(plan_calls: list[str], q: TmdbQuery) -> ChainScore:
    """Compare a plan's calls with the solution's: overlap, exact order and first call."""
    got = [normalize_call(c) for c in plan_calls]
    want = [normalize_call(c) for c in q.solution]
    overlap = sum((Counter(got) & Counter(want)).values())
    return ChainScore(
        found=overlap / len(want) if want else 1.0,
        exact=got == want,
        first=bool(got) and bool(want) and got[0] == want[0],
        no_plan=not got,
        plan_calls=got,
        gold_calls=want,
    )
