"""Values a parameter's description spells out: the codes it explains and the examples it lists.

"'1' for Bangkok, '2' for Chiang Mai" makes a description a legend of codes (``province_id`` 3 for
"in Chonburi Province"); "e.g., 'IPR', 'Patent', 'Commercial', etc." an open list of the values a
free-form text takes. Both are read from prose once per description, no question involved; split
from :mod:`schemarouter.router.param_facts`, which gathers every fact of a parameter.
"""

from __future__ import annotations

import re
from functools import lru_cache

# a code a description explains: "'1' for Bangkok", "'2' corresponds to Chiang Mai", "3 = Chonburi"
_LEGEND = re.compile(r"""['"]?\b([A-Za-z0-9]{1,6})\b['"]?\s+(?:for|=|corresponds\s+to|means|stands\s+for|to)\s+"""
                     r"""['"]?([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})""")
# ... or a number explaining a lower-case label: "'1' for cleaning", "2 represents ironing"
_NUMBER_LEGEND = re.compile(r"""['"]?\b(\d{1,4})\b['"]?\s+(?:for|represents|means|is)\s+([a-z][a-z'-]*(?:\s+[a-z][a-z'-]*)?)"""
                            r"""(?=\s*(?:[,.;)]|\band\b|\bor\b|$))""")


# ... or a code in brackets after what it stands for: "km (KM) or Earth Radii (RE)", "- Energetic
# electrons (AE9)": the label is the words before the bracket, back to the list's punctuation
_BRACKETED = re.compile(r"([A-Za-z][A-Za-z0-9 '-]{0,40}?)\s*\(([A-Z][A-Z0-9]{1,7})\)")
_LABEL_OPENER = re.compile(r"^(?:(?:or|and|for|the|a|an|to|use)\s+)+", re.IGNORECASE)


@lru_cache(maxsize=16_384)
def legend(description: str) -> tuple[tuple[str, str], ...]:
    """(label, code) for each code a description explains in a list of two or more ("For example, '1'
    for Bangkok, '2' for Chiang Mai, and '3' for Chonburi"; "km (KM) or Earth Radii (RE)"); () where
    it explains none."""
    found = tuple((m.group(2), m.group(1)) for m in _LEGEND.finditer(description))
    if len({code for _label, code in found}) < 2:
        found = tuple((m.group(2), m.group(1)) for m in _NUMBER_LEGEND.finditer(description))
    if len({code for _label, code in found}) < 2:
        found = _bracketed(description)
    return found if len({code for _label, code in found}) >= 2 else ()


def _bracketed(description: str) -> tuple[tuple[str, str], ...]:
    """(label, code) for each code written in brackets after the words it stands for, the words taken
    back to the punctuation or the "or" before them, without an opening "for" or "the"."""
    out = []
    for m in _BRACKETED.finditer(re.sub(r"<[^>]+>", " ; ", description)):
        label = _LABEL_OPENER.sub("", m.group(1).split(" or ")[-1].split(" and ")[-1].strip(" -'"))
        if label and len(label.split()) <= 4:
            out.append((label, m.group(2)))
    return tuple(out)


# where a description starts listing examples of the values a parameter takes ("Mode of analysis, e.g.
# 'static' or 'dynamic'", "a dietary preference like vegan, vegetarian, gluten-free etc.") ...
_LISTING = re.compile(r"\b(?:e\.g\.|eg\.|i\.e\.|such as|like|for example|for instance)\s*[:,]?\s*", re.IGNORECASE)
# ... and where the list ends: "etc", a sentence's end, a bracket or a semicolon
_LIST_END = re.compile(r"\betc\b|\.(?:\s|$)|[);]")
_LIST_SEPARATOR = re.compile(r"\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+")
_LISTED = re.compile(r"[A-Za-z][A-Za-z\-]*(?: [A-Za-z][A-Za-z\-]*){0,2}")


@lru_cache(maxsize=16_384)
def listed_values(description: str) -> tuple[str, ...]:
    """The values a description lists as examples, two or more of them, as it writes them: "Type of
    the lawsuit, e.g., 'IPR', 'Patent', 'Commercial', etc." -> (IPR, Patent, Commercial); () where it
    lists fewer (one example shows a shape, not a choice)."""
    for m in _LISTING.finditer(description):
        rest = description[m.end():]
        end = _LIST_END.search(rest)
        listed = _LIST_SEPARATOR.split(rest[:end.start() if end else len(rest)].strip(" ,"))
        items = [i.strip(" '\"`") for i in listed]
        if len(items) >= 2 and all(_LISTED.fullmatch(i) for i in items):
            return tuple(dict.fromkeys(items))
    return ()
