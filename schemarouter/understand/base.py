"""The understand step's interface: a question in, an :class:`Analysis` out.

:class:`~schemarouter.plan.Understanding` is what a plan records (intent, concepts, params,
named tools, source constraint). The router also needs a few things a plan does not keep: the
phrases that matched (for explanations), entity spans, whether the question asks for a
comparison, the topic text left once vocabulary is taken out, and a decline reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from schemarouter.memos import Memos
from schemarouter.plan import Understanding

if TYPE_CHECKING:
    from schemarouter.graph import SchemaGraph
    from schemarouter.understand.entities import Entity


@dataclass
class Analysis:
    """What an understand backend read from a question, for the router."""
    question: str
    understanding: Understanding
    text: str = ""  # the question as the backend read it (control characters out, cut to length); "" = question
    source_spans: list[tuple[int, int]] = field(default_factory=list)  # where the backend read source names
    entities: list[Entity] = field(default_factory=list)
    matched: dict[str, str] = field(default_factory=dict)  # concept or field key -> words that matched
    compare: bool = False
    decline: str | None = None
    topic: str | None = None  # free text for query parameters
    subject: str | None = None  # the thing asked about, for title-like parameters
    intent_scores: dict[str, float] = field(default_factory=dict)
    prompt_tokens: int | None = None
    backend: str = "rules"
    notes: list[str] = field(default_factory=list)  # what the reader of the plan must know (a fallback)
    # What lexical retrieval and sources nobody tuned the vocabulary for need (see understand.reading):
    names: list[Entity] = field(default_factory=list)  # proper names and quoted titles
    identifiers: list[Entity] = field(default_factory=list)  # identifier-shaped tokens (CURIEs, accessions)
    dates: list[str] = field(default_factory=list)  # ISO dates written in the question
    # for each date, the stems of the words written before it ("returning on" -> return, on)
    date_words: list[tuple[str, ...]] = field(default_factory=list)
    times: list[str] = field(default_factory=list)  # times of day written in the question, "HH:MM" (24-hour)
    time_words: list[tuple[str, ...]] = field(default_factory=list)  # as date_words, for each time
    # where the question writes its dates, months and times: none of their words is another value
    calendar_spans: list[tuple[int, int]] = field(default_factory=list)
    time_spans: list[tuple[int, int]] = field(default_factory=list)  # of those, the times'
    months: list[str] = field(default_factory=list)  # months written with their year ("March 2019" -> 2019-03)
    month_names: list[str] = field(default_factory=list)  # months named alone, as written ("in December")
    # numbers written as a span, low and high as written ("between 1000000 and 5000000")
    spans: list[tuple[str, str]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)  # noun term -> number ("second season" -> 2)
    terms: list[str] = field(default_factory=list)  # content terms once values and source names are taken out
    prefixes: list[str] = field(default_factory=list)  # of those, the terms of identifiers' prefixes (MONDO:...)
    all_terms: list[str] = field(default_factory=list)  # every content term of the question
    asked: list[str] = field(default_factory=list)  # the terms of what it asks for ("the genre of ..."; understand.asked)
    compounds: list[str] = field(default_factory=list)  # two adjacent words as one ("home page" -> homepag)
    action: str | None = None  # the verb of a request to act ("send", "order"), not to read
    compare_kinds: list[str] = field(default_factory=list)  # provenances compared ("computed vs measured")
    live: bool = False  # asks for a value as of now ("right now", "at this moment", "currently")
    own: bool = False  # speaks of the asker's own records ("my articles", "our project", "private")
    words: list[tuple[str, str]] = field(default_factory=list)  # (as written, term) of the words left
    labels: dict[str, str] = field(default_factory=dict)  # noun term -> the value written after it ("station KRDU")
    coordinates: tuple[float, float] | None = None  # (latitude, longitude) written in the question
    coordinates_written: tuple[str, ...] = ()  # ... its two numbers as the question writes them
    periods: list[str] = field(default_factory=list)  # reporting periods said ("q1", "half-year", "annual")
    codes: list[str] = field(default_factory=list)  # short all-capitals codes ("DE", "KRDU") not taken otherwise
    # what the layers above derive from the above once per question and read for every candidate
    # endpoint, each in a memo class of its own (the router's: ``router.memos.QuestionMemo``)
    memos: Memos = field(default_factory=Memos, repr=False, compare=False)

    def entity(self, kind: str) -> Entity | None:
        """The first entity of ``kind``, or None."""
        return next((e for e in self.entities if e.kind == kind), None)


class Understander(Protocol):
    """Turns a question into an :class:`Analysis` using the graph's vocabulary.

    Implement it by subclassing :class:`schemarouter.understand.pipeline.Backend`, which writes
    :meth:`understand` once for every backend: the backend's own :meth:`read`, then the reading
    every backend shares (names, identifiers, dates, terms...). Register it with the
    ``register_understanders`` hook (``docs/plugin_hooks.md``)."""

    name: str

    def understand(self, question: str, graph: SchemaGraph) -> Analysis:
        """Read ``question`` with the vocabulary of ``graph``."""
        ...
