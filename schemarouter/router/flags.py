"""The condition a flag's description states, so a question that states it switches the flag on.

A flag is named in a few words (``good_for_kids``, ``free_entry``) and described by the condition it
tests ("Indicates whether the attraction is suitable for children", "whether entrance to the
attraction is free"). A question says the condition as often as the name: "attractions that are
suitable for children", "free to enter". The condition is the part of the description's
"whether"/"if" clause after its verb ("is", "has", "allows"...), short enough to be one predicate;
its terms, all said in the question and none after a negation ("not suitable for children"), ask
for the flag.
"""

from __future__ import annotations

import re

from schemarouter.graph.terms import prose_terms

MAX_TERMS = 3  # a longer clause is a sentence about the flag, not the predicate it tests
_CLAUSE = re.compile(r"\b(?:whether|if)\b([^.;:()]*)", re.IGNORECASE)
# the verb before the predicate; the last one in the clause ("whether the house should have ...")
_VERB = re.compile(r"\b(?:is|are|be|has|have|offers?|provides?|allows?|includes?|accepts?)\b", re.IGNORECASE)
# a word that turns a predicate round ("not suitable", "no entry fee", "without parking")
_NEGATIONS = frozenset(["not", "no", "non", "without", "never", "isn't", "aren't", "don't", "doesn't", "nor"])
_NEGATION_REACH = 2  # words before the predicate's first word a negation may stand
# a stretch of the question that denies wanting or minding what it names, to the end of its clause:
# "I'm not concerned about having a garage or in-unit laundry", "I don't care about garage space, but
# I'd really like in-unit laundry" (the laundry is asked for)
_WAIVED = re.compile(
    r"\b(?:not|n't|no|never)\s+(?:\w+\s+)?(?:concerned|care|caring|need|needing|want|require|mind|bothered|"
    r"interested|matter|fussed|fussy)\b.*?(?=,?\s+but\b|\s+however\b|[.;!?]|$)", re.IGNORECASE)


def described_condition(description: str | None) -> tuple[str, ...]:
    """The terms of the predicate a flag's description says it tests (``()`` where it states none
    within :data:`MAX_TERMS` terms): "Indicates whether the attraction is suitable for children."
    -> (suitabl, child)."""
    if not description:
        return ()
    clause = _CLAUSE.search(description)
    if clause is None:
        return ()
    verbs = list(_VERB.finditer(clause.group(1)))
    if not verbs:
        return ()
    # the predicate ends where an alternative or a second clause begins ("free, or paid")
    predicate = re.split(r",|\bor\b|\band\b", clause.group(1)[verbs[-1].end():], maxsplit=1)[0]
    terms = tuple(dict.fromkeys(prose_terms(predicate)))
    return terms if 0 < len(terms) <= MAX_TERMS else ()


def states(condition: tuple[str, ...], words: list[tuple[str, str]], question: str = "") -> bool:
    """Whether a question of ``words`` ((as written, term) in order) says every term of ``condition``,
    its first one not negated (:func:`negated`)."""
    if not condition:
        return False
    terms = [term for _w, term in words]
    return all(t in terms for t in condition) and not negated(condition, words, question)


def negated(said: tuple[str, ...], words: list[tuple[str, str]], question: str = "") -> bool:
    """Whether the first of the terms ``said`` that the question writes comes right after a negation
    ("not suitable for kids") or inside a stretch of ``question`` that waives it ("not concerned about
    having a garage"): the question does not ask for the flag."""
    terms = [term for _w, term in words]
    at = [terms.index(t) for t in said if t in terms]
    if not at:
        return False
    first = min(at)
    if any(w.lower() in _NEGATIONS for w, _t in words[max(0, first - _NEGATION_REACH):first]):
        return True
    written = re.search(rf"(?<!\w){re.escape(words[first][0])}(?!\w)", question) if question else None
    return written is not None and any(
        m.start() < written.start() < m.end() for m in _WAIVED.finditer(question))
