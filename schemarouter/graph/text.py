"""Text normalization shared by the graph's indexes and the understand step.

Vocabulary from declarations (aliases, field names such as ``HBondDonorCount`` or
``agl_thermal_conductivity_300K``) and words in questions must meet in one normal form: lower
case, words split on punctuation, underscores and camelCase boundaries.
"""

from __future__ import annotations

import re
from functools import lru_cache

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])")
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")
# a bytes translation table: every ASCII character but a letter or digit to a space (on ASCII text,
# what ``_NON_WORD`` separates)
_ASCII_SEPARATORS = bytes(c if c < 128 and chr(c).isalnum() else 32 for c in range(256))

# Words that carry no meaning for matching; kept small on purpose (they never become terms).
STOPWORDS = frozenset(
    ["a", "an", "the", "of", "in", "on", "at", "to", "for", "from", "by", "with", "and", "or", "is", "are", "was", "were", "be", "been", "being", "do", "does", "did", "what", "what's", "whats", "which", "who", "whom", "whose", "how", "when", "where", "why", "it", "its", "it's", "this", "that", "these", "those", "me", "my", "i", "i'd", "i'm", "you", "your", "we", "our", "us", "please", "give", "show", "get", "tell", "find", "look", "up", "pull", "fetch", "list", "need", "want", "would", "like", "can", "could", "should", "will", "about", "any", "some", "all", "as", "into", "than", "then", "there", "their", "them", "they", "has", "have", "had", "s", "d", "just", "also", "both", "per", "vs", "via", "using", "use", "according"]
)


def words(text: str) -> list[str]:
    """Lower-case words of ``text`` (letters and digits; everything else separates)."""
    return [w.lower() for w in chunks(text)]


def chunks(name: str) -> list[str]:
    """The runs of ASCII letters and digits in ``name`` (everything else separates them).

    Where the name is ASCII, as almost every declared name is, without a regex: a regex split tries
    its pattern at every character, several times the cost of a bytes translation table (and
    ``str.translate`` looks each character up in a mapping, slower still)."""
    if name.isascii():
        if name.isalnum():
            return [name]
        return [c.decode("ascii") for c in name.encode("ascii").translate(_ASCII_SEPARATORS).split()]
    return [c for c in _NON_WORD.split(name) if c]


def humanize(name: str) -> str:
    """``spacegroup_symbol`` -> ``spacegroup symbol``; ``HBondDonorCount`` -> ``h bond donor count``.

    Case boundaries never cross a separator, so a name is humanized chunk by chunk: a registry's
    hundred thousand names are made of far fewer chunks (``release``, ``date``, ``movieId``), each
    split once per process."""
    found = chunks(name)
    if len(found) == 1:
        return _humanize_chunk(found[0])
    return " ".join(h for c in found if (h := _humanize_chunk(c)))


@lru_cache(maxsize=200_000)
def _humanize_chunk(chunk: str) -> str:
    """One run of letters and digits, split on its case boundaries and lower-cased."""
    return " ".join(w.lower() for w in _CAMEL.sub(" ", chunk).split())


def normalize(phrase: str) -> str:
    """Normal form of a vocabulary phrase: lower-case words joined by single spaces."""
    # the words are ASCII letters and digits: lower-casing them joined is lower-casing each
    return " ".join(chunks(phrase)).lower()


def key_of(phrase: str) -> str:
    """A compact identifier-like key: ``band gap`` -> ``band_gap``."""
    return "_".join(words(phrase))
