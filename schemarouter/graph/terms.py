"""Terms: the stemmed content words that lexical retrieval compares.

A question and a declaration meet here. Declarations are split the way their authors wrote
names (``release_date``, ``HBondDonorCount``, ``/movie/{movie_id}/credits``) and questions the
way people write ("released", "credits"), then both are lower-cased, stripped of words that carry
no meaning and reduced to a Snowball (Porter 2) stem, so "released" and ``release_date`` share
the term ``releas``. PyStemmer is the maintained C implementation of the Snowball stemmers: at
tens of thousands of distinct words per registry its speed matters, and each word is stemmed
once per process.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

import Stemmer

from schemarouter.graph.text import STOPWORDS, chunks, humanize

_STEMMER = Stemmer.Stemmer("english")

# Words of API prose that say nothing about what an endpoint returns ("Get the details by id").
API_FILLER = frozenset(
    ["api", "apis", "endpoint", "endpoints", "request", "requests", "response", "responses", "return", "returns", "returned", "retrieve", "retrieves", "get", "gets", "gives", "given", "provide", "provides", "object", "objects", "json", "http", "https", "www", "com", "org", "see", "call", "calls", "method", "parameter", "parameters", "param", "params", "value", "values", "optional", "required", "default", "field", "fields", "string", "integer", "number", "boolean", "array", "null", "true", "false", "example", "e", "g", "eg", "etc", "may", "must", "one", "two", "support", "supports", "supported", "specified", "specify", "based", "also", "used", "using", "whether", "available", "include", "includes", "including", "result", "results", "item", "items", "data"]
)

# Question words that only frame a request ("I want to know", "can you tell me").
QUESTION_FILLER = frozenset(
    ["know", "let", "kindly", "say", "said", "tell", "show", "give", "find", "get", "list", "look", "see", "want", "need", "like", "would", "could", "much", "many", "one", "ones", "some", "something", "anything", "thing", "things", "there", "here", "also", "just", "really", "maybe", "most", "more", "less", "least", "very", "currently", "now", "right", "info", "information", "details", "detail", "known", "properties", "property", "characteristics", "facts"]
)


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The Snowball stem of a lower-case word."""
    stemmed: str = _STEMMER.stemWord(word)
    return stemmed


@lru_cache(maxsize=8192)  # names are many and cheap to redo from their cached chunks
def name_terms(name: str) -> tuple[str, ...]:
    """Terms of a declared name or phrase: ``cast_character`` -> (cast, charact)."""
    found = chunks(name)
    if len(found) == 1:
        return _chunk_terms(found[0])
    out: list[str] = []
    for chunk in found:
        out.extend(_chunk_terms(chunk))
    return tuple(out)


@lru_cache(maxsize=200_000)
def _chunk_terms(chunk: str) -> tuple[str, ...]:
    """Terms of one run of letters and digits (names share chunks: each is read once per process)."""
    return tuple(stem(w) for w in humanize(chunk).split() if _keep(w, API_FILLER))


@lru_cache(maxsize=100_000)
def prose_terms(text: str) -> tuple[str, ...]:
    """Terms of declared prose (a summary, a description), repeats kept for term frequency."""
    return tuple(stem(w) for w in (c.lower() for c in chunks(text[:2000])) if _keep(w, API_FILLER))


# Words of a path that say how it is served, not what it serves (``/api/v1/...``, ``/data.json``).
# Other words of API prose name a resource in a path: ``/v2/parameters``, ``/items``, ``/values``.
PATH_FILLER = frozenset(["api", "apis", "json", "xml", "http", "https", "www", "com", "org", "rest", "service", "services"])


@lru_cache(maxsize=100_000)
def literal_segments(path: str) -> tuple[str, ...]:
    """An endpoint path's segments that are no parameter (``/movie/{movie_id}/credits`` -> movie, credits)."""
    return tuple(segment for segment in path.split("?", 1)[0].split("/") if segment and not segment.startswith("{"))


@lru_cache(maxsize=100_000)
def path_terms(path: str) -> tuple[str, ...]:
    """Terms of an endpoint path's literal segments (``/movie/{movie_id}/credits`` -> movi, credit)."""
    out: list[tuple[str, ...]] = []
    for segment in literal_segments(path):
        out.extend(_path_chunk_terms(chunk) for chunk in chunks(segment))
    return tuple(t for terms in out for t in terms)


@lru_cache(maxsize=20_000)
def _path_chunk_terms(chunk: str) -> tuple[str, ...]:
    return tuple(stem(w) for w in humanize(chunk).split() if _keep(w, PATH_FILLER))


# Words that only frame a request: "help" and "assist" where they ask for help ("can you help me",
# "I need your assistance"), not where they name a thing ("the help center", "most assists"); adverbs
# that qualify the asking ("Additionally, ...", "specifically"), "if possible", the asker's state of
# mind ("I'm curious about", "interested in", "it would be great") and plans ("I'm planning a trip":
# the trip is asked about, not "planning permissions")
_FRAMING = re.compile(r"(?:(?<=\byou\s)|(?<=\bplease\s)|(?<=\byour\s)|(?<=\bneed\s)|(?<=\bsome\s))"
                           r"(?:help|assist|assistance)\b|\b(?:help|assist)(?=\s+(?:me|us)\b)"
                           r"|\b(?:additionally|specifically|particularly|preferably|ideally|basically|actually)\b"
                           r"|\bif possible\b|\b(?:interested|curious)(?=\s+(?:in|about)\b)"
                           r"|(?<=\bbe\s)(?:great|helpful|appreciated|nice)\b|\bappreciate\b"
                           r"|(?:(?<=\bi'm\s)|(?<=\bam\s)|(?<=\bare\s)|(?<=\bwe're\s))planning\b", re.IGNORECASE)
# substrings every match of :data:`_FRAMING` contains
_FRAMING_HINTS = ("help", "assist", "ally", "preferabl", "if possible", "interested", "curious", "great", "nice",
                  "appreciat", "planning")


def question_terms(text: str) -> list[str]:
    """Terms of a question in order, each once (a request's framing, "help me", "additionally", is none)."""
    seen: dict[str, None] = {}
    low = text.lower()
    if any(t in low for t in _FRAMING_HINTS):  # the regex costs tens of microseconds; most questions skip it
        text = _FRAMING.sub(" ", text)
    for w in (c.lower() for c in chunks(text)):
        if _keep(w, QUESTION_FILLER):
            seen.setdefault(stem(w), None)
    return list(seen)


# Words are runs of ASCII letters and digits (:func:`chunks`); a run of digits alone is no term, so
# a number is never one and "300K" or "h2o" are.
def _keep(word: str, filler: frozenset[str]) -> bool:
    return len(word) > 1 and word not in STOPWORDS and word not in filler and not word.isdigit()


_LETTERS = re.compile(r"[a-z]+")


def compound_terms(text: str) -> list[str]:
    """Terms of each two adjacent words of ``text`` written as one: "home page" -> homepag, "full
    text" -> fulltext, so a question matches names that write two words as one."""
    words = _LETTERS.findall(text.lower())
    return [stem(a + b) for a, b in pairwise(words)
            if len(a) > 2 and len(b) > 2 and _keep(a, QUESTION_FILLER) and _keep(b, QUESTION_FILLER)]


@lru_cache(maxsize=65_536)  # ids, titles and path segments repeat question after question
def letters(text: str) -> str:
    """``text`` in lower case without separators: "Music Tool", "music_tool" and "MusicTool" alike."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def naming_path(path: str, names: frozenset[str]) -> str:
    """``path`` without the literal segments that only spell one of ``names`` (:func:`letters` of a
    source's id and title): catalogues put each tool at a path that is its name ("/MusicTool" of the
    tool titled "Music Tool"), which says which tool it is, not what it does."""
    return "/".join(s for s in literal_segments(path) if letters(s) not in names)
