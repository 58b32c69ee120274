"""Who a question says made or acts in a work, or who is asking, for parameters named for them.

A parameter named for who made a work (``artist``, ``author``, ``director``, or the agent of a verb:
``directed_by``, ``written_by``) takes the name the question says made it: a name written after "by"
("a song by Kesha", "directed by Sofia Coppola") or owning the work ("Clint Eastwood's latest
movie"), which the reading marks as an agent (``understand.reading``), unless the question asks who
had that role ("Who is the director of Leonardo DiCaprio's latest movie?"). One named for who acts
in it (``cast``, ``actor``, ``starring``) takes the name the question ties to acting ("starring Jim
Carrey", "featuring Josef Sommer", "with Monica Dolan in it"). One named for the name of the person
a request is for (``person_name``, ``passenger_name``) takes the name the question introduces its
asker by ("Hi, I am Karan."). Kept apart from :mod:`schemarouter.router.values`, which asks these
readers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from schemarouter.graph.terms import stem
from schemarouter.understand.base import Analysis

# words of a parameter name for who acts in a work, and what ties a name the question writes to acting:
# a word before it ("starring", "featuring", "the actress", "with"), or after it ("as an actor", "in
# it", "in the lead", "acts")
CAST_WORDS = frozenset(["cast", "actor", "actors", "actress", "actresses", "starring"])
_ACTS_BEFORE = re.compile(r"\b(?:acted\s+by|starring|stars|starred|featuring|features|feature|showcasing|actors?|"
                         r"actress(?:es)?|with(?:\s+the\s+actor|\s+the\s+actress)?)\s+$", re.IGNORECASE)
_ACTS_AFTER = re.compile(r"^\s+(?:as\s+(?:an?\s+|the\s+)?(?:lead\s+)?act(?:or|ress)\b|in\s+(?:it|them|the\s+lead|the\s+cast)\b|"
                        r"acts\b|stars\b|starr|is\s+one\s+of\s+the\s+(?:lead\s+)?actors)", re.IGNORECASE)


def acting_name(analysis: Analysis, taken: set[str]) -> str | None:
    """The first name the question writes as someone acting in a work (see ``_ACTS_BEFORE``)."""
    text = analysis.text or analysis.question
    for n in analysis.names:
        value = str(n.value)
        if value in taken:
            continue
        if _ACTS_BEFORE.search(text[max(0, n.start - 30):n.start]) or _ACTS_AFTER.match(text[n.end:]):
            return value
    return None


# words of a parameter name for who made a work: an agent name the question writes ("by Kesha") is theirs
MAKER_WORDS = frozenset(["artist", "author", "director", "creator", "composer", "singer", "band", "performer",
                         "writer", "maker", "painter", "photographer", "producer", "musician"])


# participles before "by" that arrange records rather than name who made them (sorted_by, grouped_by)
_ARRANGED = frozenset(["sorted", "ordered", "grouped", "filtered", "searched", "ranked", "indexed", "keyed",
                       "partitioned", "paginated", "divided", "multiplied", "scaled"])
# participles that do not end in -ed or -en ("made by", "sung by", "built by")
_IRREGULAR = frozenset(["made", "sung", "built", "shot", "told", "drawn", "led", "run", "held", "sold", "bought",
                        "brought", "taught", "caught", "found", "sent", "spent", "won", "read"])


def for_maker(words: Sequence[str]) -> bool:
    """Whether a parameter whose name has ``words`` is named for who made or did something: a maker's
    noun (artist, director), or a participle before "by" (directed_by, writtenBy, created_by: APIs
    name the slot for the agent of a verb so); not one that arranges records (sorted_by)."""
    if MAKER_WORDS.intersection(words):
        return True
    if len(words) < 2 or words[-1] != "by":
        return False
    verb = words[-2]
    return verb not in _ARRANGED and (verb.endswith(("ed", "en")) or verb in _IRREGULAR)


def maker_name(analysis: Analysis, taken: set[str], words: Sequence[str] = ()) -> str | None:
    """The first name the question says made a work (an agent of the reading) no parameter took, for
    a parameter named with ``words``; None where the question asks who had that role ("Who is the
    director of Leonardo DiCaprio's latest movie?": his name is no director's)."""
    roles = [stem(w) for w in words if len(w) > 3]
    if any(asked.startswith(role) for asked in analysis.asked for role in roles):
        return None
    return next((str(n.value) for n in analysis.names if n.extra.get("agent") and str(n.value) not in taken), None)


# what a name written after "by" can be: who made, wrote, directed or published something
AGENT_TERMS = tuple(stem(w) for w in ("person", "people", "author", "creator", "artist", "company",
                                      "organization", "organisation", "institution", "publisher"))


# words of a parameter name for the person a request is for (``person_name``, ``passenger_name``)
PERSON_WORDS = frozenset(["person", "passenger", "customer", "guest", "patient", "client", "traveler", "traveller",
                          "user", "applicant", "member"])
# how a question introduces its asker: "I am Karan", "I'm Karan", "my name is Karan", "this is Karan"
_ASKER = re.compile(r"\b(?:i\s+am|i'm|i’m|my\s+name\s+is|this\s+is|name's)\s+$", re.IGNORECASE)


def asker_for(words: tuple[str, ...], analysis: Analysis, taken: set[str]) -> str | None:
    """For a parameter named for the name of the person a request is for (``person_name``, words
    ``words``), the name the question introduces its asker by ("Hi, I am Karan."); None else."""
    if "name" not in words or not PERSON_WORDS.intersection(words):
        return None
    text = analysis.text or analysis.question
    return next((str(n.value) for n in analysis.names
                 if str(n.value) not in taken and _ASKER.search(text[max(0, n.start - 20):n.start])), None)
