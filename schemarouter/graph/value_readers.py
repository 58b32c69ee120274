"""Readers of the values concepts declare a written form for (identifiers: ``10.1038/...``, ``mp-149``).

A concept's ``patterns`` (:class:`~schemarouter.models.ValuePattern`) say how its values are written;
the vocabulary declares the general ones (a DOI, a PMID, an arXiv id) and each source plugin those of
its own records (``mp-149``, ``JVASP-1002``). They are compiled once per graph, so reading a question
needs no list of identifier kinds in code: the kinds are the concepts that declare a pattern.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from schemarouter.declarations import Declarations
from schemarouter.models import DomainConcept, Source
from schemarouter.prefilter import Prefiltered


@dataclass(frozen=True)
class ValueReader:
    """One declared pattern of one concept, compiled."""

    concept: str
    pattern: Prefiltered | re.Pattern[str]
    integer: bool  # every parameter taking the concept is an integer: the value is read as one

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """The pattern's matches in ``text``."""
        return self.pattern.finditer(text)

    def value_group(self, match: re.Match[str]) -> int | str:
        """The group holding the value: ``value`` if named, else 1 if any, else the whole match (0)."""
        if "value" in match.re.groupindex:
            return "value"
        return 1 if match.re.groups else 0


def build_value_readers(decls: Declarations) -> tuple[ValueReader, ...]:
    """Every concept's declared patterns, compiled, in the order the registry keeps the concepts."""
    integer: dict[str, bool] = {}
    for source in decls.sources.values():
        note_integer_concepts(source, integer)
    return value_readers_of(decls.concepts.values(), integer)


def note_integer_concepts(source: Source, integer: dict[str, bool]) -> None:
    """Note in ``integer`` whether every parameter of ``source`` carrying a concept takes an integer
    (a concept some parameter takes as another type is not one)."""
    for endpoint in source.endpoints:
        for p in endpoint.parameters:
            if p.concept:
                integer[p.concept] = integer.get(p.concept, True) and p.type == "integer"


def value_readers_of(concepts: Iterable[DomainConcept], integer: Mapping[str, bool]) -> tuple[ValueReader, ...]:
    """The declared patterns of ``concepts`` (in order), compiled, with whether the parameters carrying each
    concept are integers (``integer``, from :func:`note_integer_concepts`)."""
    readers: list[ValueReader] = []
    for concept in concepts:
        for declared in concept.patterns:
            compiled = re.compile(declared.regex)
            pattern = Prefiltered(compiled, *declared.needs) if declared.needs else compiled
            readers.append(ValueReader(concept.name, pattern, integer.get(concept.name, False)))
    return tuple(readers)
