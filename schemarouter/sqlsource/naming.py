"""The names an SQL import gives what it maps: endpoint ids, field and parameter names, URL paths.

Database names may be anything a quoted identifier allows (``"Größe (K)"``, ``"select"``, ``温度``);
declaration names are ASCII slugs. A name is transliterated where it can be (``größe`` ->
``groesse``), and a name with nothing left (``温度``) becomes a numbered stand-in; the column's own
name stays in the adapter's options (and in the field's aliases), so the query still names it.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

# letters NFKD does not take apart
_SPELLED = str.maketrans({"ß": "ss", "ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue",
                          "æ": "ae", "Æ": "Ae", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "þ": "th"})
# column names too generic to name a parameter alone: ``name`` of ``samples`` is ``sample_name``
GENERIC_COLUMNS = frozenset({"id", "name", "title", "label", "code", "key", "slug", "uuid", "uid", "number",
                             "symbol", "value", "ref", "identifier"})


def ascii_words(text: str) -> str:
    """``text`` in lower-case ASCII words joined by underscores ('' when nothing is left)."""
    spelled = unicodedata.normalize("NFKD", text.translate(_SPELLED)).encode("ascii", "ignore").decode("ascii")
    spelled = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", spelled)
    return re.sub(r"[^a-z0-9]+", "_", spelled.lower()).strip("_")


def slug(text: str, fallback: str, limit: int = 64) -> str:
    """A declaration slug (``^[a-z][a-z0-9_]*$``) for ``text``; ``fallback`` when nothing of it is ASCII."""
    words = ascii_words(text) or fallback
    if not words[0].isalpha():
        words = f"{fallback.rstrip('0123456789_') or 'x'}_{words}"
    return words[:limit].rstrip("_")


def unique(base: str, taken: set[str], limit: int = 64) -> str:
    """``base`` made unique among ``taken`` with a counter (then taken)."""
    name, n = base[:limit], 2
    while name in taken:
        suffix = f"_{n}"
        name, n = base[: limit - len(suffix)] + suffix, n + 1
    taken.add(name)
    return name


def singular(word: str) -> str:
    """An English singular for a table name's last word (``samples`` -> ``sample``, ``entries`` -> ``entry``)."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


def path_segment(name: str) -> str:
    """A table name as a URL path segment: readable (non-ASCII letters kept, so routing can read them),
    with what a path segment cannot hold (space, ``/``, ``{``, ``%``...) percent-encoded."""
    return "".join(ch if (ord(ch) > 127 and not ch.isspace()) else quote(ch, safe="!$&'()*+,;=:@-._~") for ch in name)


def human(name: str) -> str:
    """A database name as words for a description (``band_gap_ev`` -> ``band gap ev``)."""
    return " ".join(re.sub(r"[_\W]+", " ", name).split()) or name
