"""Currencies as questions write them: "20000 Japanese Yen", "100 euro", "from British pounds to USD".

APIs take a currency as its ISO 4217 code ("JPY", "GBP"); people write its name, often with the
country's adjective, or the code. The names in everyday use are not ISO's ("Pound Sterling", "Yen",
"Yuan Renminbi"), so the spoken forms of the most traded currencies are listed here, each with its
code; codes are read only for those same currencies, none of which is a word or an acronym of
another kind ("PHP", "TRY", "ALL" are left out). Words that are also common words ("pound", "won",
"real", "rand") count only in an unmistakable phrase ("British pounds", "pounds sterling").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# spoken forms (a regular expression each, plural allowed) -> ISO 4217 code
_SPOKEN: tuple[tuple[str, str], ...] = (
    (r"(?:us|u\.s\.|united\s+states|american)\s+dollars?|dollars?", "USD"),
    (r"canadian\s+dollars?", "CAD"), (r"australian\s+dollars?", "AUD"), (r"new\s+zealand\s+dollars?", "NZD"),
    (r"hong\s+kong\s+dollars?", "HKD"), (r"singapore\s+dollars?", "SGD"), (r"taiwan(?:ese)?\s+dollars?", "TWD"),
    (r"euros?", "EUR"), (r"british\s+pounds?|pounds?\s+sterling|sterling", "GBP"),
    (r"(?:japanese\s+)?yen", "JPY"), (r"(?:chinese\s+)?(?:yuan|renminbi)", "CNY"), (r"(?:indian\s+)?rupees?", "INR"),
    (r"swiss\s+francs?", "CHF"), (r"mexican\s+pesos?", "MXN"), (r"(?:south\s+)?korean\s+won", "KRW"),
    (r"brazilian\s+reals?|reais", "BRL"), (r"(?:russian\s+)?(?:rubles?|roubles?)", "RUB"),
    (r"(?:south\s+african\s+)?rand", "ZAR"), (r"(?:thai\s+)?baht", "THB"), (r"swedish\s+kron(?:a|or)", "SEK"),
    (r"norwegian\s+kron(?:e|er)", "NOK"), (r"danish\s+kron(?:e|er)", "DKK"), (r"(?:polish\s+)?zloty", "PLN"),
    (r"(?:israeli\s+)?(?:new\s+)?shekels?", "ILS"), (r"(?:uae\s+|emirati\s+)?dirhams?", "AED"),
    (r"(?:indonesian\s+)?rupiah", "IDR"), (r"(?:malaysian\s+)?ringgit", "MYR"), (r"hungarian\s+forints?|forints?", "HUF"),
    (r"czech\s+korun(?:a|y)", "CZK"), (r"vietnamese\s+dong", "VND"),
)
CODES = frozenset(code for _pattern, code in _SPOKEN)
# longer forms first, so "Canadian dollars" is CAD before "dollars" is USD ("rand" only where the
# spoken form above asks for it: as written it is a word of its own)
_WRITTEN = re.compile(
    r"(?<![\w.])(?:(?P<code>" + "|".join(sorted(CODES)) + r")\b|(?P<spoken>"
    + "|".join(p for p, _c in sorted(_SPOKEN, key=lambda pc: -len(pc[0]))) + r"))(?!\w)",
    re.IGNORECASE)


@dataclass(frozen=True)
class Currency:
    """A currency the question writes: its ISO 4217 code, as written, and where."""

    code: str
    written: str
    start: int


@lru_cache(maxsize=256)
def currencies(question: str) -> tuple[Currency, ...]:
    """Every currency ``question`` writes, in order."""
    out = []
    for m in _WRITTEN.finditer(question):
        if m.group("code") is not None:
            if not m.group("code").isupper():
                continue  # "usd" in lower case is a word of something else as often as a code
            out.append(Currency(m.group("code"), m.group("code"), m.start()))
            continue
        written = m.group("spoken")
        if written.lower() == "rand":
            continue  # a word as often as the currency; "South African rand" is read above
        code = next(c for p, c in _SPOKEN if re.fullmatch(p, written, re.IGNORECASE))
        out.append(Currency(code, written, m.start()))
    return tuple(out)


_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_NUMBER_BEFORE = re.compile(rf"(?<![\w.,])({_NUMBER})\s*$")
_SIGNED = re.compile(rf"[$€£¥]\s?({_NUMBER})(?![\d.,]*\d)")


@lru_cache(maxsize=256)
def money_amounts(question: str) -> tuple[str, ...]:
    """The amounts of money ``question`` writes, in order, as written without thousands separators:
    a number right before a currency ("1000 USD", "20,000 Japanese yen") or after a currency sign
    ("$200,000")."""
    found: list[tuple[int, str]] = []
    for c in currencies(question):
        m = _NUMBER_BEFORE.search(question[max(0, c.start - 24):c.start])
        if m is not None:
            found.append((c.start, m.group(1)))
    found += [(m.start(), m.group(1)) for m in _SIGNED.finditer(question)]
    return tuple(dict.fromkeys(text.replace(",", "") for _start, text in sorted(found)))
