"""Which of a parameter's declared members, or of the codes its description explains, a question says.

An ``enum`` lists what a parameter takes; a description sometimes explains its codes in prose instead
("'1' for Bangkok, '2' for Chiang Mai"). Either way the question says a member by its terms, its
label, a calendar unit it implies or the member written as it is (a short code only as written, "de";
a short word in any case, "pop" for Pop; a number as written, "2018"), and of two members it says,
one within the other ("like new": Like New, New), the longer; this module reads which. Split from
:mod:`schemarouter.router.values`, which decides per parameter whether such a reading applies.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from schemarouter.graph.terms import name_terms
from schemarouter.models import Parameter
from schemarouter.router.enum_kinds import counted_unit
from schemarouter.router.question_facts import said_sets, units_said
from schemarouter.understand.base import Analysis


def written_member(member: Any, analysis: Analysis) -> str:
    """The question's word that writes an enum member ("BRCA", "NanoReg2"), or ""."""
    return next((w for w, _ in analysis.words if isinstance(member, str) and w.lower() == member.lower()), "")


def _initial_before_name(letter: str, name: str, question: str) -> bool:
    """Whether the question writes a word beginning with ``letter`` right before the parameter's name
    ("imperial units" for ``units``): a one-letter code is often the initial of what it means."""
    words = name_terms(name)
    if len(words) != 1:
        return False
    return re.search(rf"\b[{letter.lower()}{letter.upper()}][a-z]{{2,}}\s+{re.escape(name.lower())}\b",
                     question, re.IGNORECASE) is not None


def enum_members(p: Parameter, analysis: Analysis) -> list[Any]:
    """The enum members the question names (by their terms, or a calendar unit it implies: "today"
    for ``day``)."""
    question = said_sets(analysis)
    terms, written, lowered = question.terms, question.written, question.lowered
    units = units_said(analysis.question)
    hits = []
    labels = p.enum_labels or {}
    for member in p.enum or []:
        label = labels.get(str(member))
        if label is not None:
            # a code said by what it means ("datasets" for item_type 3, "Dataset")
            said = name_terms(label)
            if said and all(w in terms for w in said):
                hits.append(member)
                continue
        if not isinstance(member, str) or not member.strip():
            continue
        if member.lower() in units:
            hits.append(member)
            continue
        if member.lower() in lowered and not member.isalpha():
            hits.append(member)  # "NanoReg2" for nanoreg2: a word of letters and digits, as written
            continue
        if member.isdigit():
            # a number the enum spells as text ("2018" among release years): as the question writes it
            # (a sentence may end right after it: "released in 2012."); a count of days, as the
            # calendar unit the question implies ("today" for 1 of "1 | 7 | 30" days)
            if re.search(rf"(?<![\d.]){member}(?!\d|\.\d)", analysis.question) or counted_unit(p, member) in units:
                hits.append(member)
            continue
        if len(member) == 1 and member.isalpha() and _initial_before_name(member, p.name, analysis.question):
            hits.append(member)  # "in imperial units" for units "I" of "S | I": the word's initial
            continue
        if len(member) <= 3 and not (member.istitle() and member.isalpha() and len(member) > 1):
            # a short code ("de", "I") only as written, never as a word that happens to match it;
            # a lower-case code also as its capitals ("TV" for tv). A short word spelled as one
            # ("Pop", "Rap") is matched as words are.
            if member in written or (member.islower() and member.upper() in written):
                hits.append(member)
            continue
        words = name_terms(member)  # remembered per distinct member
        if words and all(w in terms for w in words):
            hits.append(member)
        elif " " in member.strip() and written_phrase(member, analysis.question):
            # "physical characteristics" as the question writes it, though "characteristics" alone
            # only frames a question
            hits.append(member)
    if len(hits) > 1:
        # a member said within a longer one the question says is that one ("like new": Like New, not New)
        texts = [h.lower() for h in hits if isinstance(h, str)]
        hits = [h for h in hits if not (isinstance(h, str) and any(
            t != h.lower() and re.search(rf"(?<!\w){re.escape(h.lower())}(?!\w)", t) for t in texts))]
    if len(hits) > 1:
        # the words that name the asked source say least: eNanoMapper's database parameter offers
        # "enanomapper" (its main database) beside the "nanoreg2" the question asks for
        named = {t for s in analysis.understanding.named_tools for t in name_terms(s)}
        hits = [h for h in hits if not (isinstance(h, str) and set(name_terms(h)) <= named)] or hits
    if len(hits) > 1 and p.type != "array":
        # (a list takes every member the question says) "compounded monthly" beside "an annual interest rate": the member written as it is spelled is
        # the one meant, over one whose stem another word shares
        spelled = [h for h in hits if isinstance(h, str) and written_phrase(h, analysis.question)]
        hits = spelled if len(spelled) == 1 else hits
    return hits


def written_phrase(phrase: str, question: str) -> bool:
    """Whether ``question`` writes ``phrase`` as whole words, in any case."""
    return re.search(rf"(?<!\w){re.escape(phrase.strip())}(?!\w)", question, re.IGNORECASE) is not None


def written_label(label: str, question: str) -> bool:
    """Whether ``question`` writes ``label`` as whole words, in any case, its words joined by spaces or
    hyphens and each in the singular or the plural ("energetic-electron flux" for "Energetic
    electrons")."""
    words = [w[:-1] if len(w) > 3 and w.lower().endswith("s") else w for w in label.split()]
    if not words:
        return False
    pattern = r"[\s-]+".join(re.escape(w) + "s?" for w in words)
    return re.search(rf"(?<!\w){pattern}(?!\w)", question, re.IGNORECASE) is not None


def legend_code(legend: Sequence[tuple[str, str]], enum: list[Any] | None, analysis: Analysis, taken: set[str],
                typed: Callable[[str], Any]) -> tuple[Any, str, str] | None:
    """(the value as the parameter takes it, the label as written, the code) of the code a description
    explains whose label the question writes ("in Chonburi Province" for "'3' for Chonburi"), the
    longest label first ("big cleaning" before "cleaning"); None where the question writes none."""
    for label, code in sorted(legend, key=lambda lc: -len(lc[0])):
        if code not in taken and written_label(label, analysis.question):
            value = typed(code)
            if not enum or value in enum or code in map(str, enum):
                return value, label, code
    return None


def listed_member(p: Parameter, examples: tuple[str, ...],
                  analysis: Analysis) -> tuple[Any, str | tuple[str, ...], str] | None:
    """(value, the question's words it spends, why) for a parameter whose description lists
    ``examples`` (:func:`~schemarouter.router.described_values.listed_values`), read as the members of
    an enum: the one said, as the description writes it ("patent lawsuits" -> Patent of "e.g., 'IPR',
    'Patent', 'Commercial'"), or for a list every one said ("temperature and humidity" for metrics
    "such as 'temperature', 'humidity', 'pressure'"); None where the question says none (or, for a
    single value, several)."""
    spoken = enum_members(p.model_copy(update={"enum": list(examples)}), analysis)
    if p.type == "array" and spoken:
        tokens = tuple(written_member(h, analysis) for h in spoken)
        return list(spoken), tokens, f"{', '.join(map(str, spoken))} said in the question, values its description lists"
    if len(spoken) == 1:
        hit = spoken[0]
        return hit, written_member(hit, analysis), f"'{hit}' is said in the question, a value its description lists"
    return None
