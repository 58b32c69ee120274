"""Token counts for routing prompts: a real BPE (cl100k_base via bpe-openai) when installed,
else the 4-characters-per-token estimate the paper uses."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache


@cache
def _encoder() -> Callable[[str], list[int]] | None:
    try:
        import bpe_openai  # type: ignore[import-untyped]  # ships no type information

        encode: Callable[[str], list[int]] = bpe_openai.get_encoding("cl100k_base").encode
        return encode
    except Exception:  # not installed, or its data missing: fall back to the estimate
        return None


def count_tokens(text: str) -> int:
    """Tokens of ``text`` with cl100k_base, or characters/4 when the tokenizer is missing."""
    encode = _encoder()
    if encode is None:
        return (len(text) + 3) // 4
    return len(encode(text))


def tokenizer_name() -> str:
    """Which count :func:`count_tokens` gives: cl100k_base or chars/4."""
    return "cl100k_base" if _encoder() is not None else "chars/4"
