"""Token counts for routing prompts: a real BPE (cl100k_base via bpe-openai) when installed,
else the 4-characters-per-token estimate the paper uses."""

from __future__ import annotations

from functools import cache
from typing import Callable


@cache
def _encoder() -> Callable[[str], list[int]] | None:
    try:
        import bpe_openai

        return bpe_openai.get_encoding("cl100k_base").encode
    except Exception:  # not installed, or its data missing: fall back to the estimate
        return None


def count_tokens(text: str) -> int:
    encode = _encoder()
    if encode is None:
        return (len(text) + 3) // 4
    return len(encode(text))


def tokenizer_name() -> str:
    return "cl100k_base" if _encoder() is not None else "chars/4"
