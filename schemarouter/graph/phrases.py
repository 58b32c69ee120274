"""A phrase index: longest-match lookup of vocabulary phrases in a question.

Built once per graph (so matching a question costs a few dict lookups per word, not a regex
per alias). Short aliases written with capitals ("MP", "COD", "CID") match only when the
question spells them the same way, so "MP" (a database) and "mp" (melting point) stay apart.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

_TOKEN = re.compile(r"[A-Za-z0-9]+")
_NORMAL = re.compile(r"[a-z0-9]+(?: [a-z0-9]+)*")  # a phrase already in normal form is its own key


@dataclass(slots=True)
class Term:
    """One vocabulary entry: ``phrase`` (normal form) stands for ``target`` of ``kind``.

    Read-only by convention, not frozen: a graph at 10,000 sources holds hundreds of thousands, and a
    frozen dataclass sets each attribute through ``object.__setattr__`` (five times slower)."""

    kind: str  # source | concept | field | field_part | intent | description
    target: Any
    phrase: str
    original: str
    case_sensitive: bool = False


@dataclass(slots=True)
class Token:
    """A word of a question, with its lower-case form and character span (read-only by convention)."""
    text: str  # as written
    low: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Match:
    """A vocabulary phrase found in a question: its token and character span and the terms it names."""
    start: int  # token index
    end: int  # token index, exclusive
    char_start: int
    char_end: int
    text: str
    terms: tuple[Term, ...]
    loose: tuple[Term, ...] = ()  # same words, different capitals: for resolving by context


def tokenize(text: str) -> list[Token]:
    """The words of ``text``, each with its character span."""
    return [Token(m.group(), m.group().lower(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def _case_sensitive(alias: str) -> bool:
    if len(alias.replace(" ", "")) > 4:
        return False  # long aliases match in any case
    return any(c.isalpha() and c.isupper() for c in alias) or alias in {"mp", "bp"}


@dataclass
class PhraseIndex:
    """Every phrase of the vocabulary (intents, concepts, sources, field names) and what it names."""
    # phrase (lower-case words joined by spaces) -> its term, or a list when several (most phrases have
    # one: no list per phrase); the key string is the term's ``phrase`` too, so it is stored once
    entries: dict[str, Term | list[Term]] = field(default_factory=dict)
    longest: dict[str, int] = field(default_factory=dict)  # first word -> most words of a phrase starting so
    # read back from a cache file: one row per term, sorted by phrase (a phrase's terms are adjacent, in
    # the order they were added): phrases, kinds, targets, originals, case sensitivity. A phrase's terms
    # are made the first time it is looked up (found by bisection) and kept in ``entries``
    _columns: tuple[list[str], list[str], list[Any], list[str], bytes] | None = field(default=None, repr=False,
                                                                                     compare=False)

    # Pickled (in the graph cache file) as those columns: a graph at 100,000 sources holds millions of
    # terms, and reading them back one object at a time was a fifth of loading the file, while a question
    # looks up a few dozen phrases; sorted columns, not a dictionary of phrases: a dictionary of two
    # million phrases and their numbers was 160 MB and a tenth of a warm load.
    def __getstate__(self) -> tuple[list[str], list[str], list[Any], list[str], bytes, dict[str, int]]:
        return (*self._merged(), self.longest)

    def __setstate__(self, state: tuple[list[str], list[str], list[Any], list[str], bytes, dict[str, int]]) -> None:
        keys, kinds, targets, originals, sensitive, self.longest = state
        self.entries = {}
        self._columns = (keys, kinds, targets, originals, sensitive)

    def add(self, kind: str, target: Any, phrase: str, *, case_sensitive: bool | None = None, key: str | None = None) -> None:
        """Record that ``phrase`` names ``target`` of ``kind`` (each phrase and target once). ``key`` is
        the phrase's normal form (lower-case words joined by spaces) where the caller already has it.

        A graph adds the same field phrases once per source that has the field, so most adds are
        repeats: they are found in their bucket (usually one term) without a set of every phrase
        added, which at 10,000 sources would cost more memory than the index itself while it is built.
        """
        if key is None:
            key = phrase if _NORMAL.fullmatch(phrase) else " ".join([t.lower() for t in _TOKEN.findall(phrase)])
        if not key:
            return
        if self._columns is not None and key not in self.entries:
            self._made(key)  # a phrase read back from a cache file gets its terms first
        bucket = self.entries.get(key)
        if bucket is not None:
            for term in (bucket,) if isinstance(bucket, Term) else bucket:
                if term.original == phrase and term.target == target and term.kind == kind:
                    same = _case_sensitive(phrase) if case_sensitive is None else case_sensitive
                    if term.case_sensitive == same:
                        return
        sensitive = _case_sensitive(phrase) if case_sensitive is None else case_sensitive
        if bucket is None:
            self.entries[key] = Term(kind, target, key, phrase, sensitive)
            first_word, _, _ = key.partition(" ")
            words = key.count(" ") + 1
            if self.longest.get(first_word, 0) < words:
                self.longest[first_word] = words
            return
        first = bucket if isinstance(bucket, Term) else bucket[0]
        term = Term(kind, target, first.phrase, phrase, sensitive)
        if isinstance(bucket, Term):
            self.entries[key] = [bucket, term]
        else:
            bucket.append(term)

    def compact(self) -> None:
        """Keep every term in the sorted columns a graph read back from its cache file keeps, none as an
        object (a graph built batch by batch does so between batches): a column row is a
        few references where a term object and its dictionary slot cost over a hundred bytes, and a cold
        start at 100,000 sources adds two million terms. A phrase's terms stay in the order they were
        added: a phrase added to again was first made from the columns (:meth:`add`), so its terms in
        ``entries`` are all of them. Each column is merged in turn and its old one let go at once, so
        that no more than one column is ever held twice."""
        if not self.entries:
            return
        columns: list[Any] = list(self._columns or ([], [], [], [], b""))
        self._columns = None
        plan = self._plan(columns[0])
        for i in range(len(columns)):
            columns[i] = _merge_column(plan, columns[i], i)
        keys, kinds, targets, originals, sensitive = columns
        self._columns = (keys, kinds, targets, originals, bytes(sensitive))
        self.entries = {}

    def _merged(self) -> tuple[list[str], list[str], list[Any], list[str], bytes]:
        """Every term as sorted columns: those read back (or compacted) and those added since, merged
        (new columns; the index is left as it is)."""
        columns: tuple[list[str], list[str], list[Any], list[str], bytes] = self._columns or ([], [], [], [], b"")
        if not self.entries:
            return columns
        plan = self._plan(columns[0])
        keys, kinds, targets, originals, sensitive = (_merge_column(plan, column, i) for i, column in enumerate(columns))
        return keys, kinds, targets, originals, bytes(sensitive)

    def _plan(self, old_keys: list[str]) -> list[tuple[int, int] | list[Term]]:
        """How the columns and the terms added since merge, in phrase order: runs of column rows to copy
        (start, end) between the terms of each phrase added to (whose column rows they replace)."""
        plan: list[tuple[int, int] | list[Term]] = []
        at = 0  # the first column row not yet placed
        for key in sorted(self.entries):
            first = bisect_left(old_keys, key, lo=at)
            plan.append((at, first))
            at = bisect_right(old_keys, key, lo=first)
            plan.append(list(self.terms(key)))
        plan.append((at, len(old_keys)))
        return plan

    def terms(self, key: str) -> list[Term] | tuple[Term, ...]:
        """The terms of a phrase (lower-case words joined by spaces), in the order they were added."""
        bucket = self.entries.get(key)
        if bucket is None:
            return self._made(key) if self._columns is not None else ()
        return (bucket,) if isinstance(bucket, Term) else bucket

    def _made(self, key: str) -> list[Term] | tuple[Term, ...]:
        """The terms of a phrase read back from a cache file and not looked up before, made from the
        columns and kept (a lookup made twice at once makes equal terms twice: either may stay)."""
        if self._columns is None:
            return ()
        keys, kinds, targets, originals, sensitive = self._columns
        first = bisect_left(keys, key)
        rows = range(first, bisect_right(keys, key, lo=first))
        if not rows:
            return ()
        made = [Term(kinds[i], targets[i], key, originals[i], bool(sensitive[i])) for i in rows]
        self.entries[key] = made[0] if len(made) == 1 else made  # one term is kept without a list
        return made

    def scan(self, tokens: list[Token], text: str) -> list[Match]:
        """Non-overlapping longest matches, left to right."""
        out: list[Match] = []
        i, n = 0, len(tokens)
        while i < n:
            width = min(self.longest.get(tokens[i].low, 0), n - i)
            hit: Match | None = None
            while width > 0:
                key = " ".join([t.low for t in tokens[i : i + width]])
                bucket = self.terms(key)
                if bucket:
                    written = text[tokens[i].start : tokens[i + width - 1].end]
                    terms = tuple(t for t in bucket if not t.case_sensitive or _same_case(t.original, written))
                    loose = tuple(t for t in bucket if t not in terms)
                    if terms or width == 1:
                        hit = Match(i, i + width, tokens[i].start, tokens[i + width - 1].end, written, terms, loose)
                        break
                width -= 1
            if hit is None:
                i += 1
                continue
            out.append(hit)
            i = hit.end
        return out


_TERM_COLUMNS = ("phrase", "kind", "target", "original", "case_sensitive")  # the columns' order, as Term fields


def _merge_column(plan: list[tuple[int, int] | list[Term]], old: Any, column: int) -> Any:
    """One column merged by ``plan`` (:meth:`PhraseIndex._plan`): a list, or a bytearray for case sensitivity."""
    out: Any = bytearray() if column == len(_TERM_COLUMNS) - 1 else []
    value = attrgetter(_TERM_COLUMNS[column])
    for step in plan:
        if isinstance(step, tuple):
            out.extend(old[step[0] : step[1]])
        else:
            out.extend(map(value, step))
    return out


def _same_case(alias: str, written: str) -> bool:
    return _TOKEN.findall(alias) == _TOKEN.findall(written)
