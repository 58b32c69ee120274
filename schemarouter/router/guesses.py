"""Last-resort values for required parameters the question's words do not tie to any parameter.

The value passes (:mod:`schemarouter.router.values`) give a parameter a value when the question's
words, a declared pattern or a vocabulary rule tie the two. Sources nobody described for the
router often name their parameters in ways a question never says ("mass1", "pointA",
"icao_code"), so a required parameter stays empty although the question holds its value, and an
endpoint that could answer loses to one that cannot. What is left is the shape and the order in
which a question writes its values, which follows the order an author declares parameters in far
more often than not ("20 kg of water at 30 degrees mixed with 15 kg at 60" -> mass1, temperature1,
mass2, temperature2):

1. an assignment the question writes to the parameter's own name (``a=2``, ``cash_flows=[...]``);
2. a bracketed list (``[200, 300]``) or a parenthesised pair of numbers (``A(3,4)``) for an array,
   else three or more numbers listed without brackets ("85, 90, 88 and 92");
3. the next number the question writes, in order, for a number or integer (glued to a unit symbol
   or not: "6cm", "440Hz", "8%"; in degrees south or west, negative: "25° S" -> -25); a number
   written twice is taken once per writing, after every other number ("y = 0, z = 0");
4. for text: a quoted string, else a web or e-mail address ("google.com"), else a token of letters and digits (``hXQ7qFFt``), else a code in
   capitals (``EDDM``) that is not a word of the parameter's name, else a name, else a run of
   capitalized words inside a sentence ("in California": a proper noun, though some declaration of
   the registry may use the word), never a code or a run that names a source the question names
   ("the Monarch identifier": where to look, not what to send), else the longest
   run of words no declaration of the endpoint explains (never one that holds a value another
   parameter took); a key (``..._id``, ``..._key``, ``code``) takes only a value written as one
   (quoted, a token, a code), a country or a state only a name or a code, and a date's parameter
   only a date written quoted or as a token: never prose;
5. for an array with no list written: the names a question joins with commas and "and" ("stock
   prices of Microsoft and Google" -> ["Microsoft", "Google"]), else what a text parameter would take
   (never prose), as a list of one ("protein Q9Y6K9" -> ["Q9Y6K9"]);
6. for a whole number with no number left: an ordinal ("the 19th century" -> 19);
7. for a yes-or-no: true when the question says a word of the parameter's name ("Include dissent
   information" -> include_dissent), else the default its description states in words ("Default is
   false."), else false: what an API does when a caller leaves a switch alone;
8. otherwise, the default a description states in words ("The size of the deck. Default is 52.")
   where the document declares none: the author's own value beats an endpoint the question cannot
   call.

Each guess is recorded (``Filled.guessed``, and ``why`` says it), so that re-ranking can prefer an
endpoint whose parameters the question fills by its words over one it fills by guessing. A guess,
like every value of the question, is sent only as the parameter declares it
(:func:`~schemarouter.router.validate.conformed`): never outside a declared list of values.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from schemarouter.graph.terms import API_FILLER, name_terms
from schemarouter.models import Parameter
from schemarouter.router.money import takes_currency
from schemarouter.router.name_words import COUNTED, SYMBOLS, name_words, names_a_setting
from schemarouter.router.numbers import as_fraction, list_items, parse_number, with_scale, written_lists
from schemarouter.router.param_facts import date_like, is_curie, scheme_of, takes_curie
from schemarouter.router.question_facts import quoted_values
from schemarouter.router.validate import conformed, takes
from schemarouter.router.values import Filled
from schemarouter.understand.base import Analysis
from schemarouter.understand.countries import is_country
from schemarouter.understand.reading import trimmed_value

_ASSIGN = re.compile(r"\b([A-Za-z_][\w]*)\s*(?:=|:)\s*(\[[^\]]*\]|\"[^\"]*\"|'[^']*'|-?\d[\d.,]*\d|-?\d|[^\s,;]+)")
# a parenthesised pair of numbers ("A(3,4)"): a list for an array, as a bracketed list is
_PAIR = re.compile(r"\(\s*(-?\d[\d.]*(?:\s*,\s*-?\d[\d.]*)+)\s*\)")
# numbers listed without brackets, three or more ("scores 85, 90, 88 and 92"): a list for an array
_BARE_LIST = re.compile(r"(?<![\w.\-])-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?){1,}(?:,?\s+and\s+-?\d+(?:\.\d+)?)?"
                        r"(?![\w.])")
# a number standing alone (1e-9 too), or glued to a unit symbol ("6cm", "100m", "440Hz", "8%"): the number
_NUMBER = re.compile(r"(?<![\w.])(-?\d+(?:,\d{3})*(?:\.\d+)?(?:[eE][-+]?\d+)?)(?:(?![\w%])|(?:%|(?:[cmkn]?m|[mk]?g|lbs?|oz|m?s|min|hrs?|h|"
                     r"[kmg]?hz|[mk]?v|[mk]?w|kwh|k?j|[km]?pa|atm|ml|mol|ft|mph|kph|km/h|m/s|[µunp]f|[mµ]h)\b))",
                     re.IGNORECASE)
# (not a label: "ICAO" of "(ICAO: AVL)" names the code written after it)
_CODE = re.compile(r"\b[A-Z][A-Z0-9]{1,9}\b(?!\s*:)")
# a run of capitalized words ("California", "New York"): a proper noun, though the registry may know the
# word (the understand step's names are the words no declaration explains); not a sentence's first word
_CAPITALIZED = re.compile(r"\b[A-Z][a-z][\w'&-]*(?:\s+(?:of\s+|de\s+)?[A-Z][a-z][\w'&-]*)*")
# a web address, host name or e-mail address the question writes ("google.com", "http://plga.ca")
_ADDRESS = re.compile(r"(?<![\w@.])(?:https?://)?[\w-]+(?:[.@][\w-]+)*\.[a-z]{2,6}\b(?:/[^\s'\"]*)?")
# a file's path ("~/data/scan.nii", "C:/data/cars.csv", "/var/log/app.log"), read whole: its last part
# alone looks like a host name ("cars.csv")
_FILE_PATH = re.compile(r"(?<![\w@.:/\\])(?:(?:~|\.{1,2}|[A-Za-z]:)(?:[/\\][\w.\-]+)+|(?:/[\w.\-]+){2,})(?![\w/\\])")
_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+|\n\s*)$")
# letters and digits: hXQ7qFFt, IND5463; not a count written as one word ("a 5-day forecast", "3-star")
_TOKEN = re.compile(r"\b(?!\d+-[a-z]+\b)(?!\d+(?:st|nd|rd|th)\b)(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{3,}\b")
# an ordinal ("19th", "2nd"): a number for a whole-number parameter when no plain number is left
_ORDINAL = re.compile(r"(?<![\w.])(\d+)(?:st|nd|rd|th)\b", re.IGNORECASE)
# a default stated in a description's words: "Default is 52.", "defaults to 'kg'", "(default: false)";
# an unquoted value must end the clause ("defaults to the current year" states no value)
_STATED_DEFAULT = re.compile(r"\bdefaults?(?:\s+value)?(?:\s+is|\s+to|\s*[:=])?\s+"
                             r"(?:\"([^\"]{1,40})\"|'([^']{1,40})'|`([^`]{1,40})`|(-?\d+(?:\.\d+)?|[A-Za-z_][\w+-]{0,39}))(?=\s*(?:[.;,)]|$))",
                             re.IGNORECASE)
# the words that join the items of a list a question writes ("Microsoft and Google", "A, B and C")
_LIST_JOIN = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+")
_NUMERIC = ("integer", "number")
# (a symbol too: a ticker is written as one, "AAPL", never "Apple and Microsoft")
_KEY_WORDS = frozenset(["id", "ids", "key", "uuid", "uid", "guid", "code", "token", "slug", "hash", *SYMBOLS])
# parameters named for a country or a state take its name or its code, never a run of prose
_REGION_WORDS = frozenset(["country", "state", "province"])
_CURRENCY_CODE = re.compile(r"[A-Z]{3}")  # how ISO 4217 writes a currency
_CLOCK = re.compile(r"\d{1,2}(?::\d{2}){1,2}(?:\s*[ap]\.?m\.?)?|\d{1,2}\s*[ap]\.?m\.?", re.IGNORECASE)  # 10am, 14:30


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _typed(p: Parameter, raw: str) -> Any:
    """``raw`` (as written) as a value of ``p``'s type, or None when it is not one."""
    raw = raw.strip()
    if p.type == "array":
        return list_items(raw)
    if p.type in _NUMERIC:
        number = parse_number(raw)
        if number is None:
            return None
        if p.type == "integer":
            return int(number) if float(number).is_integer() else None
        return number
    if p.type == "boolean":
        return {"true": True, "false": False}.get(raw.lower())
    return raw.strip("\"'")


@dataclass
class _Written:
    """What the question writes, in order, that a parameter may take (each item taken once)."""

    assigned: dict[str, str] = field(default_factory=dict)
    lists: list[tuple[int, str]] = field(default_factory=list)
    bare_lists: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # (as a list, its numbers)
    numbers: list[tuple[int, str]] = field(default_factory=list)
    quoted: list[str] = field(default_factory=list)
    codes: list[tuple[int, str]] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    ordinals: list[str] = field(default_factory=list)
    capitalized: list[tuple[int, str]] = field(default_factory=list)
    addresses: list[str] = field(default_factory=list)
    # where a number written in degrees south or west starts ("25° S", "121.76° W"): a negative one
    southwest: set[int] = field(default_factory=set)


# degrees south or west after a number: the hemisphere's sign (a degree sign needed: "5 W" is watts)
_SOUTH_WEST = re.compile(r"\s*[°º]\s*[SW]\b")


@lru_cache(maxsize=256)  # every candidate endpoint of a question asks; read-only once made
def _written(question: str) -> _Written:
    out = _Written()
    for m in _ASSIGN.finditer(question):
        value = m.group(2)
        # "(fac: CHI)", "(symbol: TSLA).": the bracket closes around the assignment
        out.assigned.setdefault(_norm(m.group(1)), trimmed_value(value) or value)
    listed: list[tuple[int, int]] = []
    for pos, text in written_lists(question):
        out.lists.append((pos, text))
        listed.append((pos, pos + len(text)))
    for m in _PAIR.finditer(question):
        if not any(a <= m.start() < b for a, b in listed):
            out.lists.append((m.start(), m.group(0)))
            listed.append(m.span())
    out.lists.sort()
    for m in _NUMBER.finditer(question):
        if not any(a <= m.start() < b for a, b in listed):
            out.numbers.append((m.start(), m.group(1)))
            if _SOUTH_WEST.match(question, m.end()):
                out.southwest.add(m.start())
    for m in _BARE_LIST.finditer(question):
        if any(a <= m.start() < b for a, b in listed):
            continue
        items = tuple(re.findall(r"-?\d+(?:\.\d+)?", m.group(0)))
        if len(items) >= 3:
            out.bare_lists.append((",".join(items), items))
    out.quoted = list(quoted_values(question))
    out.codes = [(m.start(), m.group(0)) for m in _CODE.finditer(question) if not m.group(0).isdigit()]
    out.tokens = [m.group(0) for m in _TOKEN.finditer(question)]
    out.ordinals = [m.group(1) for m in _ORDINAL.finditer(question)]
    paths = [(m.start(), m.end()) for m in _FILE_PATH.finditer(question)]
    out.addresses = [question[a:b].rstrip(".,;") for a, b in paths] + [
        m.group(0).rstrip(".,;") for m in _ADDRESS.finditer(question) if not any(a <= m.start() < b for a, b in paths)]
    out.capitalized = [(m.start(), m.group(0)) for m in _CAPITALIZED.finditer(question)
                       if not _SENTENCE_START.search(question[:m.start()])]
    return out


def _again(written: _Written, raw: str, numbered: set[int]) -> bool:
    """Whether ``raw``, spent once, is written again where no guess took it: its every writing but
    the first (which the spending took) may still be taken."""
    at = [pos for pos, number in written.numbers if number == raw]
    return len(at) > 1 and any(pos not in numbered for pos in at[1:])


# the ends of a pair of parameters: (the first, the second) as their names differ
_PAIR_ENDS = (("1", "2"), ("start", "end"), ("from", "to"), ("origin", "destination"), ("source", "target"),
              ("first", "second"))


def paired(names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Pairs of parameter names that differ only in saying which of two things each takes
    (``company1``/``company2``, ``start_city``/``end_city``, ``origin``/``destination``)."""
    have = set(names)
    out: list[tuple[str, str]] = []
    for name in names:
        low = name.lower()
        for first, second in _PAIR_ENDS:
            at = low.rfind(first)
            if at < 0:
                continue
            other = name[:at] + (second.upper() if name[at:at + len(first)].isupper() else second) + name[at + len(first):]
            if other != name and other in have:
                out.append((name, other))
                break
    return tuple(out)


def _joined_items(text: str) -> list[str]:
    """The items a text joins with commas and "and" ("Apple and the Samsung" -> Apple, Samsung)."""
    return [re.sub(r"^(?:the|a|an)\s+", "", i, flags=re.IGNORECASE) for i in _LIST_JOIN.split(text) if i.strip()]


def split_pair(pairs: tuple[tuple[str, str], ...], filled: Filled) -> Filled:
    """Where the first of a pair of parameters (:func:`paired`) was given two names the question joins
    ("between Apple and Samsung" -> company1) and the second has no value of the question's but the
    second name, the second name goes to the second parameter and the first keeps the first."""
    out = Filled()
    if not any(isinstance(v, str) and _LIST_JOIN.search(v) for v in filled.values.values()):
        return out  # no value joins two names
    for first, second in pairs:
        value = filled.values.get(first)
        if not isinstance(value, str):
            continue
        items = _joined_items(value)
        # the second keeps a value of the question's own, unless it is the second joined name itself
        # ("New York and Los Angeles" to start_city, "Los Angeles" to end_city)
        if len(items) != 2 or (second in filled.values and second not in filled.guessed
                               and filled.values[second] != items[1]):
            continue
        out.values[first], out.values[second] = items
        out.why[second] = f"the second of the two names the question joins ({value})"
        out.why[first] = f"the first of the two names the question joins ({value})"
    return out


# a parameter named for how many records a page or response holds (perPage, page_size, limit, maxResults)
_SIZE_WORDS = frozenset(["per", "size", "limit", "rows", "results", "count"])
# the most a description allows: "within the range of 3 to 100", "between 1 and 50", "maximum of 1000"
_UPPER_BOUND = re.compile(r"\b(?:range(?:\s+(?:is|of|from))?|between|from)\s+\d+\s*(?:to|-|–|and)\s*(\d+)\b"
                          r"|\b(?:maximum|max|at most|up to|no more than)\s+(?:value\s+)?(?:of\s+|is\s+)?(\d+)\b",
                          re.IGNORECASE)


def page_size_bound(p: Parameter) -> int | None:
    """For a parameter named for a page's size, the most its description allows ("Must be within the
    range of 3 to 100" -> 100); None for any other parameter or a description that states no bound."""
    if not set(name_words(p.name)) & _SIZE_WORDS:
        return None
    m = _UPPER_BOUND.search(p.description or "")
    return int(next(g for g in m.groups() if g)) if m else None


def abbreviates(question: str, pos: int, code: str) -> bool:
    """Whether the capitals ``code`` written at ``pos`` (in brackets) are the initials of the words
    right before them: "Airport Facility Directory (AFD)" names no airport AFD."""
    if pos < 1 or question[pos - 1] != "(":
        return False
    words = re.findall(r"[A-Za-z]+", question[:pos - 1])[-len(code):]
    return len(words) == len(code) and "".join(w[0] for w in words).upper() == code.upper()


def stated_default(p: Parameter) -> str | None:
    """The default ``p``'s description states in words, as written, or None."""
    m = _STATED_DEFAULT.search(p.description or "")
    return next((g for g in m.groups() if g), None) if m else None


def _listed_names(names: list[str]) -> tuple[str, str] | None:
    """(the first name that joins several, its items joined by commas): "Microsoft and Google" ->
    "Microsoft,Google"; or None."""
    for name in names:
        items = _joined_items(name)
        if len(items) >= 2:
            return name, ",".join(items)
    return None


def guess_required(required: list[Parameter], analysis: Analysis, filled: Filled,
                   unexplained_run: Callable[[], str | None]) -> Filled:
    """Guesses for the ``required`` parameters ``filled`` leaves empty (see the module docstring).
    ``unexplained_run``: the longest run of the question's words the endpoint's declarations do not
    explain, asked only when a text parameter has nothing better."""
    out = Filled()
    empty = [p for p in required if p.name not in filled.values]
    if not empty:
        return out
    question = analysis.text or analysis.question
    written = _written(question)
    spent = set(filled.used)
    calendar = analysis.calendar_spans

    def plain(pos: int) -> bool:  # not part of a date or time ("March" of "March 4th", "AM" of "10:00 AM")
        return not any(a <= pos < b for a, b in calendar)

    def coded(pos: int, code: str) -> bool:  # a value, not the abbreviation of the words before it
        return plain(pos) and not abbreviates(question, pos, code) and not sourced(pos)

    def sourced(pos: int) -> bool:  # the name of a source the question names ("the Monarch identifier")
        return any(a <= pos < b for a, b in analysis.source_spans)

    named = [(e.start, e.end) for e in analysis.names]

    def counted(pos: int) -> bool:  # a number, not a date's ("hours=6, minutes=30" of "6:30 PM" are)
        # ... nor a name's ("Pier 4" is a station, not the number 4)
        return (plain(pos) and not any(a <= pos < b for a, b in named)) \
            or any(a <= pos < b for a, b in analysis.time_spans)

    def free(raw: str) -> bool:
        return raw not in spent and raw.strip("\"'") not in spent

    numbered: set[int] = set()  # where the numbers the guesses took are written

    def take(p: Parameter, raw: str, how: str, south_west: bool = False) -> bool:
        value = _typed(p, with_scale(raw, question) if p.type in _NUMERIC else raw)
        if south_west and isinstance(value, (int, float)) and not isinstance(value, bool):
            value = -value  # "25° S" is latitude -25
        if value is None or value == "" or value == []:
            return False
        scheme = scheme_of(p)
        values = value if isinstance(value, list) else [value]
        if scheme is not None and not all(scheme.fullmatch(str(v).strip()) for v in values):
            return False  # "Deep residual learning ..." is no ISSN, even as a last resort
        if takes_curie(p) and not all(is_curie(v) for v in values):
            return False  # "id, e.g. NCBIGene:3630": "SHH" is no such id, even as a last resort
        if COUNTED.intersection(name_words(p.name)[-1:]) and not any(
                ch.isdigit() for v in values for ch in str(v)):
            return False  # a street's number, an amount: "California", "Bitcoin" are none
        value = takes(p, value)
        if value is None:
            return False
        if p.type == "number" and isinstance(value, (int, float)):
            value = as_fraction(p.name, value, raw, question)  # "a 5% yield" is 0.05 for annual_yield
        out.values[p.name] = value
        out.used.add(raw)
        spent.add(raw)
        out.guessed.add(p.name)
        out.why[p.name] = f"guessed: {how}"
        return True

    def filler(word: str) -> bool:  # "the currency API", "Provide me...": how APIs are spoken of, no value
        return word.casefold() in API_FILLER

    def is_key(p: Parameter) -> bool:  # a key takes a value written as one (quoted, a token, a code), never prose
        return bool(set(name_words(p.name)) & _KEY_WORDS)

    def currency(p: Parameter) -> bool:
        return takes_currency(tuple(name_words(p.name)), p.description or "")

    def text_pools(p: Parameter, dated: bool) -> list[tuple[str, list[str]]]:
        """What a text parameter may take, in the order it is tried; a date's parameter (``dated``) a
        date written quoted or as a token ("20240301") only, never a name, a code or an address."""
        if dated:
            # ... never a time of day ("pick up at 10am" gives the pickup time, not the start date)
            return [("a quoted value", written.quoted),
                    ("an identifier the question writes", [t for t in written.tokens if not _CLOCK.fullmatch(t)])]
        # a code that is a word of the parameter's own name ("ID" for vehicle_id) names it, it is no value
        own = set(name_words(p.name))
        pools = [("a quoted value", written.quoted), ("an address the question writes", written.addresses),
                 ("an identifier the question writes", written.tokens),
                 ("a code the question writes", [c for pos, c in written.codes
                                                 if c.casefold() not in own and coded(pos, c) and not filler(c)])]
        if not is_key(p) and not names_a_setting(p.name):
            pools.append(("a name the question writes", [e.text for e in analysis.names]))
            pools.append(("a proper noun the question writes",
                          [c for pos, c in written.capitalized if plain(pos) and not sourced(pos) and not filler(c)]))
        if "country" in own:  # "weather in Bengaluru, India": a city is no country, even as a last resort
            pools = [(how, [c for c in pool if is_country(c)]) for how, pool in pools]
        elif currency(p):
            # a currency's parameter takes a currency's code ("trips from Berlin": "Berlin" is none)
            pools = [(how, [c for c in pool if _CURRENCY_CODE.fullmatch(c)]) for how, pool in pools]
        return pools

    for p in empty:
        raw = written.assigned.get(_norm(p.name))
        if raw is not None and free(raw) and take(p, raw, f"the question writes {p.name}={raw}"):
            continue
        if p.type == "array":
            nxt = next((raw for _pos, raw in written.lists if free(raw)), None)
            if nxt is not None:
                take(p, nxt, "the next list the question writes")
            else:
                bare = next((b for b in written.bare_lists if all(free(n) for n in b[1])), None)
                if bare is not None and take(p, bare[0], "the numbers the question lists"):
                    spent.update(bare[1])  # each listed number is spent: no number parameter takes it too
                else:
                    listed = _listed_names([e.text for e in analysis.names if free(e.text)])
                    if listed is not None and take(p, listed[1], "the names the question lists"):
                        spent.add(listed[0])  # the joined name is spent as a whole: no text parameter takes it
                    else:  # a list of one: the value a text parameter would take
                        for how, pool in text_pools(p, False):
                            nxt = next((raw for raw in pool if free(raw) and "," not in raw), None)
                            if nxt is not None and take(p, nxt, how + ", as a list of one"):
                                break
        elif p.type in _NUMERIC:
            # a number written twice may be taken twice ("y = 0, z = 0"), once no other number is left
            at = next(((pos, raw) for pos, raw in written.numbers if free(raw) and counted(pos)), None) or next(
                ((pos, raw) for pos, raw in written.numbers
                 if pos not in numbered and counted(pos) and _again(written, raw, numbered)), None)
            if at is not None and take(p, at[1], "the next number the question writes, in order",
                                       at[0] in written.southwest):
                numbered.add(at[0])
            elif p.type == "integer":
                nxt = next((raw for raw in written.ordinals if free(raw)), None)
                if nxt is not None:
                    take(p, nxt, "the next ordinal the question writes")
        elif p.type == "boolean":
            said = set(name_terms(p.name)) & set(analysis.all_terms)
            if said:
                take(p, "true", f"the question says {', '.join(sorted(said))}")
            else:
                take(p, stated_default(p) or "false", "the default a switch left alone takes")
        elif p.type == "string":
            # a date's parameter ("startdate") takes a date written as a token or quoted, never a name,
            # a code or prose ("Chicago" of "in Boston and in Chicago tomorrow")
            dated = date_like(name_words(p.name), p.description or "")
            for how, pool in text_pools(p, dated):
                nxt = next((raw for raw in pool if free(raw)), None)
                if nxt is not None and take(p, nxt, how):
                    break
            else:
                if is_key(p) or dated or set(name_words(p.name)) & _REGION_WORDS or currency(p) or names_a_setting(p.name):
                    continue  # a run of words is no key, no date, no country, no currency and no setting
                run = unexplained_run()
                # ... nor holds a value another parameter took ("station KRDU" once city took KRDU)
                if run and free(run) and not any(w in spent for w in run.split()):
                    take(p, run, "the words of the question the endpoint does not explain")
    for p in empty:
        if p.name not in out.values and p.type == "integer" and (most := page_size_bound(p)) is not None:
            # a page size the question does not give: as many records as the description allows
            out.values[p.name] = most
            out.guessed.add(p.name)
            out.why[p.name] = f"guessed: the most records a page holds, as its description states ({most})"
            continue
        raw = stated_default(p) if p.name not in out.values and p.type != "boolean" else None
        if raw is not None and (value := conformed(p, _typed(p, raw))) is not None:
            out.values[p.name] = value  # no value of the question's: nothing is spent
            out.guessed.add(p.name)
            out.why[p.name] = f"guessed: the default its description states ({raw})"
    return out
