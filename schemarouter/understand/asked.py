"""What a question asks for: the head of its opening phrase ("What is the *genre* of ...", "give me a
*photo* of ...", "Who is the lead *actor* of ...").

Retrieval weighs every word of a question alike, so "Who is the lead actor of today's most popular TV
show?" ranks the list of today's shows first: it says "today", "popular" and "TV". The answer is
an actor, which that list does not return. The head of the phrase the question opens with names
what the answer is; the re-ranker asks whether a candidate's own declaration returns it
(:mod:`schemarouter.router.rerank`, feature ``answers``). English question openings only: a question
written otherwise has no head and the feature says nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from schemarouter.graph.terms import question_terms

# "What is the", "Who are the", "give me a", "Show some", "tell me the", "List all", "Find the"; then up
# to three words, the last of them the head, before the word that ties it to what it is about
_OPENING = re.compile(
    r"^\W*(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?"
    r"(?:(?:what|who|which)(?:\s+(?:is|are|was|were|'s|’s))|(?:give|show|tell|find|get|list|fetch|name|provide|retrieve|display)(?:\s+(?:me|us))?)"
    r"\s+(?:(?:the|a|an|some|all|any|one|its|their)\s+)?"
    r"(?P<head>(?:[\w-]+\s+){0,2}?[\w-]+?)\s+(?:of|for|in|from|about|on|to|at|by|with)\b",
    re.IGNORECASE)


def asked_terms(text: str, kinds: Callable[[str], list[str]]) -> list[str]:
    """The terms of what ``text`` asks for: its head word's terms and the kinds the head says
    (``kinds``: the reading's kind terms of a phrase, "actor" -> cast); [] without such an opening."""
    m = _OPENING.match(text)
    if m is None:
        return []
    head = m.group("head")
    last = question_terms(head.split()[-1])
    return list(dict.fromkeys([*last, *kinds(head)]))
