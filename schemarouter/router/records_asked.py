"""A question that asks for records in the plural is answered by the list that finds them.

A chain whose last two steps are a search given a value of the question and then the detail of the
first record it lists (``/repositories/search/{query}`` then ``/repositories/get/{repositoryId}``), answers a
question about one record: "How many records does the Open Research Online repository have?". One
that asks for the records themselves, in the plural, "Which repositories match 'University of
Cambridge'?" or "terms matching 'muscle atrophy'", is answered by the search: its records are what
was asked, and the detail of the first is one of them, chosen by the server's order. The chain's
last step is then left out, and the search is planned as the answer (its fields, not only the
identifier the detail would have taken).

The same holds for a second step that lists something under the first record
(``/videos/{video_id}/categories`` after the videos of a category): "Show me videos from the
documentary category" asks for the videos, not for what the first of them holds, unless the question
asks what only that step declares ("... and show their locality"), or what it lists under the record
where the list's records carry no field of that name ("... and their images": the images themselves,
where the list only describes a thumbnail). What counts is the record the
search's identifier addresses, as the second step's path names it before the identifier, and the
question writing that record's name in the plural. "movies directed by Sofia Coppola" plans a
person's search and then the person's movie credits: what the question names in the plural is the
second step's own records, not the person's. The list may itself be a step on a record found before
it: "the release dates of the movies of the collection The Hobbit" is the collection's search, then
the collection, whose parts are the movies with their release dates, not the release dates of its
first movie.
"""

from __future__ import annotations

import re

from schemarouter.graph import SchemaGraph
from schemarouter.graph.links import resource_of
from schemarouter.graph.terms import name_terms, path_terms, question_terms
from schemarouter.plan import Mode, PlanStep
from schemarouter.router.rerank import score_candidates
from schemarouter.understand.base import Analysis

# words whose singular is spelled as their plural: no plural is read off their final "s"
_SAME_IN_BOTH = frozenset({"series", "species", "news", "means", "data"})
_WORD = re.compile(r"[A-Za-z]+")


def plural_terms(question: str) -> frozenset[str]:
    """The terms of the words a question writes in the plural ("repositories", "terms"), a source's
    name among them ("the specimens" of a source called specimens still names specimens)."""
    out: set[str] = set()
    for word in _WORD.findall(question):
        w = word.lower()
        if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")) and w not in _SAME_IN_BOTH:
            out.update(question_terms(w))
    return frozenset(out)


def detail_of_first(steps: list[PlanStep], graph: SchemaGraph, analysis: Analysis) -> PlanStep | None:
    """The step before the last of ``steps``, where it lists records (a search given a value of the
    question, or a step on a record found before it), the last step is a step on the first of them,
    and the question names those records in the plural and asks nothing only that step declares;
    else None."""
    if len(steps) < 2:
        return None
    search, detail = steps[-2], steps[-1]
    info = graph.endpoints.get((detail.source, detail.endpoint))
    if info is None or search.source != detail.source:
        return None
    bound = [(name, value) for name, value in detail.params.items() if isinstance(value, dict) and "from" in value]
    if len(bound) != 1 or bound[0][1].get("from") != search.id or bound[0][1].get("pick", "first") != "first":
        return None
    name = bound[0][0]
    path = info.path.split("?", 1)[0].rstrip("/")
    token = "{" + name + "}"
    if token not in path:
        return None
    given = [v for v in search.params.values() if (isinstance(v, str) and v) or isinstance(v, dict)]
    if not given:
        return None  # not a search given a value of the question, nor a record a step before found
    resource = resource_of(name, info.path)
    if not resource or resource[-1] not in plural_terms(analysis.question):
        return None
    listing = graph.endpoints.get((search.source, search.endpoint))
    if listing is None:
        return None
    at = path.index(token)
    # what it lists under the record, asked, where the list's records carry no field of that name
    # ("... and their images": the images themselves, where the list only describes a thumbnail)
    under = set(path_terms(path[at + len(token):])) & set(analysis.terms)
    if under - {t for field in listing.fields for t in name_terms(field)}:
        return None
    # "Which specimens match 'Sue', and where were they found?": a word only the detail declares
    # (its locality) is asked of each record, which the list does not carry; the words of its path
    # before the identifier name the record, which the list holds too
    naming = set(path_terms(path[:at]))
    asked = [t for t in analysis.terms if t not in naming]
    lex, numbers = graph.lexical, graph.numbers
    if set(lex.covered([numbers[info.key]], asked)) - set(lex.covered([numbers[listing.key]], asked)):
        return None
    return search


def the_list_asked(steps: list[PlanStep], graph: SchemaGraph, analysis: Analysis, mode: Mode,
                   dense: bool) -> list[PlanStep]:
    """``steps``, or where they end in a step on the first record a list finds and the question asks
    for those records (:func:`detail_of_first`), the plan that ends at the list, planned as the answer."""
    search = detail_of_first(steps, graph, analysis)
    if search is None:
        return steps
    key = (search.source, search.endpoint)
    for candidate in score_candidates(graph, analysis, [search], False, dense):
        if candidate.info.key == key and candidate.chain is not None:
            return candidate.steps(graph, analysis, mode)
    return steps
