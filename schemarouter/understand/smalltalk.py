"""Text that only greets, thanks or takes leave: no question, so nothing to look up.

Agents pass a user's every turn on, and "hello" or "How are you today?" shares a word with some
declaration in any large registry ("today" with a facts-of-the-day endpoint, "hello" with a
parameter named ``clean_hello``). Planning such a turn calls a source for nothing; declining it
says why. Only text made of nothing else is small talk: "Hi, what is the band gap of GaN?" is a
question with a greeting in front.
"""

from __future__ import annotations

import re

# one pleasantry, written alone between punctuation marks ("Hi there!", "how are you doing today")
_PLEASANTRY = re.compile(
    r"(?:hello|hi|hey|hiya|howdy|greetings|good\s+(?:morning|afternoon|evening|day)"
    r"|how\s+are\s+(?:you|u)(?:\s+doing)?|how\s+is\s+it\s+going|how's\s+it\s+going|what'?s\s+up"
    r"|thanks|thank\s+you|thx|cheers|bye|goodbye|good\s*bye|see\s+you(?:\s+later|\s+soon)?|nice\s+to\s+meet\s+you)"
    r"(?:\s+(?:there|again|all|everyone|friend|so\s+much|very\s+much|a\s+lot|today|now))*",
    re.IGNORECASE)
_PIECES = re.compile(r"[^\W_](?:[^.,;:!?¡¿…]*[^\s.,;:!?¡¿…])?")


def small_talk(text: str) -> bool:
    """Whether ``text`` is only greetings, thanks or farewells (each piece between punctuation
    marks one of them)."""
    pieces = _PIECES.findall(text)
    return bool(pieces) and all(_PLEASANTRY.fullmatch(p.strip()) for p in pieces)
