"""A parameter name's words, as the value reading compares them with a question's.

Names are split on case and separators (``gene_symbol``, ``geneSymbol``), and a name written as one
word is split too where it ends in a date or in a kind of value: "startdate" is a bound and a date,
"genesymbol" a gene and its symbol, "hpotermname" a term of HPO and its name. Without the split such
a name matches no word a question writes ("the gene SCN1A" for ``genesymbol``).
"""

from __future__ import annotations

from functools import lru_cache

from schemarouter.graph.text import humanize
from schemarouter.router.numbers import END, START


def name_words(name: str) -> list[str]:
    """A parameter name's words (remembered: the same names recur across endpoints and questions), a
    name written as one word split where it ends in a date or a kind ("startdate", "genesymbol": :func:`_compound`)."""
    return list(_name_words(name))


@lru_cache(maxsize=65_536)
def _name_words(name: str) -> tuple[str, ...]:
    return tuple(part for word in humanize(name).split() for part in _compound(word))


# what a date's or a time's name written as one word may begin with: a bound, or what it dates
_DATE_HEADS = START | END | frozenset(["birth", "release", "due", "expiry", "expiration", "publish", "published",
                                      "created", "modified", "updated", "effective", "last", "first", "next"])
_DATE_TAILS = ("datetime", "date", "time")


@lru_cache(maxsize=4096)
def _compound(word: str) -> tuple[str, ...]:
    """``word`` as the bound and the date it names where it is one written as one word ("startdate",
    "enddatetime", "birthdate"; "update" and "mandate" name no date), or as what it names and the kind
    of it ("genesymbol", "hpotermname", "phonenumber"); else ``word`` alone."""
    for tail in _DATE_TAILS:
        head = word[: -len(tail)]
        if word.endswith(tail) and head in _DATE_HEADS:
            return head, tail
    for tail in ("symbol", "name", "number"):
        head = word[: -len(tail)]
        if word.endswith(tail) and len(head) >= 3:
            return (*_compound(head), tail)
    return (word,)


# Last words of a parameter's name that say it takes no name a question writes, even as a last resort:
# a count or an amount (a number: "number='California'") and a setting of the response (a format, a
# page, a reporting period: "format='Electronics'", "offset='California'", "period='Google'"), and a symbol (a ticker, an element's, a space
# group's: written as a code, "AAPL", "Fe", "Fm-3m", never a word: "symbol='Berlin'", "ticker='Apple'").
# Not a unit: "from_unit" of a conversion takes the unit the question writes ("miles")
COUNTED = frozenset(["number", "num", "amount", "count", "quantity", "qty", "total"])
SETTINGS = frozenset(["format", "offset", "limit", "page", "callback", "version", "period"])
SYMBOLS = frozenset(["symbol", "symbols", "ticker", "tickers"])


def names_a_setting(name: str) -> bool:
    """Whether a parameter named ``name`` is named for a setting of the response (:data:`SETTINGS`)."""
    return _name_words(name)[-1:] in tuple((w,) for w in SETTINGS)


def takes_no_name(name: str) -> bool:
    """Whether a parameter named ``name`` is named for a count, a setting of the response or a symbol
    (:data:`COUNTED`, :data:`SETTINGS`, :data:`SYMBOLS`): no person, place or title the question names is
    its value."""
    last = _name_words(name)[-1:]
    return names_a_setting(name) or (bool(last) and (last[0] in COUNTED or last[0] in SYMBOLS))
