"""A currency parameter's value: the ISO 4217 code of the currency the question writes for it.

``base_currency`` and ``target_currency``, ``from``/``to`` of a converter, ``currency`` of a price:
APIs take codes ("GBP"), questions write "British pounds" or "100 euro in USD"
(:mod:`schemarouter.understand.currencies`). A parameter named for the currency converted from takes
the one written after "from" (else the first written), one named for the currency converted into the
one written after "to", "into" or "in" (else the last written), any other the first no other
parameter took.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from schemarouter.understand.base import Analysis
from schemarouter.understand.currencies import Currency, currencies

_FROM = frozenset(["base", "from", "source", "sell", "have", "original", "src"])
_INTO = frozenset(["target", "to", "quote", "buy", "want", "dest", "destination", "converted", "into"])
_AFTER_FROM = re.compile(r"\bfrom\s+(?:\S+\s+){0,2}$", re.IGNORECASE)
_AFTER_INTO = re.compile(r"\b(?:to|into|in)\s+(?:\S+\s+){0,1}$", re.IGNORECASE)


_CURRENCY_WORD = re.compile(r"\bcurrenc", re.IGNORECASE)


def takes_currency(words: Sequence[str], description: str = "") -> bool:
    """Whether a parameter takes a currency: its name words say so (``currency``, ``base_currency``,
    ``to_currency``), or it is named for one end of a conversion alone (``from``, ``to``, ``base``)
    and its description says currency or gives a currency's code as its example ("i.e: JPY")."""
    if not words:
        return False
    if words[-1] in ("currency", "currencies", "curr", "ccy"):
        return True
    return (len(words) == 1 and words[0] in _FROM | _INTO and bool(description)
            and (bool(_CURRENCY_WORD.search(description)) or any(c.written == c.code for c in currencies(description))))


def currency_value(words: Sequence[str], analysis: Analysis, taken: set[str]) -> tuple[str, str] | None:
    """(the code, the currency as written) for a currency parameter named ``words``; None where the
    question writes no currency no other parameter took."""
    question = analysis.text or analysis.question
    free = [c for c in currencies(question) if c.written not in taken and c.code not in taken]
    if not free:
        return None
    said = set(words)
    if said & _FROM and not said & _INTO:
        chosen = _after(free, question, _AFTER_FROM) or free[0]
    elif said & _INTO and not said & _FROM:
        chosen = _after(free, question, _AFTER_INTO) or free[-1]
    else:
        chosen = free[0]
    return chosen.code, chosen.written


def _after(free: list[Currency], question: str, before: re.Pattern[str]) -> Currency | None:
    """The first of ``free`` written right after the words ``before`` matches ("from 100 British pounds")."""
    return next((c for c in free if before.search(question[max(0, c.start - 30):c.start])), None)
