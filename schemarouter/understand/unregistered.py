"""Sources a question names that the registry does not hold: "Use the Spotify API", "the ChemSpider database".

A question that says which service to ask constrains the answer to it, as "according to the
Materials Project" does for a registered source (where the router declines rather than answer from
another). When the service it names is none the registry knows, planning from whatever endpoint
the words reach best ("Spotify" as a topic of some blog API) answers a question nobody asked; the
honest answer is a decline that names the missing source, so a user can register it or ask again
without the constraint.

Only a name written right before a word that makes it a service is read so (``API``, ``database``,
``knowledge base``): "the Open Research Online repository" or "the Pasteur Institute" may be records a
registered source holds, and "according to Einstein" names a person. A name whose every word is
vocabulary of the registry ("the Weather API") describes what is asked rather than naming a service.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from schemarouter.graph.terms import question_terms
from schemarouter.understand.memos import UnderstandGraphMemo

if TYPE_CHECKING:
    from schemarouter.graph import SchemaGraph

# a run of capitalized words (letters, digits, dots, ampersands inside: "Wolfram Alpha", "data.gov")
# right before a word that makes it a service
_SERVICE = re.compile(
    r"\b((?:[A-Z][\w.&'-]*)(?:\s+[A-Z][\w.&'-]*){0,3})\s+(APIs?|[Dd]atabases?|DB|[Kk]nowledge\s?[Bb]ase)\b"
)
_LEADING = frozenset(["The", "A", "An", "Use", "Ask", "Query", "Search", "Check", "Call", "From", "In", "On", "Via",
                      "Using", "With", "Please", "Can", "Could", "What", "Which", "Does", "Do", "Is", "My", "Our"])


PROSE_CHARS = 300  # of a source's description, the opening that says what the source is called


def _described(graph: SchemaGraph, name: str) -> bool:
    """Whether some source's title or the opening of its description says ``name`` (any case)."""
    memo = graph.memos.of(UnderstandGraphMemo)
    if memo.source_prose is None:
        memo.source_prose = "\n".join(f"{title} {description[:PROSE_CHARS]}".lower()
                                       for title, description in graph.source_prose())
    return re.search(rf"(?<!\w){re.escape(name.lower())}(?!\w)", memo.source_prose) is not None


def unregistered_sources(text: str, graph: SchemaGraph, known: Callable[[str], bool]) -> list[str]:
    """The services ``text`` names (a name right before "API", "database"...) that resolve to no
    registered source, in order; ``known`` tells whether a term is vocabulary of the registry."""
    out: list[str] = []
    for m in _SERVICE.finditer(text):
        words = m.group(1).split()
        while words and words[0] in _LEADING:
            words = words[1:]  # "Use the Spotify API": the verb and the article are no part of the name
        if not words:
            continue
        name = " ".join(words)
        full = f"{name} {m.group(2)}"
        if graph.resolve_source(name) or graph.resolve_source(full) or _described(graph, full):
            continue  # "the PubChem API"; "the Open Movie Database" OMDb's description calls itself
        terms = question_terms(name)
        if not terms or all(known(t) for t in terms):
            continue  # "the Weather API", "the Materials Project database": described, not a stranger
        if name not in out:
            out.append(name)
    return out
