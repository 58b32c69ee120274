"""Token counts, the one place they are made: a real BPE (cl100k_base, from the ``bpe-openai``
package, which works offline) and the paper's 4-characters-per-token estimate.

The tokenizer's tables take about a second to load, so they load on the first count and never
for a command that only shows the estimate.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

ENCODING = "cl100k_base"


@cache
def _encoder() -> Callable[[str], list[int]] | None:
    try:
        import bpe_openai  # type: ignore[import-untyped]  # ships no type information

        encode: Callable[[str], list[int]] = bpe_openai.get_encoding(ENCODING).encode
        return encode
    except Exception:  # its data missing: fall back to the estimate
        return None


def count_tokens(text: str) -> int:
    """Tokens of ``text`` with cl100k_base (characters/4 should the tokenizer fail to load)."""
    if not text:
        return 0
    encode = _encoder()
    if encode is None:
        return estimate_tokens(text)
    return len(encode(text))


def estimate_tokens(text: str) -> int:
    """The paper's estimate: one token per four characters."""
    return (len(text) + 3) // 4


def tokenizer_name() -> str:
    """Which count :func:`count_tokens` gives: cl100k_base or chars/4."""
    return ENCODING if _encoder() is not None else "chars/4"
