"""Names a question ties to a parameter by the parameter's own words.

An imported endpoint that finds films may take ``directed_by`` and ``cast``, a music search
``artist`` and ``album``: plain strings whose declarations say nothing of a value's shape. The
question ties a name to one of them by writing that parameter's word next to it: "directed by
Jordan Peele", "the album Gotta Be Me", "with Bill Murray in the cast", "Peter Strickland as the
director". The name right after the word (past a few small words) or right before it is that
parameter's value, tied as firmly as a value written after its noun.

A path parameter that names a record by a word (``/categories/{category}``) takes the lower-case
word written right before its noun, in the singular: "Vimeo's animation category" (not a word that
says which record, "the main category", nor a kind of records, "the top-level categories").

A parameter named only for the records' label (``name``, ``title``, ``full_name_contains``: a text
filter a database import or an API gives its records' name column) is tied by the noun of the
records its endpoint lists: "the Riverside district" for ``name_contains`` of ``/districts``,
"member Ada Janssen" for ``full_name_contains`` of ``/members``.

And the plainest tie: a value written right after the parameter's noun ("station KRDU" for
``station``, :func:`written_after_noun`), and the noun a question calls a name by ("the gene SHH",
:func:`kind_named`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from itertools import pairwise

from schemarouter.graph.terms import literal_segments, stem
from schemarouter.graph.text import STOPWORDS
from schemarouter.models import Parameter
from schemarouter.router.counts import noun_for
from schemarouter.router.memos import QuestionMemo
from schemarouter.router.name_words import name_words
from schemarouter.router.param_facts import label_head
from schemarouter.router.places import written_as_place
from schemarouter.understand.base import Analysis

# small words that may stand between a name and the word it is tied to
_BETWEEN = frozenset(["by", "of", "the", "a", "an", "as", "in", "is", "was", "called", "named", "titled"])
_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*")
MIN_STEM = 4  # "director" answers ``directed_by`` through their common stem; shorter stems are too loose


# the last word of a text filter's name that says how it matches, not what (``name_contains``)
_MATCHING = frozenset(["contains", "icontains", "like", "ilike", "eq", "equals", "exact", "iexact", "prefix",
                       "startswith", "match", "matches"])
# what a parameter named only for the records' label is named for
_LABELS = frozenset(["name", "title", "label", "full", "display"])


@lru_cache(maxsize=65_536)  # per name: every text parameter of every candidate asks, for every question
def _own_words(words: tuple[str, ...]) -> tuple[str, ...]:
    return words[:-1] if len(words) > 1 and words[-1] in _MATCHING else words


@lru_cache(maxsize=65_536)
def is_label_filter(words: tuple[str, ...]) -> bool:
    """Whether a parameter named by ``words`` is named only for the records' label (``name``,
    ``full_name_contains``, ``title``): it finds a record by its name."""
    own = _own_words(words)
    return bool(own) and set(own) <= _LABELS


# a parameter named for one part of a person's name (``first_name``, ``LastName``, ``surname_contains``)
_GIVEN = frozenset([("first", "name"), ("given", "name"), ("firstname",), ("forename",)])
_FAMILY = frozenset([("last", "name"), ("family", "name"), ("surname",), ("lastname",)])


def name_part(words: tuple[str, ...]) -> int | None:
    """0 for a parameter named for a person's first name, -1 for the last, else None."""
    own = _own_words(words)
    return 0 if own in _GIVEN else -1 if own in _FAMILY else None


def untyped(value: str, analysis: Analysis, noun: Callable[[str], bool] | None) -> bool:
    """Whether no noun right after the name ``value`` says what kind of record it names ("the
    Riverside district" is a district's name): the word after it is none of the registry's record
    nouns (``noun``; without it, no word may follow: "the email of Chloe Bakker?")."""
    spans = tuple((str(e.value), e.start, e.end) for e in analysis.names)
    return any(v == value and (not after or (noun is not None and not noun(after)))
               for v, _before, after in _neighbours(analysis.question, spans))


def label_tied(words: tuple[str, ...], path: str, analysis: Analysis, taken: set[str]) -> str | None:
    """:func:`name_tied` for a parameter named by ``words`` (its words less a trailing match operator),
    or, for one named only for the records' label, the name written next to the noun of the records
    the endpoint at ``path`` lists; None where neither is written."""
    own = _own_words(words)
    tied = name_tied(own, analysis, taken)
    if tied is None and is_label_filter(words):
        noun = record_noun(path)
        tied = name_tied([noun], analysis, taken) if noun else None
    return tied


def record_noun(path: str) -> str | None:
    """The noun of the records an endpoint lists: its path's last literal segment's last word
    (``/districts`` -> districts, ``/stations/{station_id}/bikes`` -> bikes)."""
    literal = literal_segments(path)
    words = _WORD.findall(literal[-1].replace("_", " ").replace("-", " ")) if literal else []
    return words[-1].lower() if words else None


def name_tied(words: Sequence[str], analysis: Analysis, taken: set[str]) -> str | None:
    """The first unspent name of the question written next to the word the parameter named by
    ``words`` is for, or None."""
    head = label_head(words)
    if head is None or not analysis.names:
        return None
    wanted = stem(head.lower())
    if len(wanted) < MIN_STEM:
        return None
    spans = tuple((str(e.value), e.start, e.end) for e in analysis.names)
    for value, before, after in _neighbours(analysis.question, spans):
        if value not in taken and (_same(before, wanted) or _same(after, wanted)):
            return value
    return None


@lru_cache(maxsize=256)
def _neighbours(question: str, spans: tuple[tuple[str, int, int], ...]) -> tuple[tuple[str, str, str], ...]:
    """Per name (value, start, end): the stems of the first word before it and the first after it past
    the small words (at most three), "" where there is none. Read once per question: every string
    parameter of every candidate endpoint asks."""
    def outside(at: int, stop: int) -> str:  # the question from ``at`` up to ``stop`` or another name's start
        return question[at:min([stop, *(s for _v, s, _e in spans if at <= s < stop)])]

    def inside(stop: int, at: int) -> str:  # ... back from ``stop`` to ``at`` or another name's end
        return question[max([at, *(e for _v, _s, e in spans if at < e <= stop)]):stop]

    # a word of another name is none of a parameter's: "London, United Kingdom" is not next to "units"
    return tuple((value, _first(reversed(_WORD.findall(inside(start, max(0, start - 60)))), _BEFORE),
                  _first(_WORD.findall(outside(end, end + 60)))) for value, start, end in spans)


# before a name, "of" is not skipped: "the email of Chloe Bakker" asks for her email, it does not name one
_BEFORE = _BETWEEN - {"of"}


def _first(words: Iterable[str], between: frozenset[str] = _BETWEEN) -> str:
    skipped = 0
    for word in words:
        low = word.lower()
        if low in between and skipped < 3:
            skipped += 1
            continue
        return stem(low)
    return ""


def _same(said: str, wanted: str) -> bool:
    """Whether a word's stem is the parameter word's ("director" for ``directed_by``: one begins the other)."""
    return bool(said) and (said == wanted or (len(said) >= MIN_STEM and (said.startswith(wanted) or wanted.startswith(said))))


def record_named(name: str, words: tuple[str, ...], path: str, analysis: Analysis, taken: set[str],
                 listed: Callable[[str], bool] | None) -> tuple[str, str, str, bool] | None:
    """(value, the value as spent, why, firm) of text parameter ``name`` (its ``words``) from a name the
    question writes: tied by the parameter's word or its records' noun (:func:`label_tied`, firm); a
    part of a person's full name for a parameter named for it ("Luis Goncalves" for FirstName and
    LastName); a name no registry noun after it types, for a filter on the records' name ("the email
    of Chloe Bakker"). Never a name written as a place ("members who live in Haarlem")."""
    tied = label_tied(words, path, analysis, taken)
    if tied is not None:
        return tied, tied, f"'{tied}' is written next to the word of '{name}'", True

    def free(value: str) -> bool:
        return value not in taken and untyped(value, analysis, listed) and not written_as_place(analysis, value)

    part = name_part(words)
    if part is not None:
        person = next((str(e.value) for e in analysis.names if len(str(e.value).split()) > 1 and free(str(e.value))),
                      None)
        if person is not None:
            written = person.split()[part]
            return written, written, f"'{written}' of the name '{person}' in the question", False
    if is_label_filter(words):
        first = next((str(e.value) for e in analysis.names if str(e.value) not in taken), None)
        if first is not None and free(first):
            return first, first, f"the name '{first}' in the question", False
    return None


# words written before a noun that say which of its records, not its name ("the main category", "the
# first season", "this channel")
_NOT_NAMING = frozenset(["main", "first", "last", "latest", "newest", "new", "old", "top", "popular", "best",
                         "specific", "particular", "same", "other", "whole", "entire", "each", "every", "current",
                         "given", "following", "previous", "next", "default", "public", "private", "own", "which",
                         "what", "this", "that", "these", "those", "their", "its", "his", "her", "our", "your", "my"])


def word_before(noun: str, analysis: Analysis, taken: set[str]) -> str | None:
    """The lower-case word written right before ``noun`` (a path parameter's resource) that names one
    of its records: "Vimeo's animation category" for ``/categories/{category}``; None where the word
    before it says which record instead ("the main category") or is a small word."""
    words: list[str] = _WORD.findall(analysis.text or analysis.question)
    for before, word in pairwise(words):
        if stem(word.lower()) != noun or before in taken or not before.islower() or len(before) < 3:
            continue
        if word.lower().endswith("s") and not noun.endswith("s"):
            continue  # "Vimeo's top-level categories": a kind of records, not one named
        if before in STOPWORDS or before in _NOT_NAMING or before.endswith(("est", "'s", "’s")):
            continue
        return before
    return None


def written_after_noun(p: Parameter, analysis: Analysis, taken: set[str]) -> str | None:
    """The value written right after the parameter's noun ("station KRDU" for ``station``)."""
    if not analysis.labels:
        return None
    head = label_head(name_words(p.name))
    if head is None:
        return None
    value = analysis.labels.get(noun_for(head, analysis.labels, len(name_words(p.name)) > 1))
    if value is None or value in taken:
        return None
    if p.type in ("integer", "number") and not value.replace(".", "", 1).lstrip("-").isdigit():
        return None
    return value


def kind_named(analysis: Analysis, value: str) -> str | None:
    """The term of the noun the question calls a name by ("the paper 'Deep residual ...'" -> paper,
    "the gene SHH" -> gene): a noun after an article, right before the name."""
    question = analysis.question
    memo = analysis.memos.of(QuestionMemo)
    nouns = memo.article_nouns
    if nouns is None:
        # every "the/a/an <noun> " of the question, overlapping ones too, with where the name would start
        nouns = memo.article_nouns = [(m.group(1), m.end(2)) for m in _ARTICLE_NOUN.finditer(question)]
    wanted = value.casefold()
    for noun, at in nouns:
        if question[at:at + len(value)].casefold() == wanted:
            return stem(noun.lower())
    return None


# a lookahead: the matches may overlap ("a the film X" has "the film" inside "a the")
_ARTICLE_NOUN = re.compile(r"(?=\b(?:the|a|an)\s+([A-Za-z]+)(\s+[\"'‘“]?))", re.IGNORECASE)
