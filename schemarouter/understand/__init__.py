"""The understand step: a question -> intent, concepts, parameter values, named sources and a
provenance constraint. Two interchangeable backends: rules (default, offline) and an LLM."""

from __future__ import annotations

from schemarouter.understand.base import Analysis, Understander


def make_understander(name: str = "rules", *, fallback: bool = False, **options: object) -> Understander:
    """``rules`` or ``llm`` (OpenAI-compatible endpoint from options or SCHEMAROUTER_LLM_* variables)."""
    if name == "rules":
        from schemarouter.understand.rules import RulesUnderstander

        return RulesUnderstander()
    if name == "llm":
        from schemarouter.understand.llm import LLMUnderstander

        return LLMUnderstander(fallback=fallback, **options)  # type: ignore[arg-type]
    raise ValueError(f"unknown understander {name!r}; choose rules or llm")


__all__ = ["Analysis", "Understander", "make_understander"]
