"""Which writing system a question is written in, where it is not the Latin alphabet.

A question in Korean, Chinese or Thai shares no word with declarations written in English, so a
decline should say that, and not only that nothing matched. The script is read from the Unicode
names of the question's letters: no language model, no download.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

# Unicode name prefixes (the script's first word) spelled the way a reader knows them
_NAMES = {"CJK": "CJK characters", "HIRAGANA": "Japanese kana", "KATAKANA": "Japanese kana"}


@lru_cache(maxsize=256)
def foreign_script(text: str) -> str | None:
    """The script most of ``text``'s letters are written in ("Hangul", "Thai", "Cyrillic", "CJK
    characters"...), where that is not Latin and it holds at least half the letters; else None."""
    counts: dict[str, int] = {}
    for ch in text:
        if ch.isalpha():
            name = unicodedata.name(ch, "")
            script = name.split(" ", 1)[0] if name else ""
            counts[script] = counts.get(script, 0) + 1
    if not counts:
        return None
    script, letters = max(counts.items(), key=lambda kv: kv[1])
    if script in ("LATIN", "") or 2 * letters < sum(counts.values()):
        return None
    return _NAMES.get(script, script.title())
