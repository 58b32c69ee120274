"""Regular expressions that are not run on a text lacking what they cannot match without.

Reading a question runs dozens of patterns over it, and Python's engine tries most of them at every
position of the text: only a pattern that opens with a literal gets a fast scan for it. Most of
ours open with a word boundary or a look-behind instead, and most questions hold none of the words
a given pattern reads ("PMID", "between", "cited"). A :class:`Prefiltered` pattern carries the
substrings one of which every match contains, checks them with ``in`` (a fast substring search),
and runs the pattern only where one is there. What it finds is what the pattern finds; a test
checks that for every prefiltered pattern on the benchmark's questions and on generated text.

For a pattern that ignores case the substrings are lower case and are looked for in the lower-cased
text, and only an ASCII text is skipped so: case folding equates a few other characters with ASCII
letters (the Kelvin sign with "k"), which a lower-cased substring search would miss.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

DIGITS = tuple("0123456789")


class Prefiltered:
    """A compiled pattern and the substrings it needs (see the module docstring)."""

    __slots__ = ("any_case", "needs", "pattern")

    def __init__(self, pattern: re.Pattern[str], *needs: str) -> None:
        if not needs:
            raise ValueError("a prefiltered pattern needs at least one substring")
        self.pattern = pattern
        self.any_case = bool(pattern.flags & re.IGNORECASE)
        if self.any_case and any(n != n.lower() for n in needs):
            raise ValueError(f"the substrings of a pattern that ignores case are lower case: {needs}")
        self.needs = needs

    def may_match(self, text: str) -> bool:
        """False only where no match can be in ``text``."""
        if self.any_case:
            if not text.isascii():
                return True
            text = text.lower()
        return any(n in text for n in self.needs)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """The pattern's matches in ``text``, as ``re.Pattern.finditer`` gives them."""
        return self.pattern.finditer(text) if self.may_match(text) else iter(())

    def search(self, text: str) -> re.Match[str] | None:
        """The pattern's first match in ``text``, as ``re.Pattern.search`` gives it."""
        return self.pattern.search(text) if self.may_match(text) else None

    def findall(self, text: str) -> list[str]:
        """What ``re.Pattern.findall`` gives (the pattern must have at most one group)."""
        return self.pattern.findall(text) if self.may_match(text) else []


def prefiltered(pattern: str, *needs: str, flags: int = 0) -> Prefiltered:
    """``Prefiltered(re.compile(pattern, flags), *needs)``."""
    return Prefiltered(re.compile(pattern, flags), *needs)
