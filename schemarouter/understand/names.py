"""Proper names and identifier-like tokens: the values a question carries for sources nobody tuned.

A question names things ("The Dark Knight", "Sofia Coppola", "House of Cards") that no entity
list knows, and quotes titles; a search endpoint takes such a name as its free text. It also
carries identifiers in shapes no recognizer was written for (``HP:0001250``, ``NM_000059.3``,
``urn:mavedb:00000001-a-1``, ``3542519``). Both are read from the writing alone (capitals,
quotes, digits and separators), never from a list of titles, so they hold for any source.
"""

from __future__ import annotations

import re
from functools import lru_cache

from schemarouter.graph.terms import QUESTION_FILLER
from schemarouter.graph.text import STOPWORDS
from schemarouter.prefilter import DIGITS, prefiltered
from schemarouter.understand import chemistry
from schemarouter.understand.entities import Entity

# letters of any alphabet ("Bogotá", "São Paulo", "Zürich"), digits and the marks names are written with
_TOKEN = re.compile(r"[^\W_](?:[^\W_]|['’.&\-])*")
_INTERLEAVED = re.compile(r"\d[A-Z]")  # a capital after a digit: no accession's shape but the interleaved one
_INITIALS = re.compile(r"(?<![\w.])(?:[A-Z]\.){2,}$")  # a name ending in initials: "D.C.", "U.S."
# a quote opens after a space or at the start and closes before a space or punctuation, so the
# apostrophe of "Initiative's" never pairs with a later quote (backticks quote too: "`Son's latest goal`")
_QUOTED = prefiltered(r"(?:(?<=[\s(:])|^)([\"“‘'`])([^\"“”‘’`]{1,200}?)([\"”’'`])(?=[\s.,;:?!)]|$)",
                      '"', "“", "‘", "'", "`")
# Small words that may sit inside a name ("House of Cards", "The Lord of the Rings").
_CONNECTORS = frozenset(["of", "the", "and", "de", "la", "le", "du", "da", "di", "del", "von", "van", "der", "den", "y", "&", "el", "al"])
# Capitalized words that are not names by themselves: calendar words and sentence openers.
_NOT_NAMES = frozenset(
    ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december", "today", "tomorrow", "yesterday", "i", "i'm", "i'll", "i'd", "i've",
     "i’m", "i’ll", "i’d", "i’ve"]
)
_OPENERS = STOPWORDS | QUESTION_FILLER | frozenset(
    ["search", "recommend", "compare", "name", "list", "count", "are", "is", "does", "do", "did", "has", "have", "how", "which", "what", "when", "where", "who", "why", "whose", "please", "hi", "hello", "hey", "okay", "ok", "yes", "no"]
)
# words that open a new sentence after an abbreviation's full stop: a question or a request
_RESUMING = frozenset(["can", "could", "would", "will", "please", "what", "which", "who", "how", "when", "where", "why",
                       "is", "are", "do", "does", "did", "i", "we", "also", "and", "then", "give", "show", "tell",
                       "find", "list", "get", "it", "the", "this", "there", "they", "my", "our", "he", "she"])
# every shape has a digit, a colon, a dot or a hyphen
_IDENTIFIER = prefiltered(
    r"(?<![\w:/.\-@])("
    r"(?:[A-Za-z]{1,8}-)?[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}"  # UUIDs, prefixed or not
    r"|[A-Za-z][A-Za-z0-9_]*:[A-Za-z0-9][A-Za-z0-9_.:\-]*[A-Za-z0-9]"  # CURIEs and URNs: HP:0001250, urn:x:1-a
    r"|[A-Za-z]{1,6}[_\-]?\d{3,}(?:[._\-]\w+)*"  # accessions: NM_000059.3, P04637, ENSG00000139618, rs12345
    r"|[A-Z][A-Za-z]{1,9}_?\d{2,}"  # database ids: CHEMBL25, DB00945
    r"|\d{4,}(?:[\-_.]\w+)*"  # numeric ids of 4+ digits (years are told apart by the caller)
    r"|(?=[A-Z0-9\-]*\d)[A-Z][A-Z0-9]{1,9}(?:-[A-Z0-9]{1,10}){2,}"  # segmented codes: TCGA-AB-2802
    # capitals and digits interleaved, two or more of each: Q9Y6K9 (UniProt), A0A024R161 (formulas are
    # told apart by the caller)
    r"|(?=(?:[A-Z]*\d){2})(?=(?:\d*[A-Z]){2})[A-Z0-9]*[A-Z]\d[A-Z0-9]*[A-Z][A-Z0-9]*"
    # host names, which sites and projects go by: fr.wikipedia.org, commons.wikimedia.org
    r"|[a-z][a-z0-9\-]*(?:\.[a-z][a-z0-9\-]*)*\.(?:org|com|net|edu|gov|int|io|info)"
    r")(?![\w])(?!:\w)(?!\.\w)",
    *DIGITS, ":", ".", "-",
)


def quoted_names(text: str) -> list[Entity]:
    """Text inside quotes: a title or name exactly as the user wrote it."""
    out = []
    for m in _QUOTED.finditer(text):
        inner = m.group(2).strip()
        if inner and (m.group(1) in "\"“”`" or len(inner.split()) > 1 or inner[:1].isupper()):
            out.append(Entity("name", inner, m.start(2), m.end(2), inner, {"quoted": True}))
    return out


def proper_names(text: str, taken: list[tuple[int, int]]) -> list[Entity]:
    """Runs of capitalized words (with small connectors inside) that are not already taken by an
    entity, a source name or a quote. A run at the start of a sentence needs two capitalized words."""
    names = quoted_names(text)
    taken = [*taken, *((e.start, e.end) for e in names)]
    tokens = [m for m in _TOKEN.finditer(text) if not any(s <= m.start() < e for s, e in taken)]
    run: list[re.Match[str]] = []

    def close() -> None:
        while run and run[-1].group().lower() in _CONNECTORS:
            run.pop()
        while run and run[0].group().lower() in _CONNECTORS - {"the"}:
            run.pop(0)
        caps = [m for m in run if _capitalized(m.group())]
        if caps and not (len(caps) == 1 and _opens_sentence(text, caps[0].start())):
            first = run[0]
            if _opens_sentence(text, first.start()) and first.group().lower() in _OPENERS:
                run.pop(0)
                # "List the PDBe structures": a lower-case "the" after the opener is no part of a title
                while run and run[0].group().lower() in _CONNECTORS and not _capitalized(run[0].group()):
                    run.pop(0)
            if run and any(_capitalized(m.group()) for m in run):
                start, end = run[0].start(), run[-1].end()
                value = re.sub(r"['’]s$", "", text[start:end]).rstrip(".'’")
                if _INITIALS.search(text[start:end]):
                    value += "."  # "Washington D.C.": the last period is the initials', not the sentence's
                if value.lower() not in _NOT_NAMES and not _acronym_alone(value):
                    names.append(Entity("name", value, start, start + len(value), value))
        run.clear()

    previous_end = -1
    for m in tokens:
        word = m.group()
        gap = text[previous_end:m.start()] if previous_end >= 0 else " "
        # a subtitle after a colon is part of the title ("Star Wars: The Last Jedi"); one word that
        # opens the sentence is a label ("Note: The Dark Knight ...")
        subtitle = gap.strip() == ":" and _capitalized(word) and (
            word.lower() not in _OPENERS or word.lower() in ("the", "a", "an")) and not (
            len(run) == 1 and _opens_sentence(text, run[0].start()))
        # an abbreviation's full stop ends its sentence too where a sentence's opener follows ("Apple
        # Inc. Can you ...": the name is "Apple Inc.", not "Apple Inc. Can")
        ended = bool(run) and (_ends_sentence(run[-1].group())
                               or (run[-1].group().endswith(".") and word.lower() in _RESUMING))
        if run and (((gap.strip() not in ("", "-") or "\n" in gap) and not subtitle) or ended):
            close()
        if _capitalized(word) or (word[:1].isdigit() and run) or (run and word.lower() in _CONNECTORS):
            if _capitalized(word) and word.lower() in _NOT_NAMES:
                close()
            else:
                if not run and word[:1].isdigit():
                    close()
                run.append(m)
        elif word[:1].isdigit() and _next_capitalized(tokens, m):
            run.append(m)  # "2 Broke Girls"
        else:
            close()
        previous_end = m.end()
    close()
    return sorted(names, key=lambda e: e.start)


def identifier_tokens(text: str, taken: list[tuple[int, int]]) -> list[Entity]:
    """Tokens shaped like identifiers of some database (CURIEs, URNs, accessions, long numbers)."""
    out = []
    for value, start in _identifier_shapes(text):
        if not any(s <= start < e for s, e in taken):
            out.append(Entity("identifier", value, start, start + len(value), value))
    return out


@lru_cache(maxsize=256)
def _identifier_shapes(text: str) -> tuple[tuple[str, int], ...]:
    """(token, where it starts) of every identifier-shaped token of ``text`` but years: read once per
    question, which asks with different spans taken."""
    out = []
    for m in _IDENTIFIER.finditer(text):
        value = m.group(1).rstrip(".")
        if value.isdigit() and len(value) == 4 and value[:2] in ("19", "20"):
            continue  # a year
        if value.isalnum() and _INTERLEAVED.search(value) and (len(value) < 5 or chemistry.parse(value) is not None):
            continue  # "H2SO4", "C6H12O6": a formula; "B2B" is too short to say
        out.append((value, m.start(1)))
    return tuple(out)


# short words written with a full stop inside a name ("St. Louis", "Apple Inc. Ltd")
_ABBREVIATIONS = frozenset(["mr", "mrs", "ms", "dr", "st", "jr", "sr", "inc", "co", "ltd", "corp", "mt", "ft", "no", "vs"])


def _ends_sentence(token: str) -> bool:
    """Whether a token closes its sentence ("Vancouver." of "in Vancouver. I'll need"): it ends in a
    full stop that is not part of an abbreviation ("St.", "D.C.")."""
    if not token.endswith(".") or len(token) < 2:
        return False
    word = token[:-1]
    return "." not in word and word.lower() not in _ABBREVIATIONS


def _capitalized(word: str) -> bool:
    return word[:1].isupper()


def _acronym_alone(value: str) -> bool:
    """A lone short all-capitals word ("TV", "DFT") is an abbreviation, not a name; so are short codes
    joined by "and" ("stations KRDU and KJFK" lists two codes)."""
    words = value.split()
    if len(words) > 1 and "and" in words:
        return all(w == "and" or (w.isupper() and len(w) <= 5) for w in words)
    return " " not in value and value.isupper() and len(value) <= 4


def _opens_sentence(text: str, start: int) -> bool:
    before = text[:start].rstrip()
    return not before or before[-1] in ".?!:;\"“(" or before.endswith("\n")


def _next_capitalized(tokens: list[re.Match[str]], m: re.Match[str]) -> bool:
    """Whether a number opens a title ("2 Broke Girls"): the next word is capitalized, and not a
    symbol in capitals, which makes the number a quantity ("50 EUR", "2 TB")."""
    i = tokens.index(m)
    if i + 1 >= len(tokens):
        return False
    following = tokens[i + 1].group()
    return _capitalized(following) and not (following.isupper() and following.isalpha() and len(following) <= 4)
