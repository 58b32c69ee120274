"""Parameter values read from the question for endpoints that declare no concepts.

An imported endpoint's parameters say only their name, type, format, pattern, enum and
description. A value is given to a parameter only where the question carries one of the kind
the parameter takes, judged from those declarations:

- free-text search parameters (``query``, ``q``, ``search``, ``keyword``...) take the name the
  question is about ("The Dark Knight"); a required one with no name takes what the question
  quotes ("jokes that involve 'sports'"), else the words its endpoint does not describe;
- a declared ``pattern`` takes the question's token that matches it whole; a date ``format`` a
  written date; an ``enum`` the member the question says;
- a resource id (``{gene_id}``, ``accession``) takes an identifier-shaped token of the question;
- ``season_number``-like integers take "the second season" / "season 2";
- a year parameter takes the year; a date or time parameter the one written after its name's words
  ("returning on ..."), in the form its description gives ("MM/DD/YYYY", "HH:MM");
- a code a description explains ("'3' for Chonburi") is said by its label; a flag by what it is for;
- who made a work (``artist``, ``director``) takes the name said to have made it ("by Kesha"), a
  cast the name said to act in it ("starring Jim Carrey", "with Monica Dolan in it");
- places: the ends of a journey by "from" and "to", a required location by "in" (``router.places``).

What a declaration says whatever the question (free text, credential, identifier, path segment)
is read once per endpoint in :mod:`schemarouter.router.param_facts`; this module reads the question.

Nothing is invented: a parameter the question says nothing about stays out (and a required one
is then bound to an earlier step, or the endpoint is not used). A declared ``example`` is never
a value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from schemarouter.graph.links import resource_of
from schemarouter.graph.terms import name_terms, stem
from schemarouter.models import Parameter
from schemarouter.router.atomic_numbers import atomic_number
from schemarouter.router.counts import count_for, free_key
from schemarouter.router.date_values import (
    clocked,
    date_for,
    date_parts,
    month_bound,
    month_taken,
    spelled,
    time_parts,
)
from schemarouter.router.enum_kinds import true_member
from schemarouter.router.flags import negated, states
from schemarouter.router.identifiers import identifier_for
from schemarouter.router.listed import joined_after, names_listed, numbers_listed
from schemarouter.router.members import enum_members, legend_code, listed_member, written_member
from schemarouter.router.modifiers import modified_noun
from schemarouter.router.money import currency_value
from schemarouter.router.name_words import takes_no_name
from schemarouter.router.named import kind_named, record_named, word_before, written_after_noun
from schemarouter.router.numbers import (
    as_fraction,
    list_items,
    number_after,
    parse_number,
    span_bound,
    with_scale,
    written_lists,
)
from schemarouter.router.param_facts import (
    ELEVATION_WORDS,
    ParamFacts,
    date_like,
    flag_terms,
    is_address,
    is_curie,
    names_a_year,
    parameter_facts,
)
from schemarouter.router.places import airport_code, role_value, state_after_place, with_region
from schemarouter.router.quantities import code_after, in_hours, mid_year, zero_elevation
from schemarouter.router.question_facts import (
    dates_said,
    identifiers,
    may_take,
    question_says,
    question_words,
    quoted_values,
    said_sets,
    unit_terms,
    written_in_shape,
)
from schemarouter.router.roles import AGENT_TERMS, CAST_WORDS, acting_name, asker_for, for_maker, maker_name
from schemarouter.router.runs import longest_run
from schemarouter.router.spans import names_a_span, written_span
from schemarouter.router.superlatives import high_end_first, most_said, ordered_member, reverses
from schemarouter.router.unit_bounds import named_bound, unit_bound, unit_named, unit_value
from schemarouter.router.validate import takes
from schemarouter.understand.base import Analysis
from schemarouter.understand.countries import country_codes
from schemarouter.understand.currencies import money_amounts
from schemarouter.understand.entities import Entity

_BRACKETED = re.compile(r"\(([^()]*)\)")
_ASIDE_WORD = re.compile(r"[^\W\d_][\w'-]*")


@dataclass
class Filled:
    """Values for some parameters of one endpoint, and which question values they used."""

    values: dict[str, Any] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)  # the question values spent, as written
    weak: set[str] = field(default_factory=set)  # of those, the ones tied to their parameter only by shape
    tied: set[str] = field(default_factory=set)  # of those, the ones the question's words tie to their parameter
    said: set[str] = field(default_factory=set)  # question terms a value speaks for ("downloaded" -> order=downloads)
    guessed: set[str] = field(default_factory=set)  # parameters given a guess (what to search for; router.guesses)
    why: dict[str, str] = field(default_factory=dict)

    def merge(self, other: Filled) -> None:
        """Add ``other``'s values (for parameters of the same endpoint) and what they spent."""
        self.values.update(other.values)
        self.used |= other.used
        self.weak |= other.weak
        self.tied |= other.tied
        self.said |= other.said
        self.guessed |= other.guessed
        self.why.update(other.why)


# the last word of a parameter's name that takes a coordinate of the question's latitude/longitude pair
_LATITUDE = ("lat", "latitude")
_LONGITUDE = ("lon", "lng", "long", "longitude")
_PLACE_WORDS = frozenset((*_LATITUDE, *_LONGITUDE))


def open_values(params: Sequence[Parameter], analysis: Analysis, path: str, taken: set[str] | None = None,
                unknown: Callable[[str], bool] | None = None,
                unexplained: Callable[[str], bool] | None = None,
                facts: Mapping[str, ParamFacts] | None = None,
                listed: Callable[[str], bool] | None = None) -> Filled:
    """Values for ``params`` from what the question carries (see the module docstring). ``unknown``
    tells whether no declaration of the registry mentions a term: such words ("imatinib", "graphene")
    are what a free-text parameter is given when the question names nothing. ``unexplained`` tells
    whether the endpoint's own declaration leaves a term unsaid: a *required* search text with no
    name and no unknown word takes the longest run of such words ("journals about marine biology"
    -> "marine biology" for a journal search), the part of the question the endpoint itself does not
    describe.

    ``used`` holds each question value spent (as written), so one value never fills two parameters;
    ``weak`` those spent on an optional parameter only by their shape (no word of the question ties
    them to it), which count for less when plans are compared. ``facts`` are the parameters'
    :class:`ParamFacts` by name where the caller keeps them (read here otherwise). ``listed`` tells
    whether a term names records some endpoint of the registry lists (a word of a path): a name
    written right before one is that kind of record's name ("the Riverside district")."""
    out = Filled()
    taken = set(taken or ())
    # the caller's facts are the endpoint's, a superset of ``params``
    if facts is None:  # no graph: the identifier kinds are those the question carries
        kinds = {e.kind for e in analysis.entities if e.extra.get("declared")}
        facts = {p.name: parameter_facts(p, path, id_kinds=kinds) for p in params}
    known = facts
    # each parameter with its facts, which carry what the passes below read of its declaration (a
    # declaration's attributes cost a lookup through the model on every read)
    every = [(p, known[p.name]) for p in params]
    if analysis.coordinates_written and any(f.words and f.words[-1] in _PLACE_WORDS for _p, f in every):
        # where the endpoint takes the pair, its numbers are the pair's alone: no altitude takes the 60 of
        # "12 km altitude, 60° N, 10° E" (the pair itself is read whole, whatever was taken)
        taken |= set(analysis.coordinates_written)
    own = [entry for entry in every if entry[1].own]
    parts = date_parts(own, analysis, taken)
    if parts:
        # an endpoint that takes a date in parts (/archive/{year}/{month}/{day}) gets the parts of
        # a date the question writes, spending the date once
        date = parts.pop("")
        for p, f in own:
            if f.name in parts:
                out.values[f.name] = _typed(p, parts[f.name])
                out.why[f.name] = f"the {f.words[-1]} of {date} in the question"
        out.used.add(date)
        out.tied.add(date)
        own = [entry for entry in own if entry[1].name not in parts]
    clock, spent_clock = time_parts(own, analysis, taken)
    if clock:
        # ... and one that takes a time in parts (hour, minute, second) the parts of the time written,
        # its numbers spent with it (no other number parameter takes the 18 of "18:45:30")
        for p, f in own:
            if f.name in clock:
                out.values[f.name] = _typed(p, str(clock[f.name]))
                out.why[f.name] = f"the {f.time_part} of the time {spent_clock[0]} in the question"
        out.used.update(spent_clock)
        out.tied.add(spent_clock[0])
        own = [entry for entry in own if entry[1].name not in clock]
    # the vocabulary rules (router.params) fill the others: they own those spellings.
    # In three passes: a value goes first to a parameter the question's words tie it to ("target
    # CHEMBL203" to targetChemblId), then to one whose endpoint lists such records, and only then
    # to one that takes it by its shape alone
    # (how many values were spent when a parameter was last read, what it got): a later pass reads a
    # parameter again only when something was spent since
    seen: dict[str, tuple[int, Got]] = {}
    says, said = question_says(analysis), question_words(analysis)
    own = [entry for entry in own if may_take(entry[1], says, said)]  # the rest take nothing from this question
    if any(e.extra.get("agent") for e in analysis.names):
        # "reviews by Stephen King": who made a work goes to the parameter named for its maker
        # (author) before a free-text one (title) takes it as words to search for
        own.sort(key=lambda entry: not for_maker(entry[1].words))
    for tie in (1.0, 0.5, 0.0):
        later: list[tuple[Parameter, ParamFacts]] = []
        for entry in own:
            p, f = entry
            last = seen.get(f.name)
            if last is not None and last[0] == len(out.used):
                got = last[1]
            else:
                got = _value(p, f, analysis, path, taken | out.used, unexplained, listed)
                if got is not None and month_taken(got[1], analysis, taken):
                    got = None  # another step bounds its dates by that month: a member's trips in May
                seen[f.name] = (len(out.used), got)
            if got is not None and got[3] < tie:
                later.append(entry)
            else:
                _spend(out, p, f, got, analysis.question)
        own = later
    # one text to search for per request: where a free-text parameter already took the question's
    # name ("t" of "the movie Alien"), another ("s", a second way to search) takes no leftover words
    searched = any(f.search and f.name in out.values for _, f in every)
    if unknown is not None and not searched:
        # an aside in brackets ("how (inhibitor, antagonist...)") is no search text
        aside = set(_ASIDE_WORD.findall(" ".join(_BRACKETED.findall(analysis.question))))
        for _, f in every:
            if f.name in out.values or not f.search:
                continue
            # what the question asks for ("give me a *photo* of ...") is the answer's kind, not what to search for
            # ... nor is a word of a value another parameter took ("Stephen" of "by Stephen King")
            spent_words = {w for value in out.used | taken for w in value.split()}
            left = [w for w, term in analysis.words
                    if unknown(term) and term not in analysis.asked and w not in aside and w not in spent_words]
            if left:
                text = " ".join(left)
                out.values[f.name] = text
                out.used.add(text)
                out.why[f.name] = "the words of the question no source describes (what to search for)"
                break
    if unexplained is not None:
        for _, f in every:
            if not f.search or f.name in out.values or not f.required:
                continue
            # what the question sets off in quotes is what it asks to search for ("jokes that involve
            # 'sports'"); else the words the endpoint does not describe
            quoted = next((v for v in quoted_values(analysis.question) if v not in taken and v not in out.used), None)
            if quoted is not None:
                out.values[f.name] = quoted
                out.used.add(quoted)
                out.why[f.name] = "the value the question quotes (what to search for)"
                break
            run = longest_run(analysis, unexplained)
            if run:
                out.values[f.name] = run
                out.used.add(run)
                out.weak.add(run)  # a guess at what to search for, not a value the question gives
                out.guessed.add(f.name)
                out.why[f.name] = "the words of the question the endpoint does not describe (what to search for)"
                break
    return out


# (value, the question values spent (one, or each of a list), why, how firmly it is tied to the
# parameter: 1 by the question's words, 0.5 by the records the endpoint lists, 0 by its shape alone)
Got = tuple[Any, str | tuple[str, ...], str, float] | None


def _spend(out: Filled, p: Parameter, f: ParamFacts, got: Got, question: str) -> None:
    if got is None:
        return
    value, spent, why, tie = got
    value = takes(p, value)
    if value is None:
        return  # not a value the parameter takes ("-78.543" for an integer id): the value stays unspent
    out.values[f.name] = value
    out.why[f.name] = why
    # a member or flag the question names answers those words as much as a declaration that says them
    if f.enum and isinstance(value, str):
        out.said.update(name_terms(value))
        out.said.update(unit_terms(question, value.lower()))  # "today" answered by time_window=day
    elif f.type == "boolean" and value is True:
        out.said.update(name_terms(f.name))
    for key in (spent,) if isinstance(spent, str) else spent:
        if not key:
            continue
        out.used.add(key)
        if not tie and (f.search or not (f.required or f.in_path)):
            out.weak.add(key)
        if tie >= 1.0:
            out.tied.add(key)


def _value(p: Parameter, f: ParamFacts, analysis: Analysis, path: str, taken: set[str],
           unexplained: Callable[[str], bool] | None = None, listed: Callable[[str], bool] | None = None) -> Got:
    # (a currency converted from or into is read as a currency, by its code: router.money)
    placed = role_value(f.role, analysis, taken) if f.role and not f.currency else None
    if placed is not None:
        # "from Fresno to Los Angeles": from_city takes the place written after "from"
        where = {"source": "where it starts", "target": "where it ends"}.get(f.role or "", "where it is")
        got: Got = (placed.value, placed.spent, f"'{placed.value}' is written where the question says {where}", 1.0)
    else:
        got = _any_value(p, f, analysis, path, taken, unexplained, listed)
    if got is not None and f.type == "number" and isinstance(got[0], (int, float)) and isinstance(got[1], str):
        # "an annual interest rate of 5%" is 0.05 for interest_rate
        got = (as_fraction(f.name, got[0], got[1], analysis.question), *got[1:])
    if got is None or not isinstance(got[0], str):
        return got
    if "airport" in f.words and (code := airport_code(got[0])) is not None:
        got = (code, got[1], f"{got[2]}, as the airport's code", got[3])  # "JFK Airport" for origin_airport
    elif f.coded and (code := code_after(got[0], analysis.question)) is not None and code not in taken:
        # "Dubai (DXB)" for an origin that takes "the ICAO code or IATA code": the code written after the name
        spent = got[1] if isinstance(got[1], tuple) else (got[1],)
        got = (code, (*spent, code), f"'{code}' is the code written after '{got[0]}'", got[3])
    if f.region:
        regional = with_region(got[0], analysis, state=f.region == "state", country=f.country_as)
        if regional is not None:
            # "Portland, OR" for a parameter that asks for 'City, State'
            value, region = regional
            spent = got[1] if isinstance(got[1], tuple) else (got[1],)
            how = "with the region written after it" if region else "with its region from the gazetteer"
            got = (value, (*spent, region) if region else spent, f"{got[2]}, {how}", got[3])
    scheme = f.scheme
    if scheme is not None and not scheme.fullmatch(got[0].strip()):
        return None  # "Deep residual learning ..." is no ISSN
    if f.curie and not is_curie(got[0]):
        return None  # "id, e.g. NCBIGene:3630": "SHH" is no such id (a search step finds it)
    return got


def _any_value(p: Parameter, f: ParamFacts, analysis: Analysis, path: str, taken: set[str],
               unexplained: Callable[[str], bool] | None, listed: Callable[[str], bool] | None = None) -> Got:
    if f.credential:
        return None
    if f.scheme is not None and is_address(f.scheme) and (at := written_in_shape(analysis.question, f.scheme, taken)):
        return at, at, f"'{at}' has the shape of an address {f.name} takes", True
    if f.search:
        name = _first_free(analysis.names, taken)
        if name is not None:
            # "the paper 'Deep residual ...'": a search whose endpoint says nothing of papers takes
            # the title only by its shape
            noun = kind_named(analysis, str(name.value))
            firm = noun is None or unexplained is None or not unexplained(noun)
            if name.extra.get("agent") and unexplained is not None:
                # "directed by Sofia Coppola" names who made something: firm for a search of people
                # or organizations, by its shape alone for a search of what they made
                firm = firm and any(not unexplained(t) for t in AGENT_TERMS)
            return name.value, str(name.value), f"the name '{name.value}' in the question", firm
        ident = _first_free(identifiers(analysis), taken)
        if ident is not None and f.required:
            # sent as free text only for want of a parameter that takes it as an identifier
            return ident.value, str(ident.value), f"the identifier '{ident.value}' in the question", False
        # "the gene SHH": a code written right after a noun is what to search for, firmly where the
        # endpoint declares that noun
        for noun, after in analysis.labels.items():
            if after in analysis.codes and after not in taken:
                firm = unexplained is not None and not unexplained(noun)
                return after, after, f"'{after}' is written after '{noun}'", firm
        return None
    if f.type == "boolean" and not f.required and reverses(f.words) and said_sets(analysis).orders:
        # "the longest trips" for descending: the high end first; "the cheapest" leaves it off
        return (True, "", "the question asks for the high end first", True) if high_end_first(analysis.question) else None
    if f.type == "boolean" and not f.required and not f.enum:
        # a flag named for what the question asks for ("the full text" -> fulltext, "similar
        # articles" -> similar) is switched on; any other flag keeps its server default (one whose
        # enum spells it as words, "True"/"dontcare", is set below, as a member the enum has)
        return (True, "", f"the question asks for the {f.name}", True) if _asks_for(f, analysis) else None
    if f.currency:
        # "from British pounds to Japanese yen" for base_currency and target_currency: GBP, JPY
        money = currency_value(f.words, analysis, taken)
        if money is not None and (not f.enum or money[0] in f.enum):
            return money[0], money[1], f"'{money[1]}' is the currency {money[0]}", True
    if f.country:
        # "locations in Germany": a country the question names, as the code the parameter takes
        country = _country_named(analysis, taken, f.country)
        if country is not None and (not f.enum or country[0] in f.enum):
            iso, written = country
            return ([iso] if f.type == "array" else iso), written, f"'{written}' is the country code {iso}", True
        if not f.enum:
            return None  # it takes a country's code: "ZIP" of "ZIP code 10001" is none
    elif f.type == "string" and not f.enum and f.words and f.words[-1] == "country":
        # "holidays in Canada" for a country the description does not ask as a code: its name as written
        country = _country_named(analysis, taken, 2)
        if country is not None:
            return country[1], country[1], f"'{country[1]}' is the country the question names", True
    if f.type == "string" and not f.id_like and {"state", "province"} & set(f.words):
        # "Raleigh, NC" for a state parameter beside the city's (a state's code, where an enum lists codes)
        state = state_after_place(analysis, taken)
        if state is not None and (not f.enum or state[0] in f.enum):
            return state[0], state[1], f"'{state[1]}' is the state written after the place", True
    if f.type == "string" and not f.enum and names_a_span(f.words):
        span = written_span(analysis.question, taken)  # "for the last 2 weeks" for duration: "2 weeks"
        if span is not None:
            return span, span, f"'{span}' is the stretch of time the question writes", True
    if f.type == "string" and not f.enum and (unit := unit_named(f.words, analysis.question, taken)) is not None:
        return unit, unit, f"'{unit}' is the unit the question writes for {f.name}", True  # "4 inches", "in miles"
    explained = legend_code(f.legend, f.enum, analysis, taken, lambda code: _typed(p, code))
    if explained is not None:
        # "in Chonburi Province" for a province_id whose description says "'3' for Chonburi"
        return explained[0], explained[1], f"'{explained[1]}' is {f.name} {explained[2]}, as its description says", True
    if f.enum and not f.required and (true := true_member(f.enum)) is not None:
        # a flag spelled as words ("True"/"False"/"dontcare"): on where the question asks for what it
        # is named for ("with laundry service" for has_laundry_service), else the server's default
        return (true, "", f"the question asks for the {f.name}", True) if _asks_for(f, analysis) else None
    if f.enum:
        if f.orders and not said_sets(analysis).orders:
            # "which genes are mutated" names no order: sort_by=gene is no answer to it, while
            # "the most downloaded articles" asks for order=downloads
            return None
        # "the longest trips" orders by a length, a duration or a distance, whatever else the words name
        ordered = ordered_member(f.enum, analysis.question) if f.orders else None
        hits = [ordered] if ordered is not None else enum_members(p, analysis)
        if f.orders and len(hits) > 1:
            hits = most_said(hits)  # "the highest band gap of the measurements": band_gap, not measured_on
        if not hits and (counted := count_for(p, analysis, other_words=True)) is not None:
            # "a 3-star hotel" for star_rating in ["1", ..., "5"]: the count, as the member spells it
            hits = [m for m in f.enum if str(m) == str(counted[1])][:1]
        if f.type == "array" and hits:
            # a list of codes takes every member the question says ("BRCA and LUAD"), each spent
            tokens = tuple(written_member(h, analysis) for h in hits)
            return list(hits), tokens, f"{', '.join(map(str, hits))} said in the question", True
        if len(hits) != 1:
            return None
        hit = hits[0]
        # a member written as a value ("NanoReg2") or as a name of the question ("a Japanese
        # restaurant") is spent: no other parameter takes it as a name
        token = ""
        if isinstance(hit, str):
            as_name = next((str(n.value) for n in analysis.names if str(n.value).lower() == hit.lower()), "")
            token = as_name or (written_member(hit, analysis) if not hit.isalpha() else "")
        return hit, token, f"'{hit}' is said in the question", True
    example = listed_member(p, f.examples, analysis) if f.examples else None
    if example is not None:  # "patent lawsuits" for a case_type listing "e.g., 'IPR', 'Patent'"
        return example[0], example[1], example[2], True
    kind = f.id_kind
    if kind is not None:
        # named for a kind of identifier the readers know (``cid``, ``pmid``, ``doi_list``): the
        # identifier of that kind, a list of one for a list parameter
        of_kind = next((e for e in analysis.entities if e.kind == kind and str(e.value) not in taken), None)
        if of_kind is not None:
            token = str(of_kind.value)
            # a name that qualifies the kind ("resource_doi": the DOI of a related resource) ties the
            # value less firmly than the kind alone ("doi", the record's own), unless the question
            # says the qualifier: the plain parameter takes it first
            qualifiers = [w for w in f.words if w not in kind.split("_") and w not in ("list", "ids", "id")]
            said = said_sets(analysis).terms
            tie = 1.0 if all(stem(w) in said for w in qualifiers) else 0.5
            return ([token] if f.type == "array" else _typed(p, token)), token, \
                f"the {kind} '{token}' in the question", tie
    if f.pattern:
        for e in [*identifiers(analysis), *analysis.entities, *analysis.names]:
            token = str(e.value)
            if token not in taken and _fullmatch(f.pattern, token):
                return _typed(p, token), token, f"'{token}' matches the declared pattern", True
    fmt = f.fmt  # "" where "format: string" restates the type: it says nothing of the value's shape
    words = f.words
    coords = analysis.coordinates
    if f.type in ("number", "string") and coords is not None and words:
        # the pair is one value; its numbers as written are spent with it (no altitude or year takes them)
        spent = (f"{coords}", *analysis.coordinates_written)
        if words[-1] in _LATITUDE:
            return coords[0], spent, "the latitude in the question", True
        if words[-1] in _LONGITUDE:
            return coords[1], spent, "the longitude in the question", True
    if f.clock:
        # "in 24-hour format 'HH:MM'": the time of day the question writes ("at 10 in the morning"), never a date
        at = date_for(words, analysis.times, taken, analysis.time_words)
        if at is None:
            return None
        return clocked(at, f.clock), at, "a time of day in the question", True
    if f.hour_of_day and analysis.times:
        # "at 22:30 UTC" for utc, "Coordinated Universal Time (hrs)": the time written, in hours
        at = next((t for t in analysis.times if t not in taken), None)
        if at is None:
            return None
        return in_hours(at, p.type == "integer"), at, f"the time of day {at} in the question, in hours", True
    if f.type == "string" and "time" in words and not fmt and analysis.times:
        # a time whose form the declaration does not give: the time as the question writes it ("3pm")
        at = date_for(words, analysis.times, taken, analysis.time_words)
        if at is not None:
            start, end = analysis.time_spans[analysis.times.index(at)]
            return (analysis.text or analysis.question)[start:end], at, "a time of day in the question, as written", True
    if fmt in ("date", "date-time") or f.type == "date" or (
            f.type == "string" and not fmt and dates_said(analysis) and date_like(words, p.description)):
        on_date = date_for(words, analysis.dates, taken, analysis.date_words)
        within = (on_date, on_date) if on_date is not None else month_bound(words, analysis)
        if within is None:
            return None
        date_token, day = within
        return spelled(day, f.date_spelling), date_token, "a date in the question", True
    if names_a_year(f.name) and f.type in ("integer", "string", "number"):
        middle = mid_year(analysis.question) if f.type == "number" else None
        if middle is not None and middle[1] not in taken:
            # a year taken as a decimal ("2017.5 would be half way through 2017"): "mid-2021" is 2021.5
            return middle[0], middle[1], f"'{middle[2]}' as a decimal year", True
        bound = span_bound(words, analysis.spans, taken)
        if bound is not None:
            # "from 1871 to 1945" for start_year and end_year: each its end of the span
            return _typed(p, bound), bound, "a bound of the span of years the question gives", True
        year = analysis.entity("year")
        if year is not None and str(year.value) not in taken:
            return _typed(p, str(year.value)), str(year.value), "the year in the question", True
        return None
    if f.type in ("integer", "number") and not f.id_like:
        # "trips longer than 10 km" for distance_km_min, "over 5 minutes" for milliseconds_min (300000)
        for reader, how in ((unit_bound, "written in a unit of its kind"), (named_bound, "written after its name")):
            bounded = reader(p, analysis.question, taken)
            if bounded is not None:
                if bounded[0] is None:
                    return None  # the question bounds the quantity at the other end
                return bounded[0], bounded[1], f"'{bounded[1]}' bounds {f.name}, {how}", True
    if (f.type in ("integer", "number") or (f.type == "string" and f.in_path)) and not f.id_like:
        # "QTLs between 1000000 and 5000000" for /qtls/{chr}/{start}/{stop}; a path segment is a
        # string whatever it holds (/features/within/{build}/{reference}/{begin}/{end})
        bound = span_bound(words, analysis.spans, taken)
        if bound is not None:
            return _typed(p, bound), bound, "a bound of the span the question gives", True
    if f.type in ("integer", "number", "string") and "amount" in f.words and not f.enum:
        # "convert 1000 USD to Japanese yen", "$200,000": an amount parameter takes the money written
        amount = next((a for a in money_amounts(analysis.question) if a not in taken), None)
        if amount is not None:
            return _typed(p, amount), amount, f"'{amount}' is the amount of money the question writes", True
    if f.type in ("integer", "number") and not f.id_like:
        counted = count_for(p, analysis)
        key = free_key(str(counted[1]), analysis.question, taken) if counted is not None else None
        if counted is not None and key is not None:
            noun, n = counted
            return n, key, f"'{f.name}' {n} from the question ({noun})", True
        bound = number_after(f.name, analysis)
        # "wait up to 600 seconds" for a time "specified in seconds", "within 50km" for a radius in kilometres
        measured = unit_value(p, analysis.question, taken)
        if bound is not None and bound not in taken:
            if measured is not None and measured[1] == bound:
                # "inductance of 50mH" for an inductance "in henries": the number after its name, in its unit
                return measured[0], bound, f"the number written after '{f.name}', in the unit it is declared in", True
            return (_typed(p, with_scale(bound, analysis.question)), bound,
                    f"the number written after '{f.name}' in the question", True)
        if measured is not None:
            return measured[0], measured[1], f"'{measured[1]}' is written in the unit {f.name} is declared in", True
        labelled = written_after_noun(p, analysis, taken)  # "version 2" for v_number
        if labelled is not None:
            return _typed(p, labelled), labelled, f"'{labelled}' is written after its noun", True
        if ELEVATION_WORDS & set(words) and (level := zero_elevation(analysis.question)) is not None:
            return 0, level, f"'{level}' is an {f.name} of zero", True
        if (element := atomic_number(f.name, p.description or "", analysis.question, taken)) is not None:
            return element[0], element[1], f"'{element[1]}' has the atomic number {element[0]}", True
        return None
    if f.type == "array" or (f.type == "string" and f.plural and stem(words[-1]) in analysis.labels):
        # a list parameter, or one named for several things the question lists right after that noun
        # ("stations KRDU and KJFK", not the "point" of "dew point"): all of them, before the one
        # written right after the name
        if f.type == "array":
            # a list written in brackets is the list ("cash flows: [-50000, 10000, 15000]"), numbers as numbers
            bracketed = next((text for _pos, text in written_lists(analysis.question) if text not in taken), None)
            if bracketed is not None:
                return list_items(bracketed), bracketed, "the list the question writes", True
            # ... or in prose: "scores 85, 90, 88 and 92", "stock prices of Microsoft and Google"
            numbers = numbers_listed(analysis.question, taken)
            if numbers:
                return numbers, tuple(map(str, numbers)), "the numbers the question lists", True
            # names only for a list named for several things ("stops", "company_names"): a "price"
            # list takes price ranges, not the dishes of "Pizza and Pasta"
            joined, spent = names_listed(analysis, taken) if f.plural and not (f.id_like or f.coded) else ([], ())
            if joined:
                return joined, spent, "the names the question lists", True
        many = _all_of_a_kind(p, analysis, taken)
        if f.type != "array" and analysis.labels[stem(words[-1])] not in many:
            many = []
        if many and (len(many) > 1 or f.type == "array"):
            value: Any = many if f.type == "array" else ",".join(many)
            return value, tuple(many), f"the {len(many)} values of the question", True
    if f.type == "string" and not (f.id_like or f.coded or f.plural):
        # "a width of 500 pixels" for a width written as a string: the whole name, then leading words only
        bound = number_after(f.name, analysis, strict=True)
        if bound is not None and bound not in taken:
            return bound, bound, f"the number written after '{f.name}' in the question", True
    if f.type == "string" and not f.id_like and set(words) & CAST_WORDS:
        # "starring Jim Carrey", "featuring Josef Sommer", "with Monica Dolan in it" for cast
        actor = acting_name(analysis, taken)
        if actor is not None:
            return actor, actor, f"'{actor}' is who the question says acts in it", True
    if f.type == "string" and not f.id_like and (asker := asker_for(words, analysis, taken)) is not None:
        return asker, asker, f"'{asker}' is the name the question introduces its asker by", True
    if f.type == "string" and not f.id_like and for_maker(words):
        # "a song by Kesha" for artist: the name the question says made something
        maker = maker_name(analysis, taken, words)
        if maker is not None:
            return maker, maker, f"'{maker}' is who the question says made it", True
    if f.type == "string" and not f.id_like:
        # "directed by Jordan Peele" for directed_by; "the Riverside district" for name_contains of
        # /districts; "Luis Goncalves" for FirstName and LastName
        named = record_named(f.name, words, path, analysis, taken, listed)
        if named is not None:
            return named
    if f.type == "string" and f.in_path and not (f.id_like or f.search or f.coded or f.enum):
        # "Vimeo's animation category" for /categories/{category}: the word written before the noun
        resource = resource_of(f.name, path)
        before = word_before(resource[-1], analysis, taken) if resource else None
        if before is not None:
            return before, before, f"'{before}' is written before '{resource[-1]}'", True
    if f.type == "string" and not (f.id_like or f.search or f.enum) and (noun := modified_noun(words)):
        # "renewable energy" for energy_type, "an active outcome" for outcome: the word before the noun
        before = word_before(stem(noun), analysis, taken)
        if before is not None and not before.endswith(("ed", "ing")):  # a verb's form ("switched energy") is no kind
            return before, before, f"'{before}' is written before '{noun}'", True
    labelled = written_after_noun(p, analysis, taken)
    if labelled is not None:
        if f.type == "array":
            # "the networks 'n1' and 'n2'": a list takes every value joined to the one after its noun
            joined = [v for v in joined_after(analysis.text or analysis.question, labelled) if v not in taken]
            if len(joined) > 1:
                return joined, tuple(joined), f"the values written after '{words[-1]}'", True
        return _typed(p, labelled), labelled, f"'{labelled}' is written after '{words[-1]}'", True
    if f.id_like or f.in_path:
        found = identifier_for(p, analysis, path, taken)
        if found is not None:
            ident, sure = found
            return _typed(p, str(ident.value)), str(ident.value), f"the identifier '{ident.value}' in the question", sure
    if f.type == "string" and f.coded:
        code = next((c for c in analysis.codes if c not in taken and _shaped_like(c, p.example)
                     and (not f.postal or any(ch.isdigit() for ch in c))), None)
        if code is not None:
            return code, code, f"the code '{code}' in the question", False
    if (f.type == "string" and f.required and not f.id_like and not f.currency and not takes_no_name(p.name)
            and not date_like(words, p.description or "")):
        # (a date's parameter takes a date, never a name: "startdate" of "in Boston and in Chicago"; a
        # currency's takes a currency, read as one by router.money: "Berlin" is none)
        name = _first_free(analysis.names, taken)
        if name is not None:
            return name.value, str(name.value), f"the name '{name.value}' in the question", False
    return None


def _country_named(analysis: Analysis, taken: set[str], length: int) -> tuple[str, str] | None:
    """(ISO 3166-1 code of ``length`` letters, the name or code as written) of the first country the
    question names and no other parameter took."""
    # names as written ("Germany"), then codes from the last: an address runs from the smallest place
    # to the largest ("Raleigh, NC, US": NC is the state, US the country)
    for written in [*(str(n.value) for n in analysis.names), *reversed(analysis.codes)]:
        if written not in taken:
            codes = country_codes(written)
            if codes is not None:
                return codes[0 if length == 2 else 1], written
    return None


def _asks_for(f: ParamFacts, analysis: Analysis) -> bool:
    """Whether the question asks for what a flag is named for (every term of ``flag_terms``) or
    states the condition its description says it tests ("suitable for children" for good_for_kids)."""
    named = flag_terms(f.name)
    asked = said_sets(analysis).asked
    if named and all(t in asked for t in named):
        return not negated(named, analysis.words, analysis.question)
    return states(f.condition, analysis.words, analysis.question)


def _shaped_like(code: str, example: Any) -> bool:
    """Whether ``code`` has the length of the parameter's declared example code (a language code "en"
    is no "NASA"; a station "KRDU" no "US"); any code where no letter code is declared. The example
    is never a value, only a shape."""
    return not (isinstance(example, str) and example.isalpha()) or len(code) == len(example)


def _all_of_a_kind(p: Parameter, analysis: Analysis, taken: set[str]) -> list[str]:
    """Every free value of the kind the parameter takes, when the question gives two or more:
    identifiers for an id list, codes for a code list."""
    for group in ([str(e.value) for e in identifiers(analysis)], list(analysis.codes)):
        free = [v for v in dict.fromkeys(group) if v not in taken]
        if len(free) >= 2:
            return free
    return []


def _first_free(entities: list[Entity], taken: set[str]) -> Entity | None:
    return next((e for e in entities if str(e.value) not in taken), None)


def _fullmatch(pattern: str, token: str) -> bool:
    try:
        return re.fullmatch(pattern.strip("^$") if pattern.startswith("^") and pattern.endswith("$") else pattern,
                            token) is not None
    except re.error:
        return False


def _typed(p: Parameter, value: str) -> Any:
    """A value of the question as the parameter's declared type: a number, or a list of one."""
    if p.type == "array":
        return [value]
    if p.type == "integer":
        try:
            return int(value)
        except ValueError:
            return value
    if p.type == "number":
        # a whole number as written stays one: video_id 76979871, not 76979871.0 in a path
        number = parse_number(value)
        return value if number is None else number
    return value
