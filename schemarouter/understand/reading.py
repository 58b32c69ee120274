"""The reading every understand backend shares: names, identifiers, numbers and content terms.

These are read from the writing of the question alone (no vocabulary, no model), so the offline
rules and the LLM understander give the router the same values for sources nobody tuned the
vocabulary for, and the router never has to go back to the raw question.
"""

from __future__ import annotations

import datetime
import itertools
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Literal

from schemarouter.graph.terms import API_FILLER, compound_terms, name_terms, question_terms, stem
from schemarouter.graph.text import STOPWORDS
from schemarouter.prefilter import DIGITS, prefiltered
from schemarouter.understand import wording
from schemarouter.understand.actions import action_verb
from schemarouter.understand.asked import KIND_TERMS, agent_terms, asked_terms, kind_terms
from schemarouter.understand.base import Analysis
from schemarouter.understand.coordinates import read_coordinates
from schemarouter.understand.countries import is_country
from schemarouter.understand.entities import Entity
from schemarouter.understand.names import identifier_tokens, proper_names

_LIVE = prefiltered(
    r"\b(?:right now|at (?:this|the) (?:moment|instant|time)|as (?:we speak|of now)|currently|real[- ]time|live"
    r"|this (?:instant|very moment)|at present|just now)\b",
    "now", "moment", "instant", "time", "speak", "currently", "live", "present", flags=re.IGNORECASE)
# "live" the verb ("where did the dodo live", "species that live in caves") says nothing of now: the
# word before it is a subject or an auxiliary, or the word after it a preposition or adverb
_LIVE_VERB_BEFORE = frozenset(
    ["to", "did", "do", "does", "can", "could", "will", "would", "may", "might", "must", "should", "shall", "they", "we", "i", "you", "he", "she", "it", "who", "that", "which", "where", "people", "animals", "species", "still", "once"])
_AUXILIARIES = frozenset(["did", "do", "does", "can", "could", "will", "would", "may", "might", "must", "should", "shall"])
_LIVE_VERB_AFTER = frozenset(
    ["in", "on", "at", "with", "near", "under", "among", "for", "long", "alone", "there", "here", "together", "off", "out", "up", "inside", "outside", "within", "without", "around", "through", "by"])
# the asker's own things: "my draft", "our projects", "private links" (not "give me": that asks for
# public records as often as private ones)
_OWN = prefiltered(r"\b(?:my|mine|myself|our|ours|ourselves|private)\b", "my", "mine", "our", "private",
                   flags=re.IGNORECASE)
_LEADING_LETTERS = re.compile(r"[a-z]{2,}(?=\d)")
# kinds of creative work: a name that owns one ("Clint Eastwood's latest movie") or is the subject of
# a clause about one ("movies that Christopher Nolan directed") is its maker
_WORKS = (r"(?:movie|film|show|series|book|novel|paper|article|album|song|work|publication|dataset|project|"
          r"appearance|role|episode)s?")
_OWNS_WORK = re.compile(r"['’]s\s+(?:[\w-]+\s+){0,3}?" + _WORKS + r"\b", re.IGNORECASE)
_MAKES_WORK = re.compile(r"\b" + _WORKS + r"\s+(?:that|which)\s+$", re.IGNORECASE)
# "... Jeremy Clarkson in his most popular TV show": a work the next words give the name
_HIS_WORK = re.compile(r"^[^.?!]{0,24}?\b(?:his|her|their)\s+(?:[\w-]+\s+){0,3}?" + _WORKS + r"\b", re.IGNORECASE)
_BY = re.compile(r"\bby\s+$", re.IGNORECASE)
# "Who directed more movies, Akira Kurosawa or Spielberg?": the names a question asking who made
# works lists after a comma are the candidates for its "who", makers all (not the work it names)
_WHO_MADE = re.compile(r"^\W*who\s+(?:has\s+|have\s+|had\s+)?(?:directed|wrote|written|produced|composed|"
                       r"created|made|authored|painted|published|filmed|shot|starred|acted)\b[^.?!;]*,"
                       r"(?:[^.?!;,]*(?:,|\bor|\band|\bvs\.?|\bversus))?\s*$", re.IGNORECASE)
_DATE = prefiltered(r"\b(\d{4}-\d{2}-\d{2})\b", "-")
# a date written with its month's name: "July 4, 2010", "4th of July 2010", "Sept. 1 1999"
_MONTHS = {name: number for number, names in enumerate(
    [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
     ("july", "jul"), ("august", "aug"), ("september", "sept", "sep"), ("october", "oct"), ("november", "nov"),
     ("december", "dec")], start=1) for name in names}
_ENGLISH_MONTHS = frozenset(_MONTHS)
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
# ... and in the languages of Europe the most questions come in besides English (French, German,
# Spanish, Italian, Portuguese, Dutch), read only in a whole date ("12 janvier 2022", "3. März 2021",
# "5 de mayo de 2020"): alone, "mars" is a planet and "mai" a name
_MONTHS_ABROAD = {name: number for number, names in enumerate(
    [("janvier", "januar", "jänner", "enero", "gennaio", "janeiro", "januari"),
     ("février", "fevrier", "februar", "febrero", "febbraio", "fevereiro", "februari"),
     ("mars", "märz", "maerz", "marzo", "março", "marco", "maart"),
     ("avril", "abril", "aprile"),
     ("mai", "mayo", "maggio", "maio", "mei"),
     ("juin", "juni", "junio", "giugno", "junho"),
     ("juillet", "juli", "julio", "luglio", "julho"),
     ("août", "aout", "agosto", "augustus"),
     ("septembre", "septiembre", "settembre", "setembro"),
     ("octobre", "oktober", "octubre", "ottobre", "outubro"),
     ("novembre", "noviembre", "novembro"),
     ("décembre", "decembre", "dezember", "diciembre", "dicembre", "dezembro")], start=1) for name in names}
_MONTH_ABROAD = r"(?P<month>" + "|".join(sorted(_MONTHS_ABROAD, key=len, reverse=True)) + r")"
_MONTHS.update(_MONTHS_ABROAD)
_YEAR_DIGITS = re.compile(r"\d{4}")
_WRITTEN_MONTH = prefiltered(rf"\b{_MONTH},?\s+(?P<year>\d{{4}})\b", *DIGITS, flags=re.IGNORECASE)  # "March 2019"
_WRITTEN_DATES = (
    prefiltered(rf"\b{_MONTH}\s+{_DAY},?\s+(?P<year>\d{{4}})\b", *DIGITS, flags=re.IGNORECASE),
    prefiltered(rf"\b{_DAY}(?:\s+of)?\s+{_MONTH},?\s+(?P<year>\d{{4}})\b", *DIGITS, flags=re.IGNORECASE),
    prefiltered(rf"\b(?P<day>\d{{1,2}})(?:\.|er)?\s+(?:de\s+)?{_MONTH_ABROAD}\s+(?:de\s+)?(?P<year>\d{{4}})\b", *DIGITS,
                flags=re.IGNORECASE),
)
# a date written without its year ("April 15th", "the 6th of March"), read only where the question
# writes one year and no other ("departing on April 15th and returning on April 22nd 2023"): that
# year is the date's. The month is written with its capital, or the day as an ordinal ("may" is as
# often the verb)
# ("April 13th of next year" is in the year after it)
_NEXT_OR_LAST = r"(?:,?\s+(?:of\s+)?(?P<rel>next|last)\s+year\b)?"
_YEARLESS_DATES = (
    prefiltered(rf"\b{_MONTH}\s+(?:the\s+)?{_DAY}\b(?![:.,]?\d){_NEXT_OR_LAST}", *DIGITS, flags=re.IGNORECASE),
    prefiltered(rf"\b(?:the\s+)?{_DAY}(?:\s+of)?\s+{_MONTH}(?!\w){_NEXT_OR_LAST}", *DIGITS, flags=re.IGNORECASE),
)
_A_YEAR = re.compile(r"(?<!\d)(?:1[89]|20)\d\d(?!\d)")
# a date said relative to today ("tomorrow", "next Monday", "the upcoming Saturday"), read only where the
# question writes today's date ("today is Monday April 25th 2023")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_RELATIVE_DAY = prefiltered(
    r"\b(?:(?P<after>the\s+day\s+after\s+tomorrow)|(?P<tomorrow>tomorrow)|(?P<yesterday>yesterday)"
    r"|(?P<which>this|next|upcoming|coming|the\s+upcoming|the\s+coming)\s+(?P<weekday>" + "|".join(_WEEKDAYS) + r"))\b",
    "tomorrow", "yesterday", *_WEEKDAYS, flags=re.IGNORECASE)
# a time of day: "14:30", "10:00 AM", "2pm", "6 p.m.", "10 in the morning", "noon"
_CLOCK = prefiltered(r"(?<![\w:.])(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d))?(?![\d:])"
                     r"(?:\s*(?P<ap>[ap])(?:\.m\.|m\b))?",
                     ":", flags=re.IGNORECASE)
# ... as French and others write it, on a 24-hour clock: "8 h 15", "20h30" (never "5 h" alone: a duration)
_CLOCK_ABROAD = prefiltered(r"(?<![\w:.])(?P<h>[01]?\d|2[0-3])\s?h\s?(?P<m>[0-5]\d)(?![\d:])", *DIGITS)
# ... and as Chinese, Japanese and Korean write it: "0時0分0秒", "8시 15분" (never "8時間", hours: a duration)
_CLOCK_CJK = prefiltered(r"(?<!\d)(?P<h>[01]?\d|2[0-3])\s*(?:[時时](?!間)|시(?!간))\s*(?P<m>[0-5]?\d)\s*[分분]"
                         r"(?:\s*(?P<s>[0-5]?\d)\s*[秒초])?", "分", "분")
_HOUR_OF_DAY = prefiltered(
    r"\b(?P<h>1[0-2]|0?[1-9])(?:\s*(?P<ap>[ap])(?:\.m\.|m\b)|\s+(?:o'clock\s+)?in\s+the\s+"
    r"(?P<part>morning|afternoon|evening|night))", *DIGITS, flags=re.IGNORECASE)
_NOON = prefiltered(r"\b(?P<word>noon|midday|midnight)\b", "noon", "midday", "midnight", flags=re.IGNORECASE)
# a date written in digits other than ISO 8601: year first ("2023.10.1", "2023/10/01", "2023-5-2"), or the
# year last with a slash or a dot ("09/09/2023", "25.12.2023"), read only where the order of day and
# month is certain (one of them over 12, or both the same)
_YEAR_FIRST = prefiltered(r"(?<![\w.\-/])(\d{4})([./\-])(\d{1,2})\2(\d{1,2})(?![\w\-/]|\.\d)", *DIGITS)
# ... or as Chinese, Japanese and Korean write it: "2018年1月1日", "2022년 1월 12일"
_CJK_DATE = prefiltered(r"(?<!\d)(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]", "年", "년")
_YEAR_LAST = prefiltered(r"(?<![\w.\-/])(\d{1,2})([./])(\d{1,2})\2(\d{4})(?![\w\-/]|\.\d)", *DIGITS)
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "6th": 6, "7th": 7, "8th": 8,
    "9th": 9, "10th": 10,
}
# a number written as a word before what it counts ("two passengers", "one room")
CARDINALS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
              "ten": 10, "eleven": 11, "twelve": 12}
_CARDINAL_NOUN = prefiltered(r"\b(" + "|".join(CARDINALS) + r")\s+([a-z]{3,})\b", *CARDINALS, flags=re.IGNORECASE)
_ORDINAL_NOUN = prefiltered(r"\b(" + "|".join(_ORDINALS) + r")\s+([a-z]+)", *_ORDINALS, flags=re.IGNORECASE)
# (a number written with thousands separators, "1,500 units", "$400,000 budget", is one number, none of its groups a count)
_NOUN_NUMBER = prefiltered(r"\b([a-z]{3,})\s+(?:no\.?\s*|number\s+|#)?(\d{1,4})\b(?![.\-/]\d|,\d{3}\b)", *DIGITS,
                           flags=re.IGNORECASE)


# a word may hold an apostrophe or hyphen ("it's", "Ehlers-Danlos"), never end with one: the quote
# closing 'seizure' is no part of the word
_WORD = re.compile(r"[A-Za-z](?:[A-Za-z0-9'’\-]*[A-Za-z0-9])?|\d[\w.\-:]*")
_LABELLED = re.compile(
    r"\b([A-Za-z]{3,})\s+(?:((?i:id|code|number|symbol))(?:\s+(?:is\s+|[=:]\s*)?|\s*[=:]\s*)|#\s*)?"
    r"([\"'“‘]([^\"'”’]{1,80})[\"'”’]|[A-Z][A-Za-z0-9:_.\-]*[0-9A-Z][A-Za-z0-9:_.\-]*|[A-Za-z]*\d[\w:.\-]*"
    r"|-\d+(?:\.\d+)?(?![\w.])"  # a signed number: "longitude -75"
    r"|(?<=\s)#\d[\w\-]*)")  # a number written with its sign ("my order ID is #123": #123)
# How people name reporting periods, in the words enum labels use (Q1, half-year, Q3, annual).
_PERIODS = [
    (prefiltered(r"\b(?:first|1st)[- ]quarter\b|\bq1\b", "quarter", "q1", flags=re.I), "q1"),
    (prefiltered(r"\b(?:third|3rd)[- ]quarter\b|\bq3\b", "quarter", "q3", flags=re.I), "q3"),
    (prefiltered(r"\b(?:half[- ]?year(?:ly)?|semi[- ]?annual|interim|h1|first half)\b", "half", "semi", "interim",
                 "h1", flags=re.I), "half-year"),
    (prefiltered(r"(?<!semi-)(?<!semi )\b(?:annual|yearly|full[- ]year|business report)\b", "annual", "yearly",
                 "full", "business", flags=re.I), "annual"),
]
_PREFIX = re.compile(r"([A-Za-z]{2,})[_:\-]?\d")
# a number standing alone (not the tail of a date, id or decimal) followed by what it counts
_NUMBER_NOUN = prefiltered(r"(?<![\w.\-/:])(?<!\d,)(\d{1,4})(?:-|\s+)([a-z]{3,})\b", *DIGITS, flags=re.IGNORECASE)
_NEXT_WORD = re.compile(r"[ \t]+([a-z]{3,})\b", re.IGNORECASE)  # the word right after (no comma between)
_MODIFIED = 2  # words after a counted word that may be what it counts ("ten major historical events")
_CODE = re.compile(r"(?<![\w:/.\-])([A-Z]{2,4})(?![\w:/\-])(?!\.\w)")
_NOT_VALUES = frozenset(["the", "a", "an", "of", "in", "on", "at", "for", "to", "and", "or", "with", "from", "by", "is", "are", "this", "that"])
# where what a number counts ends: a small word, "per" ("10 entries per page" counts entries, not
# pages), or a word of comparison
# ("one other adult" says how many more, not how many)
_NOT_CARRIED = frozenset([*_NOT_VALUES, "per", "other", "more"])
_SCALES = frozenset(["thousand", "million", "billion", "trillion"])  # "100 million shares": a scale, no count


def id_prefix(value: str) -> str | None:
    """An identifier's alphabetic prefix, its namespace: CHEMBL203 -> CHEMBL, HGNC:1100 -> HGNC."""
    m = _PREFIX.match(value)
    return m.group(1) if m else None


def read_values(analysis: Analysis, text: str, source_spans: list[tuple[int, int]],
                known: Callable[[str], bool] | None = None, action: str | Literal[False] | None = False,
                together: Callable[[list[str]], bool] | None = None) -> None:
    """Fill the shared reading of ``text`` into ``analysis`` (names, identifiers, dates, counts,
    labelled values, coordinates, terms, action verb, compared provenances). Entity spans already on
    the analysis are respected. ``known`` tells whether a term is vocabulary of the registry: a
    capitalized phrase made only of such words ("UniProt", "Human Phenotype Ontology") names a
    thing the sources describe, so it is read as words, not as a value. ``action`` is the verb of the
    request to act as the registry reads it (:func:`schemarouter.understand.actions.requested_action`);
    without a registry, the verb as written."""
    dates = _dates(text)
    # a written date's month is no name ("July 4, 2010") and its day no count
    taken = [(e.start, e.end) for e in analysis.entities] + list(source_spans) + [span for span, _ in dates]
    # identifiers first: "MONDO" in "MONDO:0007739" is part of an identifier, not a name
    first_ids = [(e.start, e.end) for e in identifier_tokens(text, taken)]
    # a capitalized entity among other capitalized words is a word of a title ("The Shape of Water",
    # "Iron Man"): names are read through it, and a name made of entities alone is none
    capitalized = [(e.start, e.end) for e in analysis.entities if e.text[:1].isupper()]
    names = [n for n in proper_names(text, [s for s in taken if s not in capitalized] + first_ids)
             if not _entities_alone(text, n, capitalized)]
    if known is not None:
        # a country is a value whatever words it is made of ("United States": unit, state)
        names = [e for e in names
                 if e.extra.get("quoted") or not _all_known(str(e.value), known, together)
                 or is_country(str(e.value))]
    # things the entity readers named (a compound, a company, a quoted title) are names a search takes
    for e in analysis.entities:
        if e.kind in ("compound", "company", "title") and not any(n.start < e.end and e.start < n.end for n in names):
            names.append(Entity("name", e.text, e.start, e.end, e.text, {"entity": e.kind}))
    for e in names:
        if (_BY.search(text[max(0, e.start - 12):e.start]) or _OWNS_WORK.match(text, e.end)
                or _MAKES_WORK.search(text[max(0, e.start - 40):e.start]) or _HIS_WORK.match(text[e.end:])
                or _WHO_MADE.match(text[:e.start])):
            # "directed by Sofia Coppola", "papers by Geoffrey Hinton", "Clint Eastwood's latest
            # movie": who made it, not what was made
            e.extra["agent"] = True
    analysis.names = sorted(names, key=lambda e: e.start)
    taken_ids = taken + [(e.start, e.end) for e in analysis.names if e.extra.get("quoted")]
    ids = identifier_tokens(text, taken_ids)
    for e in ids:
        before = re.findall(r"[a-z]+", text[max(0, e.start - 40): e.start].lower())[-3:]
        e.extra["context"] = [stem(w) for w in before]
    analysis.identifiers = ids
    analysis.dates = [iso for _, iso in dates if iso]
    analysis.date_words = [_words_before(text, span[0]) for span, iso in dates if iso]
    times = _times(text, [span for span, _ in dates])
    analysis.times = [clock for _, clock in times]
    analysis.time_words = [_words_before(text, span[0]) for span, _ in times]
    analysis.spans = [(m.group(1).replace(",", ""), m.group(2).replace(",", "")) for m in _SPAN.finditer(text)]
    months = [((m.start(), m.end()), f"{m.group('year')}-{_MONTHS[m.group('month').lower()]:02d}")
              for m in (_WRITTEN_MONTH.finditer(text) if _YEAR_DIGITS.search(text) else ())
              if not any(s < m.end() and m.start() < e for (s, e), _ in dates)]
    analysis.months = [month for _, month in months]
    analysis.month_names = _month_names(text, [span for span, _ in [*dates, *months]])
    written = ([span for span, iso in dates if text[span[0]:span[1]] != iso] + [span for span, _ in months]
               + [span for span, _ in times])
    analysis.time_spans = [span for span, _ in times]
    analysis.calendar_spans = sorted([span for span, _ in dates] + [span for span, _ in months] + analysis.time_spans)

    def in_date(m: re.Match[str]) -> bool:
        return any(s <= m.start() < e for s, e in written)

    counts: dict[str, int] = {}
    for m in _ORDINAL_NOUN.finditer(text):
        if not in_date(m):
            counts.setdefault(stem(m.group(2).lower()), _ORDINALS[m.group(1).lower()])
    counted: list[tuple[str, str | int, re.Match[str] | None]] = [
        *((m.group(1), m.group(2), None) for m in _NOUN_NUMBER.finditer(text) if not in_date(m)),
        *((m.group(2), m.group(1), m) for m in _NUMBER_NOUN.finditer(text) if not in_date(m)),
        *((m.group(2), CARDINALS[m.group(1).lower()], m) for m in _CARDINAL_NOUN.finditer(text))]
    for noun, number, written_at in counted:
        if noun.lower() in _NOT_VALUES:  # "3 and 4" counts nothing
            continue
        counts.setdefault(stem(noun.lower()), int(number))
        # the word after a number may describe what it counts ("two smoking rooms", "10 entries per
        # page"): the next words count too, up to the first small word ("2 bedrooms and 2 bathrooms")
        at = written_at.end() if written_at is not None else -1
        for _ in range(_MODIFIED if written_at is not None and noun.lower() not in _SCALES | _NOT_CARRIED else 0):
            follow = _NEXT_WORD.match(text, at)
            if follow is None or follow.group(1).lower() in _NOT_CARRIED:
                break
            counts.setdefault(stem(follow.group(1).lower()), int(number))
            at = follow.end()
    analysis.counts = counts
    spans = [*taken, *((e.start, e.end) for e in analysis.names), *((e.start, e.end) for e in ids)]
    # a short capitalized code the registry's own vocabulary has as a word ("TV") is that word
    # ... and one that names how APIs are spoken of ("the currency API", "as JSON") is no value either
    analysis.codes = [m.group(1) for m in _CODE.finditer(text) if not any(s <= m.start() < e for s, e in spans)
                      and (known is None or not known(stem(m.group(1).lower())))
                      and m.group(1).casefold() not in API_FILLER]
    code_spans = [(m.start(1), m.end(1)) for m in _CODE.finditer(text) if m.group(1) in analysis.codes]
    kinds = kind_terms(text, analysis.names)
    if known is not None:
        kinds += [t for t in agent_terms(text) if known(t)]  # "who discovered" asks for a discoverer
    analysis.asked = asked_terms(text)
    analysis.all_terms = question_terms(text)
    analysis.all_terms += [t for t in kinds if t not in analysis.all_terms]
    analysis.compounds = compound_terms(text)
    blank = list(text)
    # an ordinal before a noun ("the first movie", "second season") is a number written as a word: a
    # value, not a word of what is asked (numbers are no terms either)
    ordinal_spans = [(m.start(1), m.end(1)) for m in _ORDINAL_NOUN.finditer(text)]
    for start, end in [*taken, *((e.start, e.end) for e in analysis.names), *((e.start, e.end) for e in ids),
                       *code_spans, *ordinal_spans, *written]:
        for i in range(max(0, start), min(end, len(blank))):
            blank[i] = " "
    # an identifier's prefix names its namespace ("MONDO:0007739", "CHEMBL25"): a word the sources
    # that hold it declare
    prefixes = " ".join(filter(None, (id_prefix(str(e.value)) for e in ids)))
    analysis.terms = question_terms("".join(blank) + " " + prefixes)
    # what the question asks for by its kind is asked for as a field too ("the lead actor" -> cast), and
    # so is a kind's word the question writes where a value's span hid it ("the paper '... image ...'")
    analysis.terms += [t for t in analysis.all_terms if t in KIND_TERMS and t not in analysis.terms]
    analysis.prefixes = question_terms(prefixes)
    if known is not None:
        # "PM2.5" is written pm25 or pm2_5 in declarations, whose names split letters from digits: a
        # term the registry does not know also counts as its letters where those are a declared name
        for term in list(analysis.terms):
            lead = _LEADING_LETTERS.match(term)
            letters = lead.group() if lead else term
            if letters != term and letters not in analysis.terms and not known(term) and known(letters):
                analysis.terms.append(letters)
    # the words a free-text parameter may be given: everything but source names, identifiers (those
    # read as identifiers here and those a concept declares a written form for: "m9" of the DOI
    # 10.6084/m9.figshare.1407024 is no word to search for) and dates
    rest = list(text)
    declared = [(e.start, e.end) for e in analysis.entities if e.extra.get("declared")]
    for start, end in [*source_spans, *((e.start, e.end) for e in ids), *declared, *written]:
        for i in range(max(0, start), min(end, len(rest))):
            rest[i] = " "
    analysis.words = [(w, t) for w in _WORD.findall("".join(rest)) if (t := _term(w)) is not None]
    coordinates = read_coordinates(text)
    if coordinates is not None:
        analysis.coordinates = (coordinates.latitude, coordinates.longitude)
        # a number with a decimal comma ("51,6") is two numbers to the other readers: both are the pair's
        analysis.coordinates_written = coordinates.written + tuple(
            piece for number in coordinates.written if "," in number for piece in number.split(","))
    # "latitude 51.5, longitude -0.12" is one value, the coordinates, not two labelled numbers
    analysis.labels = _labels(text, taken + ([coordinates.span] if coordinates else []), known)
    analysis.periods = [period for pattern, period in _PERIODS if pattern.search(text)]
    analysis.action = action_verb(text) if action is False else action
    analysis.live = asks_now(text)
    analysis.own = bool(_OWN.search(text))
    analysis.compare_kinds = wording.constraint_kinds(text) if analysis.compare else []


def _entities_alone(text: str, name: Entity, spans: list[tuple[int, int]]) -> bool:
    """Whether ``name`` holds an entity and every capitalized word of it lies in one of the entity
    ``spans`` ("GaN and AlN", "Sodium Chloride"): a name only where some capitalized word is not an
    entity's."""
    if not any(s < name.end and name.start < e for s, e in spans):
        return False
    for m in re.finditer(r"\S+", text[name.start:name.end]):
        start = name.start + m.start()
        if m.group()[:1].isupper() and not any(s <= start < e for s, e in spans):
            return False
    return True


# a month named alone, with its capital ("in December", "the Dec report"); not a sentence's first word
# ("May I ask"), nor a name's first ("August Wilson")
_MONTH_ALONE = re.compile(r"(?<=[a-z,;:]\s)(" + "|".join(
    name.capitalize() for name in sorted(_ENGLISH_MONTHS, key=len, reverse=True))
    + r")\b(?!\.?\s+[A-Z\d])")


def month_number(name: str) -> int:
    """The number of the month a name read by this module names ("December", "Dec", "janvier" -> 12, 12, 1)."""
    return _MONTHS[name.lower()]


def _month_names(text: str, taken: list[tuple[int, int]]) -> list[str]:
    """The months ``text`` names alone, as written, outside the ``taken`` spans (its dates and months)."""
    return [m.group(1) for m in _MONTH_ALONE.finditer(text)
            if not any(s < m.end() and m.start() < e for s, e in taken)]


def _dates(text: str) -> list[tuple[tuple[int, int], str]]:
    """The dates written in ``text``, in order, as (span, ISO date): ISO dates as written, dates
    with a month's name ("July 4, 2010", "4th of July 2010") converted, with no year where the
    question writes one year alone ("April 15th ... 2023"). An impossible day ("31
    February 2020") keeps its span with an empty date: it is no date, and no name or count either."""
    if not _YEAR_DIGITS.search(text):
        return []  # every date has a year of four digits
    found = [((m.start(1), m.end(1)), m.group(1)) for m in _DATE.finditer(text)]
    for pattern in _WRITTEN_DATES:
        for m in pattern.finditer(text):
            try:
                iso = datetime.date(int(m.group("year")), _MONTHS[m.group("month").lower()],
                                    int(m.group("day"))).isoformat()
            except ValueError:
                iso = ""
            if not any(s < m.end() and m.start() < e for (s, e), _ in found):
                found.append(((m.start(), m.end()), iso))
    years = set(_A_YEAR.findall(text))
    if len(years) == 1:
        year = int(years.pop())
        for pattern in _YEARLESS_DATES:
            for m in pattern.finditer(text):
                # "may" is as often the verb; "the 1st of march", "may 5th" are dates however written
                said = m.group("month")[:1].isupper() or re.search(r"\d(?:st|nd|rd|th)\b", m.group(), re.IGNORECASE)
                if not said or any(s < m.end() and m.start() < e for (s, e), _ in found):
                    continue
                shift = {"next": 1, "last": -1}.get((m.group("rel") or "").lower(), 0)
                try:
                    found.append(((m.start(), m.end()), datetime.date(
                        year + shift, _MONTHS[m.group("month").lower()], int(m.group("day"))).isoformat()))
                except ValueError:
                    continue  # "February 30th": no date
    for m in _YEAR_FIRST.finditer(text):
        _digits_date(found, m.span(), int(m.group(1)), int(m.group(3)), int(m.group(4)))
    for m in _CJK_DATE.finditer(text):
        _digits_date(found, m.span(), int(m.group(1)), int(m.group(2)), int(m.group(3)))
    for m in _YEAR_LAST.finditer(text):
        first, second = int(m.group(1)), int(m.group(3))
        if first > 12 >= second:
            _digits_date(found, m.span(), int(m.group(4)), second, first)
        elif second > 12 >= first or first == second:
            _digits_date(found, m.span(), int(m.group(4)), first, second)
    return _relative_to_today(text, sorted(found))


def _relative_to_today(text: str, found: list[tuple[tuple[int, int], str]]) -> list[tuple[tuple[int, int], str]]:
    """``found`` with the dates said relative to today ("tomorrow", "next Monday") where the question
    writes today's date ("today is 2023-10-01", "Today is Tuesday April 25th 2023"); that date is then
    the day the question is asked, not a date it asks about, and is left out."""
    anchor = next(((span, iso) for span, iso in found
                   if iso and "today" in re.findall(r"[a-z]+", text[max(0, span[0] - 30):span[0]].lower())[-4:]), None)
    if anchor is None:
        return found
    today = datetime.date.fromisoformat(anchor[1])
    relative = []
    for m in _RELATIVE_DAY.finditer(text):
        if any(s < m.end() and m.start() < e for (s, e), _ in found):
            continue
        if m.group("after") or m.group("tomorrow") or m.group("yesterday"):
            shift = 2 if m.group("after") else 1 if m.group("tomorrow") else -1
        else:
            ahead = (_WEEKDAYS.index(m.group("weekday").lower()) - today.weekday()) % 7
            # "next Monday" on a Monday is a week on; "this Saturday" the coming one
            shift = ahead or (7 if m.group("which").lower() == "next" else 0)
        relative.append((m.span(), (today + datetime.timedelta(days=shift)).isoformat()))
    if not relative:
        return found
    # today's date keeps its span (its words are no name or count) and gives no date
    return sorted([(span, "" if (span, iso) == anchor else iso) for span, iso in found] + relative)


def _times(text: str, taken: list[tuple[int, int]]) -> list[tuple[tuple[int, int], str]]:
    """The times of day written in ``text`` outside the ``taken`` spans, in order, as (span, "HH:MM"
    on a 24-hour clock, "HH:MM:SS" where the seconds are written)."""
    found: list[tuple[tuple[int, int], str]] = []

    def add(span: tuple[int, int], hour: int, minute: int, seconds: str | None = None) -> None:
        if any(s < span[1] and span[0] < e for s, e in [*taken, *(f for f, _ in found)]):
            return
        found.append((span, f"{hour:02d}:{minute:02d}" + (f":{seconds}" if seconds else "")))

    for m in _CLOCK.finditer(text):
        add(m.span(), _hour(int(m.group("h")), m.group("ap")), int(m.group("m")), m.group("s"))
    for m in _CLOCK_ABROAD.finditer(text):
        add(m.span(), int(m.group("h")), int(m.group("m")))
    for m in _CLOCK_CJK.finditer(text):
        add(m.span(), int(m.group("h")), int(m.group("m")), f"{int(m.group('s')):02d}" if m.group("s") else None)
    for m in _HOUR_OF_DAY.finditer(text):
        part = (m.group("part") or "").lower()
        ap = m.group("ap") or ("a" if part == "morning" or (part == "night" and int(m.group("h")) < 6) else "p")
        add(m.span(), _hour(int(m.group("h")), ap), 0)
    for m in _NOON.finditer(text):
        add(m.span(), 0 if m.group("word").lower() == "midnight" else 12, 0)
    return sorted(found)


def _hour(hour: int, ap: str | None) -> int:
    """``hour`` on a 24-hour clock: "2 pm" is 14, "12 am" 0; with no "am"/"pm" as written."""
    if ap is None or hour > 12:
        return hour
    if ap.lower() == "p":
        return hour if hour == 12 else hour + 12
    return 0 if hour == 12 else hour


def _words_before(text: str, start: int) -> tuple[str, ...]:
    """The stems of the (up to three) words written right before ``start`` in its sentence, and of
    each two adjacent of them as one word ("pick up" -> pickup): what says which date or time a
    value is ("departing on", "returning on")."""
    clause = re.split(r"[.;!?]", text[:start])[-1]
    words = re.findall(r"[a-z]+", clause.lower())[-3:]
    return (*(stem(w) for w in words), *(stem(a + b) for a, b in itertools.pairwise(words)))


def _digits_date(found: list[tuple[tuple[int, int], str]], span: tuple[int, int], year: int, month: int,
                 day: int) -> None:
    """Add a date written in digits at ``span`` unless a date already covers it; an impossible one
    ("2023.13.45") is no date and is left to the other readers."""
    if any(s < span[1] and span[0] < e for (s, e), _ in found):
        return
    try:
        found.append((span, datetime.date(year, month, day).isoformat()))
    except ValueError:
        return


def asks_now(text: str) -> bool:
    """Whether ``text`` asks for a value as of now ("right now", "currently", "live prices"); "live"
    the verb ("where did the dodo live?") does not."""
    first = _LIVE.search(text)
    if first is None:
        return False
    for m in _LIVE.pattern.finditer(text, first.start()):  # the search above found one
        if m.group().lower() != "live":
            return True
        before = re.findall(r"[A-Za-z]+", text[: m.start()])
        after = re.match(r"\W*([A-Za-z]+)", text[m.end():])
        if before and before[-1].lower() in _LIVE_VERB_BEFORE:
            continue
        if after and after.group(1).lower() in _LIVE_VERB_AFTER:
            continue
        clause = re.split(r"[.;!?]", text[: m.start()])[-1].lower().split()
        # the clause's last word after an auxiliary: "How long do turtles live?"
        if (after is None or re.match(r"\s*[.;!?,]", text[m.end():])) and _AUXILIARIES & set(clause):
            continue
        return True
    return False


# "between 1000000 and 5000000", "from 10 to 20": a span of numbers (dates are read as dates); the
# sentence may end right after it ("from 1871 to 1945.")
_SPAN = prefiltered(r"\b(?:between|from)\s+(-?\d[\d,]*(?:\.\d+)?)\s+(?:and|to)\s+(-?\d[\d,]*(?:\.\d+)?)"
                    r"(?![\w\-/:]|\.\w)",
                    "between", "from", flags=re.IGNORECASE)


def _all_known(value: str, known: Callable[[str], bool],
               together: Callable[[list[str]], bool] | None = None) -> bool:
    """Whether every word of ``value`` is a word of the registry's declarations ("UniProt" as the
    word uniprot of a field name, or as its camel-case parts) and, with ``together``, whether the
    words of each name it joins are mentioned together by one endpoint's declaration: a registry of thousands of
    endpoints declares "sword", "art" and "online" somewhere each, but none declares "Sword Art
    Online", a title; "Human Phenotype Ontology" is one source's own name."""
    # words that carry no term ("and", "of") neither make nor break it where two or more words do:
    # "MeSH and OMIM" is two declared words; "The Last Of Us" is a title with one
    written = value.split()
    joined = "".join(written).lower()
    if len(written) >= 2 and joined.isalpha() and known(stem(joined)):
        return True  # a phrase the declarations write as one word ("On Demand": /ondemand/genres)
    words = [w for w in written if question_terms(w) or name_terms(w)]
    if len(words) < len(written) and len(words) < 2:
        return False
    if not words or not all(_word_known(w, known) for w in words):
        return False
    if together is None:
        return True
    # "MeSH and OMIM" names two things: each is checked on its own
    for part in _JOINS.split(value):
        terms = list(dict.fromkeys(t for w in part.split() for t in _word_terms(w, known)))
        if len(terms) >= 2 and not together(terms):
            return False
    return True


_JOINS = re.compile(r",|&|\b(?:and|or)\b", re.IGNORECASE)


def _word_terms(word: str, known: Callable[[str], bool]) -> list[str]:
    """The declared terms a word of a name stands for: its own term, else its camel-case parts."""
    whole = question_terms(word)
    if len(whole) == 1 and known(whole[0]):
        return whole
    return [t for t in name_terms(word) if known(t)]


def _word_known(word: str, known: Callable[[str], bool]) -> bool:
    whole = question_terms(word)
    if len(whole) == 1 and known(whole[0]):
        return True
    parts = name_terms(word)
    return bool(parts) and all(known(t) for t in parts)


@lru_cache(maxsize=16_384)
def _term(word: str) -> str | None:
    """The term of one word as written (remembered: questions share most of their words)."""
    found = question_terms(word)
    return found[0] if found else None


def _labels(text: str, taken: list[tuple[int, int]], known: Callable[[str], bool] | None = None) -> dict[str, str]:
    """Noun term -> the value written right after the noun: "station KRDU", "build GRCh38",
    "taxon NCBITaxon:10090", "chromosome 1", "term 'seizure'". As with codes, an unquoted word of
    letters the registry's vocabulary has (``known``) is that word, not a value: "popular TV show"."""
    out: dict[str, str] = {}
    for m in _LABELLED.finditer(text):
        noun, kind = m.group(1).lower(), (m.group(2) or "").lower()
        if kind and (noun in _NOT_VALUES or noun in STOPWORDS):
            noun, kind = kind, ""  # "the symbol Fe": the value of a symbol
        if noun in _NOT_VALUES or noun in STOPWORDS or any(s <= m.start(1) < e for s, e in taken):
            continue
        value = trimmed_value(m.group(4) or m.group(3))
        if m.group(4) is None and known is not None and value.isalpha() and known(stem(value.lower())):
            continue
        if value and value.lower() not in _NOT_VALUES:
            out.setdefault(stem(noun), value)
            if kind:
                # "gene symbol KRAS" is the gene's value, and that of a name written as one word
                # (``genesymbol``, ``stationid``), as a parameter named ``gene_symbol`` is its gene's
                out.setdefault(stem(noun + kind), value)
    return out


_OPENERS = {")": "(", "]": "[", "}": "{"}


def trimmed_value(value: str) -> str:
    """A value as written in running text, without the punctuation that ends its sentence or clause
    and the closing brackets that close what was written before it ("(symbol: TSLA)." gives TSLA),
    keeping those it opens itself ("f(x)", "[1]")."""
    value = value.rstrip(".,;:?!")
    while value and value[-1] in _OPENERS and value.count(_OPENERS[value[-1]]) < value.count(value[-1]):
        value = value[:-1].rstrip(".,;:?!")
    return value
