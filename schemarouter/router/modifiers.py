"""Which noun's modifier a text parameter takes: the word a question writes before that noun.

A parameter named for a kind of a thing (``energy_type``, ``fuel_kind``) takes the word written right
before the thing ("renewable energy", "a gas-fueled car"); one named by a single noun in the singular
(``outcome``) the word written right before that noun ("assays with an active outcome"). The reading itself is
:func:`schemarouter.router.named.word_before`; this module only says which noun, so that
``param_facts`` can cue the parameter without importing the readers.
"""

from __future__ import annotations

from collections.abc import Sequence

# the last word of a parameter name that asks for a kind of the noun before it
_KIND_WORDS = frozenset(["type", "kind"])


def modified_noun(words: Sequence[str]) -> str | None:
    """The noun whose modifier a parameter named ``words`` takes (``energy_type`` -> energy,
    ``outcome`` -> outcome), or None for any other name."""
    if len(words) == 2 and words[-1] in _KIND_WORDS:
        return words[0]
    if len(words) == 1 and words[0] not in _KIND_WORDS and not words[0].endswith("s"):
        return words[0]  # a plural ("points") is a list of records, which "the dew point" names none of
    return None
