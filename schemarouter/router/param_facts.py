"""What a parameter's declaration says of the values it takes, whatever the question.

Its name's words, whether it is free text, a credential, an identifier (and of which published
scheme), a path segment, a code or a list: read once per endpoint and graph
(:class:`ParamFacts`, kept in the graph's memo by the open route), so that filling parameters
from a question (:mod:`schemarouter.router.values`) only reads the question.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from schemarouter.graph.terms import name_terms, stem
from schemarouter.models import Parameter, is_credential
from schemarouter.router.atomic_numbers import PARTICLE_NOUNS, takes_atomic_number
from schemarouter.router.described_values import legend, listed_values
from schemarouter.router.enum_kinds import counted_unit, true_member
from schemarouter.router.flags import described_condition
from schemarouter.router.modifiers import modified_noun
from schemarouter.router.money import takes_currency
from schemarouter.router.name_words import name_words
from schemarouter.router.numbers import END, START
from schemarouter.router.places import country_spelling, role_of, wants_region
from schemarouter.router.spans import span_cues
from schemarouter.router.superlatives import reverses
from schemarouter.understand.asked import CURRENCY

_SEARCH_NAMES = frozenset(
    ["query", "q", "search", "searchterm", "search_term", "term", "terms", "keyword", "keywords", "text", "freetext", "free_text", "qs", "find", "name", "title", "label", "query_string", "querystring", "search_query"]
)
# Entity kinds that are identifiers of some database: a resource-id parameter may take them.


def is_search_parameter(p: Parameter) -> bool:
    """A free-text parameter: by concept, by name, or by a description that says it searches; never
    one that takes only the members of an enum (``p_fntype``: EXACT, CONTAINS... "the type of text
    search" is no text to search for)."""
    if p.enum and p.concept != "query_text":
        return False
    return _is_search(p.name, p.type, p.concept, p.description)


@lru_cache(maxsize=65_536)
def _is_search(name: str, type_: str, concept: str | None, description: str) -> bool:
    if concept == "query_text":
        return True
    if name.lower() in _SEARCH_NAMES and type_ != "boolean":
        # ``query`` takes text whatever type a document gives it ("query: integer, The search query");
        # a number named ``q`` that says nothing of searching is a number (a q-value threshold)
        return type_ not in ("number", "integer") or bool(_SAYS_SEARCH.search(description))
    if type_ not in ("string", "array"):
        return False
    # what the first sentence says it is: OPTIMADE's api_hint mentions a URL's "query string" later
    return bool(_SEARCH_PROSE.search(re.split(r"(?<=[.!?])\s", description, maxsplit=1)[0]))


# Spellings the vocabulary rules (router.params) give values in; parameters with them are theirs.
VOCABULARY_FORMATS = frozenset({
    "formula_alphabetical", "formula_hill", "formula_hill_spaced", "element_list", "species_count",
    "title_underscored", "year_range", "year_from", "year_until", "year_comparison", "lower_bound",
    "upper_bound", "range_star",
})
# ... or the text it takes is a title, a name or words "to search for" ("Movie title to search for.")
_SEARCH_PROSE = re.compile(r"\b(?:search|query) (?:text|string|term)|\bfree[- ]text\b|text to search"
                           r"|\b(?:title|name|term|keyword|word|phrase)s? to search\b", re.I)
_SAYS_SEARCH = re.compile(r"\b(?:search|quer(?:y|ies)|keywords?|free[- ]text)\b", re.I)
_CODE_PROSE = re.compile(r"\b(?:code|ISO[- ]?3166|2[- ]letter|two[- ]letter)\b", re.I)
_TYPE_NAMES = frozenset({"string", "integer", "number", "boolean", "array", "object", "text"})


@dataclass(slots=True, eq=False)
class ParamFacts:
    """What a parameter's declaration says of the values it takes, whatever the question: read once
    per endpoint and graph (``parameter_facts``), not once per question and candidate.

    Read-only by convention, not frozen: a frozen dataclass sets each of its many attributes through
    ``object.__setattr__``, and every endpoint a question first reaches makes one per parameter."""

    # the declaration's attributes filling reads most, copied once (reading the model costs a lookup)
    name: str
    type: str
    required: bool
    enum: list[Any] | None
    pattern: str | None
    own: bool  # filled here (not by the vocabulary rules, which own concepts and their spellings)
    credential: bool
    search: bool
    words: tuple[str, ...]  # the name's words
    lname: str  # the name in lower case
    fmt: str  # the declared format in lower case; "" where it only restates the type
    scheme: re.Pattern[str] | None  # the published shape of the identifier scheme it is named for
    id_like: bool  # named for an identifier (``gene_id``, ``accession``)
    in_path: bool  # a segment of the endpoint's URL path
    coded: bool  # takes a short code (a country or station code)
    plural: bool  # named for several things (``stations``)
    country: int  # takes an ISO 3166-1 country code of this many letters (2 or 3); 0: no country code
    postal: bool  # a postal code (``postal_code``, ``zip``, ``postcode``): a code with a digit
    id_kind: str | None  # the identifier concept it is named for (``pmid``, ``doi_list``): one with declared patterns
    date_part: str  # "year", "month" or "day" for a one-word name of that part of a date; "" else
    time_part: str  # "hour", "minute" or "second" for a one-word name of that part of a time of day; "" else
    # how a date is written for it where that is not ISO 8601: "YYYYMMDD", "YYYYMMDDHH" (see ``date_spelling``)
    date_spelling: str
    # how a time of day is written for it, where its description gives the form ("in 24-hour format
    # 'HH:MM'"): "HH:MM", "HH:MM:SS" or "HH:MM AM/PM"; "" for any other parameter (see ``clock_template``)
    clock: str
    # a number for the hour of the day ("utc: Coordinated Universal Time (hrs)", "hour: UTC hour of the
    # day"): it takes a time of day the question writes, in hours (22:30 -> 22.5)
    hour_of_day: bool
    # an identifier whose declared example is a compact URI ("id, e.g. NCBIGene:3630"): it takes only
    # compact URIs, a symbol or a name being something a search resolves first
    curie: bool
    # the codes a description explains ("'1' for Bangkok, '2' for Chiang Mai"): label -> code (see ``legend``)
    legend: tuple[tuple[str, str], ...]
    # the values an optional free-form text's or list's description lists as examples ("e.g. 'static'
    # or 'dynamic'"): an open list of members the question may say (see ``listed_values``)
    examples: tuple[str, ...]
    orders: bool  # named for the order of the results (``sort_by``, ``orderBy``, ``order``)
    currency: bool  # takes a currency's code (router.money)
    role: str | None  # "source" or "target": named for one end of a journey (``from_city``, ``destination``)
    region: str  # asks for a place written with its region: "state" ("City, State"), "any", or ""
    country_as: str  # ... and how it writes a country there: "name" ('Paris, France'), "code" ('Paris, FR'), or ""
    # the kinds of question value (a mask of the ``SAYS_*`` bits) one of which the question must carry
    # for the parameter to take anything: most of a registry's parameters are skipped unread for a
    # question that carries none of their kinds (an optional ``page`` for "Who directed Alien?")
    needs: int
    # for an enum or a flag, the words one of which the question must say for a member or the flag to
    # be said (see ``member_cues``); empty for any other parameter
    cues: frozenset[str]
    # for a flag, the terms of the condition its description says it tests (``router.flags``)
    condition: tuple[str, ...] = ()


def parameter_facts(p: Parameter, path: str, auth_name: str | None = None,
                    id_kinds: Collection[str] = ()) -> ParamFacts:
    """The question-independent facts of parameter ``p`` of the endpoint at ``path`` (whose source
    sends its key as ``auth_name``), in a registry whose identifier concepts are ``id_kinds`` (the
    graph's ``identifier_concepts``)."""
    words = tuple(name_words(p.name))
    fmt = (p.format or "").lower()
    fmt = "" if fmt in _TYPE_NAMES else fmt
    credential = is_credential(p, auth_name)
    search = is_search_parameter(p)
    id_like = looks_like_id(p) or _described_as_id(p.description)
    path_segment = in_path(p, path)
    coded = _coded(p)
    plural = _plural(p)
    country = _country_code_length(p, words)
    id_kind = identifier_kind(words, id_kinds)
    clock = clock_template(p)
    flag = (p.type == "boolean" or true_member(p.enum) is not None) and not p.required
    hour_of_day = _hour_of_day(p, words)
    currency = p.type == "string" and takes_currency(words, p.description or "")
    region = wants_region(p) if p.type == "string" else ""
    return ParamFacts(
        name=p.name,
        type=p.type,
        required=p.required,
        enum=p.enum,
        pattern=p.pattern,
        own=not ((p.concept and p.concept != "query_text") or (p.format or "") in VOCABULARY_FORMATS),
        credential=credential,
        search=search,
        words=words,
        lname=p.name.lower(),
        fmt=fmt,
        scheme=_scheme(fmt, words),
        id_like=id_like,
        in_path=path_segment,
        coded=coded,
        plural=plural,
        country=country,
        postal=any(w in _POSTAL_WORDS for w in words),
        id_kind=id_kind,
        date_part=_date_part(p, words, fmt),
        time_part=_time_part(p, words, fmt),
        date_spelling=date_spelling(p) if p.type in ("string", "date") and not p.enum else "",
        clock=clock,
        hour_of_day=hour_of_day,
        curie=takes_curie(p, path_segment),
        legend=legend(p.description or "") if p.type in ("integer", "string") else (),
        examples=_examples(p, search, id_like),
        orders=bool(words) and words[0] in ("sort", "order", "orderby", "sortby"),
        currency=currency,
        condition=described_condition(p.description) if flag else (),
        role=_role(p, words, fmt, search, id_like),
        region=region,
        country_as=country_spelling(p) if region else "",
        **_needs(p, words, fmt, credential=credential, search=search, country=bool(country), id_kind=bool(id_kind),
                 id_like=id_like, path_segment=path_segment, plural=plural, coded=coded, clock=bool(clock),
                 currency=currency, hour_of_day=hour_of_day),
    )


# The kinds of value a question may carry, as bits (``question_says`` in router.values reads them
# off a question): a parameter's ``needs`` is the mask of those it could take a value from.
SAYS_NAMES = 1  # proper names, quoted titles
SAYS_IDS = 2  # identifier-shaped tokens and identifiers the entity readers recognized
SAYS_ENTITIES = 4  # any recognized entity (a year, a DOI, a formula...)
SAYS_LABELS = 8  # a value written right after its noun ("station KRDU")
SAYS_CODES = 16  # short all-capitals codes
SAYS_DATES = 32
SAYS_COORDINATES = 64
SAYS_SPANS = 128  # "between 1000000 and 5000000"
SAYS_COUNTS = 256  # "the second season"
SAYS_NUMBERS = 512  # any number written
SAYS_TIMES = 1024  # a time of day ("10:00 AM", "2pm")
SAYS_ADDRESSES = 2048  # a word with a dot or an @ inside: an e-mail, web or IP address, a domain
UNIT_CUE = "unit:"  # a cue for a calendar unit the question implies ("today" for a member ``day``)
LABEL_CUE = "label:"  # a cue for a noun the question writes a value after ("station KRDU")
COUNT_CUE = "count:"  # a cue for a noun the question counts ("the second season")
ORDER_CUE = "order:"  # a cue for a question that asks for an order ("the longest", "top 5", "sorted by")


# the words of a parameter's name for a height above the ground or the sea, which "at sea level" says is zero
ELEVATION_WORDS = frozenset(["altitude", "elevation"])
_LEVEL_CUES = frozenset(stem(w) for w in ("level", "surface"))
_PARTICLE_CUES = frozenset(stem(w) for w in PARTICLE_NOUNS)


# nouns that count people, as counts read stems: one counts any ("a bus for two people"; router.counts)
PEOPLE_NOUNS = frozenset(stem(w) for w in ("people", "persons", "ppl", "adults", "passengers", "guests", "travelers",
                                           "travellers", "attendees", "riders", "occupants", "pax"))


def _needs(p: Parameter, words: Sequence[str], fmt: str, *, credential: bool, search: bool, country: bool,
           id_kind: bool, id_like: bool, path_segment: bool, plural: bool, coded: bool,
           clock: bool, currency: bool, hour_of_day: bool) -> dict[str, Any]:
    """``needs`` and ``cues`` of parameter ``p``: the kinds of question value, and the words, one of
    which must be present for the value reading of ``router.values`` to give it anything. They
    follow that reading's branches in its order, each adding what it reads and stopping where it
    always returns. Too wide is only slower; too narrow would drop a value, so a test reads every
    parameter of the benchmark's registries against many questions and checks that a parameter
    skipped for want of these gets nothing."""
    cues: set[str] = set()

    def noun(prefix: str, bit: int, word: str | None) -> int:
        # a value written after (or a count of) the noun a name word stands for: that noun's cue, or
        # the kind itself for a short abbreviation, which stands for whichever noun it begins
        if word is None:
            return 0
        if len(word) > 3 or not word.isalpha():
            cues.add(prefix + stem(word))
            if prefix == COUNT_CUE and stem(word) in PEOPLE_NOUNS:
                cues.update(prefix + noun for noun in PEOPLE_NOUNS)
            return 0
        return bit

    # an address is read wherever the question writes one (router.values), whatever the branch below
    shape = _scheme("" if fmt in _TYPE_NAMES else fmt, tuple(words))
    address = SAYS_ADDRESSES if shape is not None and is_address(shape) else 0

    def done(needs: int) -> dict[str, Any]:
        return {"needs": needs | address, "cues": frozenset(cues)}

    if credential:
        return done(0)
    if p.type in ("integer", "string"):
        # a code its description explains is said by its label ("Chonburi" for province_id 3)
        cues.update(t for label, _code in legend(p.description or "") for t in name_terms(label)[:1])
    if currency:
        cues.add(CURRENCY)  # a currency the question writes ("100 euro"): understand.asked says "currency"
    examples = _examples(p, search, id_like)
    if examples:  # one of the values its description lists, read as the members of an enum
        cues.update(member_cues(p.model_copy(update={"enum": list(examples)})))
    if search:  # a name, an identifier for a required one, a code written after its noun
        return done(SAYS_NAMES | SAYS_LABELS | (SAYS_IDS if p.required else 0))
    if (p.type == "boolean" and not p.required) or p.enum:
        # a flag or a member the question's words name; a country first by its name or code; a
        # number member by a count of a word of the name ("a 3-star hotel" for star_rating); a flag
        # that reverses the order by a superlative of the high end, a field to order by by any
        cues.update(member_cues(p))
        if reverses(words) or (p.enum and words and words[0] in ("sort", "order", "orderby", "sortby")):
            cues.add(ORDER_CUE)
        counts = 0
        digits = any(str(m).isdigit() for m in p.enum or ())
        if len(words) <= 3 and digits:
            for word in words:
                counts |= noun(COUNT_CUE, SAYS_COUNTS, word)
        # a number the enum spells as text ("2019" of release years) is said as written, by no word
        numbers = SAYS_NUMBERS if digits and any(isinstance(m, str) for m in p.enum or ()) else 0
        return done((SAYS_NAMES | SAYS_CODES if country else 0) | counts | numbers)
    if country:
        return done(SAYS_NAMES | SAYS_CODES)
    needs = 0
    if id_kind:
        needs |= SAYS_ENTITIES
    if p.pattern:
        needs |= SAYS_IDS | SAYS_ENTITIES | SAYS_NAMES
    if p.type in ("number", "string"):
        needs |= SAYS_COORDINATES
    if clock:
        return done(needs | SAYS_TIMES)
    if fmt in ("date", "date-time") or p.type == "date":
        return done(needs | SAYS_DATES)
    if p.type == "string" and not fmt:
        needs |= SAYS_DATES | (SAYS_TIMES if "time" in words else 0)
    if names_a_year(p.name) and p.type in ("integer", "string", "number"):
        # a decimal year may be read off "mid-2021", which need not be read as a year; a span's end
        # ("from 1871 to 1945") fills a year named for it
        return done(needs | SAYS_ENTITIES | SAYS_SPANS | (SAYS_NUMBERS if p.type == "number" else 0))
    if (p.type in ("integer", "number") or (p.type == "string" and path_segment)) and not id_like:
        needs |= SAYS_SPANS
    labelled = noun(LABEL_CUE, SAYS_LABELS, label_head(words))
    if p.type in ("integer", "number") and not id_like:
        # a number of records may be written as a word ("the top five"): any count the question says
        counts = SAYS_COUNTS if names_a_size(words) else noun(COUNT_CUE, SAYS_COUNTS, count_word(words))
        if ELEVATION_WORDS & set(words):
            cues.update(_LEVEL_CUES)  # "at sea level", "at the surface": an altitude of zero
        if takes_atomic_number(p.name, p.description or ""):
            cues.update(_PARTICLE_CUES)  # "oxygen nuclei" for an atomic number
        hour = SAYS_TIMES if hour_of_day else 0  # "at noon UTC" writes no number
        return done(needs | SAYS_NUMBERS | labelled | counts | hour)
    if p.type == "array" or (p.type == "string" and plural):
        needs |= SAYS_IDS | SAYS_CODES | SAYS_LABELS
    if p.type == "array":
        needs |= SAYS_NUMBERS | SAYS_NAMES  # a list written in brackets or in prose (router.listed)
    needs |= labelled
    if id_like or path_segment:
        # an identifier, a number written after the resource's name, a DOI for a DOI
        doi = "doi" in words or (p.format or "").lower() == "doi"
        needs |= SAYS_IDS | SAYS_LABELS | (SAYS_ENTITIES if doi else 0)
    if p.type == "string" and coded:
        needs |= SAYS_CODES
    if p.type == "string" and not (id_like or coded or plural):
        needs |= SAYS_NUMBERS  # the number written after its name ("a width of 500 pixels")
    if p.type == "string" and not id_like:
        needs |= SAYS_NAMES  # a name the question writes next to the parameter's word (router.named)
        if words and not (coded or p.enum):  # a word written before its noun ("the animation category",
            # "renewable energy" for energy_type), or a stretch of time by its unit ("2 weeks": router.spans)
            head = words[-1] if path_segment else modified_noun(words)
            cues.update((*span_cues(words), *((stem(head),) if head else ())))
    if _role(p, words, fmt, search, id_like):
        needs |= SAYS_NAMES | SAYS_CODES  # the name or code written after its role's word
    return done(needs)


_DATE_PROSE = re.compile(r"\b(?:dates?|times?|days?|years?|months?|iso[ -]?8601|yyyy|timestamps?)\b", re.IGNORECASE)


def date_like(words: Sequence[str], description: str) -> bool:
    """A string parameter that takes a date: named for one (``date``, ``since``), or for a bound
    (``start``, ``from``) whose description says it is a date ("start" alone is as often a row offset)."""
    if any(w in ("date", "day", "time", "since", "until") for w in words):
        return True
    return bool(set(words) & (START | END)) and bool(_DATE_PROSE.search(description))


def _role(p: Parameter, words: Sequence[str], fmt: str, search: bool, id_like: bool) -> str | None:
    """The role a place the question writes has for ``p`` (``role_of``): an end of a journey, or, for a
    required parameter, where something is ("in Seattle"); an optional one is a filter the question
    may not mean ("in Premier League" is no venue), so it takes only where something lives or is
    based ("members who live in Haarlem": ``residence``)."""
    if not _takes_place(p, fmt, search, id_like):
        return None
    role = role_of(tuple(words))
    return "residence" if role == "place" and not p.required else role


def _takes_place(p: Parameter, fmt: str, search: bool, id_like: bool) -> bool:
    """Whether a role's word may give the parameter its value: a plain string (not a search, an
    enum, a date, an identifier or a year: "to Los Angeles" is no ``end_date``)."""
    return (p.type == "string" and not (search or id_like or p.enum or fmt)
            and "year" not in p.name.lower() and not date_like(name_words(p.name), p.description or ""))


# words of a parameter name that say what kind of value it is, not what it is a value of
_GENERIC_NAME_WORDS = frozenset(["id", "ids", "code", "name", "number", "by", "of", "symbol", "label", "value", "key"])
_NUMBER_WORDS = frozenset(["number", "num", "no", "index"])


# a date's written form as documents give it: "in YYYYMMDD format", "YYYYMMDDHH", "yyyy-mm"
_DATE_TEMPLATE = re.compile(r"\b(YYYY-?MM(?:-?DD(?:-?HH)?)?|YYYY/MM/DD|(?:MM|DD)([-/.])(?:DD|MM)\2YYYY)\b",
                            re.IGNORECASE)
# a declared pattern of a date written as digits alone: ^\d{8}$ (YYYYMMDD), \d{10} (YYYYMMDDHH)
_DIGITS_PATTERN = re.compile(r"\^?(?:\\d|\[0-9\])\{(6|8|10)\}\$?")


def date_spelling(p: Parameter) -> str:
    """How parameter ``p`` takes a date where that is not ISO 8601: the template its declared pattern
    (``^\\d{8}$``) or its description ("in YYYYMMDD format", "in the format 'MM/DD/YYYY'") gives,
    such as "YYYYMMDD" or "MM/DD/YYYY"; "" for ISO."""
    if p.pattern:
        digits = _DIGITS_PATTERN.fullmatch(p.pattern.strip())
        if digits:
            return {"6": "YYYYMM", "8": "YYYYMMDD", "10": "YYYYMMDDHH"}[digits.group(1)]
    found = _DATE_TEMPLATE.search(p.description or "")
    template = found.group(1).upper() if found else ""
    return "" if template in ("YYYY-MM-DD", "YYYY-MM") else template


# the form of a time of day a description gives ("in 24-hour format 'HH:MM'", "HH:mm:ss", "HH:MM AM/PM");
# a description that also writes a date's form ("dd/mm/yyyy HH:MM", ISO 8601) takes a date and time
_CLOCK_FORM = re.compile(r"\bHH:MM(?::SS)?(?:\s*AM/PM)?|\b24[- ]hour\b", re.IGNORECASE)
_DAY_FORM = re.compile(r"\b(?:YYYY|DD/MM|MM/DD)\b|\bISO[ -]?8601\b", re.IGNORECASE)


# a compact URI: a prefix that starts with a letter, a colon, the local id ("NCBIGene:3630", "HP:0001250")
_CURIE = re.compile(r"[A-Za-z][\w.-]*:[\w.-]+")
# an example a description gives: "id, e.g. NCBIGene:3630", "Example: HGNC:1100", "such as 'EDDM'"
_GIVEN_EXAMPLE = re.compile(r"\b(?:e\.g\.|eg\.?|example:?|for example,?|such as)\s+['\"`]?([^\s'\"`,;)]+)",
                            re.IGNORECASE)


def is_curie(value: Any) -> bool:
    """Whether ``value`` is written as a compact URI (prefix:local)."""
    return isinstance(value, str) and _CURIE.fullmatch(value.strip()) is not None


def takes_curie(p: Parameter, path_segment: bool = False) -> bool:
    """Whether ``p`` is an identifier (a path segment or named for an id) whose declared example, or
    the first example its description gives, is a compact URI: "id, e.g. NCBIGene:3630". A web
    address is no compact URI."""
    if p.type != "string" or p.enum or not (looks_like_id(p) or path_segment):
        return False
    if p.example is not None and not isinstance(p.example, (dict, list)):
        example = str(p.example)
    else:
        found = _GIVEN_EXAMPLE.search(p.description or "")
        example = found.group(1).rstrip(".") if found else ""
    return is_curie(example) and not example.lower().startswith(("http:", "https:", "urn:"))


def _examples(p: Parameter, search: bool, id_like: bool) -> tuple[str, ...]:
    """:func:`listed_values` for an optional text or list parameter that takes words of the question
    (no enum, no search text, no identifier); () for any other. A required one is already given the
    question's leftover words when nothing else fills it (``router.guesses``)."""
    if p.type not in ("string", "array") or p.required or p.enum or search or id_like or not p.description:
        return ()
    return listed_values(p.description)


def clock_template(p: Parameter) -> str:
    """How parameter ``p`` takes a time of day, where its description gives the form: "HH:MM",
    "HH:MM:SS" or "HH:MM AM/PM" ("24-hour" alone is "HH:MM"); "" where it takes no time alone."""
    description = p.description or ""
    if (p.type != "string" or p.enum or (p.format or "").lower() in ("date", "date-time")
            or _DAY_FORM.search(description)):
        return ""
    forms = [m.group().upper() for m in _CLOCK_FORM.finditer(description)]
    written = [f for f in forms if f.startswith("HH")]
    return written[0] if written else ("HH:MM" if forms else "")


def label_head(words: Sequence[str]) -> str | None:
    """The word of a parameter name a value written after its noun is for: the last that is not a
    generic one ("gene SCN1A" for ``geneSymbol``, "article 2066037" for ``article_id``); a word
    before it only qualifies it ("law 12345" is no ``law_type``)."""
    return next((w for w in reversed(words) if w not in _GENERIC_NAME_WORDS), None)


# the words of a parameter named for how many records to return (``limit``, ``page_size``, ``top_k``)
_SIZE_HEADS = frozenset(["limit", "size", "rows", "count", "top", "results", "result", "max", "maximum", "num", "number",
                         "records", "items", "hits"])
_SIZE_NAME = _SIZE_HEADS | {"page", "per", "n", "k", "of"}


def names_a_size(words: Sequence[str]) -> bool:
    """Whether a parameter's name words say only how many records to return."""
    said = set(words)
    return said <= _SIZE_NAME and bool(said & _SIZE_HEADS)


def count_word(words: Sequence[str]) -> str | None:
    """The word of a parameter name a count is read for: ``season_number`` -> season (a count of
    seasons), ``days`` -> days; None for a name that is only a number word."""
    if not words:
        return None
    if words[-1] in _NUMBER_WORDS:
        return words[-2] if len(words) >= 2 else None
    return words[-1]


def _date_part(p: Parameter, words: Sequence[str], fmt: str) -> str:
    """The part of a date a parameter named ``year``, ``month`` or ``day`` takes (a number or its
    string, not a whole date); "" for any other."""
    if len(words) == 1 and words[0] in _DATE_PARTS and p.type in ("integer", "string", "number") \
            and fmt not in ("date", "date-time"):
        return words[0]
    return ""


_DATE_PARTS = frozenset({"year", "month", "day"})


def _hour_of_day(p: Parameter, words: Sequence[str]) -> bool:
    """Whether a number parameter is the hour of a day: named for UTC or UT, or for the hour alone, and not
    described as a length of time."""
    if p.type not in ("integer", "number") or not words or words[-1] not in ("utc", "ut", "hour"):
        return False
    return not _DURATION.search(p.description or "")


_DURATION = re.compile(r"\b(?:duration|number of hours|how many|how long|length|elapsed|offset)\b", re.IGNORECASE)


def _time_part(p: Parameter, words: Sequence[str], fmt: str) -> str:
    """The part of a time of day a parameter named ``hour``, ``minute`` or ``second`` (or their
    plurals) takes (a number, not a whole time); "" for any other."""
    if len(words) == 1 and p.type in ("integer", "string", "number") and fmt not in ("date", "date-time", "time"):
        return _TIME_PARTS.get(words[0], "")
    return ""


_TIME_PARTS = {"hour": "hour", "hours": "hour", "minute": "minute", "minutes": "minute", "second": "second",
               "seconds": "second"}


# words of a flag's name that say how it is set, not what it is for (good_for_kids is for kids)
_FLAG_FILLER = frozenset(["good", "allow", "enabl", "support", "accept", "permit", "avail", "option"])


def flag_terms(name: str) -> tuple[str, ...]:
    """The terms of a flag's name the question must say for it to be on: its name's terms less those
    that say how it is set ("good", "allowed", "options"); all of them where nothing else is left."""
    named = name_terms(name)
    return tuple(t for t in named if t not in _FLAG_FILLER) or named


def member_cues(p: Parameter) -> frozenset[str]:
    """The words one of which a question must say for the value reading to find an enum member or a
    flag of ``p`` said in it (the question's words as ``router.values.question_words`` gathers them):
    a flag's first name term; per member, its label's first term, its calendar unit, its spelling
    (lower case, and as written for a short code) and its first term."""
    cues: set[str] = set()
    if p.type == "boolean" and not p.required and not p.enum:
        return frozenset((*flag_terms(p.name)[:1], *described_condition(p.description)[:1]))
    if not p.required and true_member(p.enum) is not None:
        # a flag written as "True"/"False" strings
        cues.update((*flag_terms(p.name)[:1], *described_condition(p.description)[:1]))
    labels = p.enum_labels or {}
    for member in p.enum or ():
        label = labels.get(str(member))
        if label is not None:
            cues.update(name_terms(label)[:1])
        if not isinstance(member, str) or not member.strip():
            continue
        cues.update((UNIT_CUE + member.lower(), member.lower(), member, member.upper()))
        cues.update(name_terms(member)[:1])
        if len(member) == 1 and member.isalpha() and len(named := name_terms(p.name)) == 1:
            cues.add(named[0])  # a one-letter code said by its word's initial: "imperial units" (members)
        unit = counted_unit(p, member)
        if unit is not None:
            cues.add(UNIT_CUE + unit)
    return frozenset(cues)


# Addresses, each with its shape: a parameter named for one takes only a value of that shape, and the
# question's first word of that shape is its value wherever it is written ("this IP address, 192.168.2.200")
_ADDRESSES: dict[str, re.Pattern[str]] = {
    "email": re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+"),
    **dict.fromkeys(("url", "uri", "website", "homepage"), re.compile(r"(?:https?://\S+|(?:[\w-]+\.)+[A-Za-z]{2,}(?:[/:?#]\S*)?)")),
    # IPv4, or IPv6 with its "::" or all eight groups (a time of day, "10:00:00", is none)
    **dict.fromkeys(("ip", "ipaddress", "ipv4", "ipv6"), re.compile(
        r"\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f:]*::[0-9A-Fa-f:.]*|(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}")),
    # a web domain or host: a name with a dot ("example.com"), an address, or the machine itself
    **dict.fromkeys(("domain", "hostname", "host"),
                    re.compile(r"(?:https?://)?(?:[\w-]+\.)+[A-Za-z]{2,}\.?|localhost|\d{1,3}(?:\.\d{1,3}){3}")),
}


# Identifier schemes with a fixed, published shape: a parameter named for one (``issn``, ``author_orcid``)
_SCHEMES: dict[str, re.Pattern[str]] = {
    "issn": re.compile(r"\d{4}-?\d{3}[\dXx]"),
    "isbn": re.compile(r"(?:\d[- ]?){9}[\dXx]|(?:\d[- ]?){12}\d"),
    "orcid": re.compile(r"(?:https?://orcid\.org/)?\d{4}-\d{4}-\d{4}-\d{3}[\dX]"),
    "doi": re.compile(r"(?:https?://(?:dx\.)?doi\.org/)?10\.\d{4,9}/\S+"),
    "pmid": re.compile(r"\d{1,9}"),
    "pmcid": re.compile(r"PMC\d+", re.IGNORECASE),
    "inchikey": re.compile(r"[A-Z]{14}-[A-Z]{10}-[A-Z]"),
    **_ADDRESSES,
    # a phone number and a language tag have shapes too, but a date or a short word has the same one
    **dict.fromkeys(("phone", "telno", "telephone", "msisdn"), re.compile(r"\+?(?:[\s().-]*\d){6,}[\s().-]*")),
    "locale": re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,4})*"),  # a language tag: "en", "en-US", "de_DE"
}

_ADDRESS_SHAPES = frozenset(_ADDRESSES.values())


def _scheme(fmt: str, words: Sequence[str]) -> re.Pattern[str] | None:
    # by format, by the name's last word (``author_orcid``) or by the whole name (``inchiKey``)
    return _SCHEMES.get(fmt) or (_SCHEMES.get(words[-1]) or _SCHEMES.get("".join(words)) if words else None)


def is_address(shape: re.Pattern[str]) -> bool:
    """Whether ``shape`` is an address's (e-mail, web, IP, domain): a value of that shape
    is what it is wherever a question writes it; an identifier's shape (a PMID's digits) is not."""
    return shape in _ADDRESS_SHAPES


def scheme_of(p: Parameter) -> re.Pattern[str] | None:
    """The published shape of the identifier scheme ``p`` is named for (``issn``, ``author_orcid``), or
    None: such a parameter takes only a value of that shape, a guessed one included."""
    fmt = (p.format or "").lower()
    return _scheme("" if fmt in _TYPE_NAMES else fmt, tuple(name_words(p.name)))


def in_path(p: Parameter, path: str) -> bool:
    """Whether the parameter is a segment of the URL path (not a templated query string)."""
    return "{" + p.name + "}" in path.split("?", 1)[0]


def _plural(p: Parameter) -> bool:
    """A parameter named for several things (``ids``, ``stations``, ``sids``): it takes a list."""
    words = name_words(p.name)
    return bool(words) and len(words[-1]) > 3 and words[-1].endswith("s") and not words[-1].endswith("ss")


def _coded(p: Parameter) -> bool:
    """A parameter that takes a short code (a country or station code), by its name or description."""
    return _coded_by(p.name, p.description)


@lru_cache(maxsize=65_536)
def _coded_by(name: str, description: str) -> bool:
    words = name_words(name)
    return bool(words) and (words[-1] in ("code", "country", "iso", "station") or bool(_CODE_PROSE.search(description)))


# Postal codes carry digits the world over (27601, SW1A 1AA, 75008): "NC" in "Raleigh, NC" is none.
_POSTAL_WORDS = frozenset(["postal", "zip", "zipcode", "postcode", "plz"])
_ALPHA3_PROSE = re.compile(r"alpha[- ]?3|three[- ]letter|3[- ]letter", re.I)
_ALPHA2_PROSE = re.compile(r"alpha[- ]?2|two[- ]letter|2[- ]letter|ISO[- ]?3166|country code", re.I)


def _country_code_length(p: Parameter, words: Sequence[str]) -> int:
    """How many letters of an ISO 3166-1 code a parameter named for a country takes (``country``,
    ``country_code``, ``countries``): 3 where its description says alpha-3 or its example or pattern
    has three letters, 2 where they say a two-letter code; 0 where nothing says it takes a code (a
    country's name or a database's own number, then)."""
    if not any(w in ("country", "countries") for w in words):
        return 0
    if _ALPHA3_PROSE.search(p.description):
        return 3
    if _ALPHA2_PROSE.search(p.description):
        return 2
    for shown in (p.example, *(p.enum or ())[:1]):
        if isinstance(shown, str) and shown.isalpha() and shown.isupper() and len(shown) in (2, 3):
            return len(shown)
    if p.pattern:
        for code in ("DE", "DEU"):
            try:
                if re.fullmatch(p.pattern, code):
                    return len(code)
            except re.error:
                break
    return 2 if words[-1] == "code" and p.type == "string" else 0


@lru_cache(maxsize=65_536)
def names_a_year(name: str) -> bool:
    """Whether a parameter is named for a calendar year (``year``, ``release_year``, ``yearFrom``), not
    for a number of years (``years``, ``time_in_years``: how many, which any number may say)."""
    return "year" in name.lower() and "years" not in name_words(name)


_ID_PROSE = re.compile(r"\bID\b|\bIds?\b|\bidentifier\b|\baccession\b")
_NAME_PROSE = re.compile(r"\b(?:names?|titles?|text|terms?|keywords?)\b", re.IGNORECASE)


@lru_cache(maxsize=65_536)
def _described_as_id(description: str) -> bool:
    """A parameter whose description's first sentence calls it an identifier ("Query ID Selector.
    Enter the QueryID number...") and not a name or text: no name of the question is its value."""
    first = description.split(". ", 1)[0]
    return bool(_ID_PROSE.search(first)) and not _NAME_PROSE.search(first)


def identifier_kind(words: Sequence[str], id_kinds: Collection[str]) -> str | None:
    """The identifier concept (of ``id_kinds``) a parameter is named for: its head word
    (``pubchem_cid``, ``pmid``) or its whole name (``inchiKey``, ``arxiv_id``)."""
    if not words:
        return None
    joined = "_".join(words)
    for candidate in (words[-1], joined, "".join(words)):
        if candidate in id_kinds:
            return candidate
    return None


def looks_like_id(p: Parameter) -> bool:
    """A parameter named for an identifier (``gene_id``, ``accession``, ``doi``, a digest: ``firmware_hash``)."""
    words = name_words(p.name)
    return bool(words) and words[-1] in ("id", "ids", "key", "code", "uid", "uuid", "urn", "accession", "curie", "doi", "barcode",
                                         "hash", "sha", "sha1", "sha256", "md5", "checksum", "digest")
