"""Cues read from wording rather than vocabulary: provenance constraints (with negation),
sort order, year ranges and leftover topic text.
"""

from __future__ import annotations

import re

from schemarouter.prefilter import prefiltered

_CONSTRAINT_CUES: dict[str, tuple[str, ...]] = {
    "experimental": ("measured", "measurement", "measurements", "experimental", "experimentally", "experiment",
                     "experiments", "observed", "diffraction", "x-ray", "xrd", "neutron", "lab-measured",
                     "empirically measured", "determined experimentally"),
    "calculated": ("dft", "first-principles", "first principles", "ab initio", "ab-initio", "computed",
                   "computational", "calculated", "calculation", "calculations", "predicted", "prediction",
                   "simulated", "simulation", "theoretical", "density functional", "high-throughput"),
    "literature": ("literature", "papers", "published", "publications", "articles", "peer-reviewed papers"),
}
_NEGATION = re.compile(r"\b(?:not|no|never|rather than|instead of|without|n't|vs\.?|versus|other than)\s+(?:\w+\s+){0,2}$")
_CUE_RE = {
    kind: prefiltered(r"(?<![\w-])(?:" + "|".join(re.escape(c) for c in sorted(cues, key=len, reverse=True)) + r")(?![\w-])",
                      *cues)
    for kind, cues in _CONSTRAINT_CUES.items()
}


def constraint_kinds(text: str) -> list[str]:
    """Every provenance the wording asks for, in order of first mention (for "computed vs measured")."""
    low = text.lower()
    found: list[tuple[int, str]] = []
    for kind, pattern in _CUE_RE.items():
        if kind == "literature":
            continue
        positions = [m.start() for m in pattern.finditer(low) if not _NEGATION.search(low[: m.start()])]
        if positions:
            found.append((positions[0], kind))
    return [k for _, k in sorted(found)]


def source_constraint(text: str) -> str | None:
    """calculated | experimental | literature from wording, ignoring negated cues ("not measured")."""
    low = text.lower()
    hits: list[tuple[int, int, str]] = []  # (-count, first position, kind)
    for kind, pattern in _CUE_RE.items():
        positions = [m.start() for m in pattern.finditer(low) if not _NEGATION.search(low[: m.start()])]
        if positions:
            hits.append((-len(positions), positions[0], kind))
    if not hits:
        return None
    hits.sort()
    return hits[0][2]


_SORT_BY_CITATIONS = prefiltered(
    r"\b(?:most[- ]cited|cited\s+(?:the\s+)?most|highly[- ]cited|top[- ]cited|most\s+citations|"
    r"(?:sorted|ranked|ordered)\s+by\s+citations?|most\s+influential)\b",
    "cited", "citation", "influential", flags=re.IGNORECASE,
)


def sort_by_citations(text: str) -> bool:
    """Whether the question asks for the most cited works first."""
    return bool(_SORT_BY_CITATIONS.search(text))


def sort_spans(text: str) -> list[tuple[int, int]]:
    """Where the question asks for an order ("most cited first"): not part of its topic."""
    spans = []
    for m in _SORT_BY_CITATIONS.finditer(text):
        end = m.end()
        tail = re.match(r"\s+first\b", text[end:])
        spans.append((m.start(), end + (tail.end() if tail else 0)))
    return spans


_FROM = re.compile(r"\b(?:since|from|after|starting(?: in)?|onwards? from)\s+$", re.IGNORECASE)
_UNTIL = re.compile(r"\b(?:before|until|till|up to|through|prior to)\s+$", re.IGNORECASE)
_ONWARD = re.compile(r"^\s*(?:onwards?|and later|or later|and after|to (?:date|now|present))\b", re.IGNORECASE)


def year_range(text: str, start: int, end: int, year: str, until: str | None) -> str:
    """'2019-' (from 2019 on), '-2019' (up to 2019), '2018-2020', or the year alone."""
    if until:
        return f"{year}-{until}"
    before, after = text[max(0, start - 20) : start], text[end : end + 20]
    if _ONWARD.search(after) or (_FROM.search(before) and not re.search(r"\b(?:from)\s+$", before, re.I)):
        return f"{year}-"
    if re.search(r"\bfrom\s+$", before, re.I) and _ONWARD.search(after):
        return f"{year}-"
    if _UNTIL.search(before):
        return f"-{year}"
    return year


_REQUEST_WORDS = frozenset(
    ["find", "search", "look", "fetch", "pull", "show", "list", "give", "get", "retrieve", "return", "papers", "paper", "preprints", "preprint", "articles", "article", "works", "work", "publications", "publication", "studies", "study", "literature", "titles", "title", "journals", "journal", "abstracts", "abstract", "please", "me", "their", "them", "and", "the", "a", "an", "of", "in", "on", "for", "about", "with", "from", "to", "what", "which", "who", "how", "is", "are", "was", "were", "do", "does", "did", "i", "i'd", "like", "want", "need", "its", "it", "any", "some", "that", "this", "these", "those", "tell", "ok", "show", "web", "result", "results", "page", "pages", "recent", "latest", "new", "onward", "onwards", "since", "until", "before", "after", "between"]
)
_TOPIC_PREP = re.compile(r"\b(?:on|about|regarding|concerning|into|of)\s+(.+?)(?=[.;?!]|,\s*(?:and\s+)?(?:list|give|show|with|please|titles?)\b|\s+(?:from|since|after|before|in)\s+(?:19|20)\d{2}|\s+(?:and|then)\s+(?:show|list|give|tell)\b|$)", re.IGNORECASE)


def topic_text(text: str, drop: list[tuple[int, int]]) -> str | None:
    """What the question is about once named sources, identifiers and request words are removed."""
    kept = list(text)
    for start, end in drop:
        for i in range(start, min(end, len(kept))):
            kept[i] = " "
    residual = "".join(kept)
    last = None  # the last "on/about/of X" phrase names the topic
    for last in _TOPIC_PREP.finditer(residual):  # noqa: B007 - only the last match is wanted
        pass
    candidate = last.group(1) if last else residual
    words = [w for w in re.findall(r"[\w][\w\-+.]*", candidate) if w.lower() not in _REQUEST_WORDS]
    if len(words) < 1:
        words = [w for w in re.findall(r"[\w][\w\-+.]*", residual) if w.lower() not in _REQUEST_WORDS]
    words = [w.rstrip(".") for w in words]
    return " ".join(words)[:300] or None


_SUBJECT = re.compile(r"\b(?:of|about|on|for)\s+(?:the\s+|a\s+|an\s+)?([^?.!,;:]+?)\s*(?:[?.!,;:]|$)", re.IGNORECASE)


def subject_phrase(text: str) -> str | None:
    """The last 'of/about/on X' phrase: the thing a page-title lookup wants."""
    found = None
    for m in _SUBJECT.finditer(text):
        found = m.group(1)
    if not found:
        return None
    found = re.split(r"\s+(?:in|from|according|on|using|via|at)\s+", found)[0].strip()
    return found or None


_LITERATURE_HEAD = re.compile(
    r"\b(?:papers?|literature|articles?|publications?|preprints?|studies|works|reviews?|research)\b"
    r"(?:\s+[\w-]+){0,3}?\s+(?:on|about|regarding|concerning|into|that (?:report|study|discuss|describe)s?)\s",
    re.IGNORECASE,
)


def literature_topic_start(text: str) -> int | None:
    """Where the topic of a literature request begins ("papers on <topic>"): words after it say
    what the papers are about, not what kind of record to fetch."""
    m = _LITERATURE_HEAD.search(text)
    return m.end() if m else None
