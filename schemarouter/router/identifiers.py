"""Which identifier of the question a resource-id parameter takes, and how firmly.

A question writes identifiers ("gene HGNC:1100", "video 76979871", "CHEMBL25") and an endpoint asks
for one by a parameter named for its resource (``gene_id``, ``/videos/{video_id}``, a filter
``moleculeChemblId`` of ``/molecules``). The identifier the words before it (or its own prefix) tie
to the parameter's resource is taken firmly; one the endpoint's collection supplies the rest of, less
firmly; any other only by its shape, and never one those words tie to another resource of the path.
Kept apart from :mod:`schemarouter.router.values`, which asks it.
"""

from __future__ import annotations

from schemarouter.graph.links import resource_of
from schemarouter.graph.terms import literal_segments, name_terms, stem
from schemarouter.models import Parameter
from schemarouter.router.name_words import name_words
from schemarouter.router.param_facts import in_path
from schemarouter.router.question_facts import identifiers
from schemarouter.understand.base import Analysis
from schemarouter.understand.entities import Entity
from schemarouter.understand.reading import id_prefix


def identifier_for(p: Parameter, analysis: Analysis, path: str, taken: set[str]) -> tuple[Entity, float] | None:
    """An identifier-shaped token for a resource-id parameter and how firmly the question ties it to
    the parameter (see ``Got``); a DOI for a DOI parameter."""
    words = name_words(p.name)
    if "doi" in words or (p.format or "").lower() == "doi":
        doi = analysis.entity("doi")
        return (doi, 1.0) if doi is not None and str(doi.value) not in taken else None
    every = identifiers(analysis)
    if not every and not analysis.labels:
        return None  # no identifier, and no number written after a noun
    free = [e for e in every if str(e.value) not in taken]
    doi = analysis.entity("doi")
    if doi is not None and resource_of(p.name, "") and not in_path(p, path):
        # a DOI names a work: not the value of a filter named for something else (``resource-type-id``)
        free = [e for e in free if str(e.value) != str(doi.value)]
    if p.type == "integer":
        free = [e for e in free if str(e.value).isdigit()]
    resource = resource_of(p.name, path)
    # an id filtering a collection ("/proteins?accession=") names a record of that collection
    collection = () if in_path(p, path) else _collection_terms(path)
    resource = resource or collection
    if not free:
        # a short number written after the resource's name: "variant set 42" for /variant-sets/{id}
        # (not an ordinal: "the first movie" is no movie number 1)
        number = analysis.labels.get(resource[-1]) if resource else None
        if number is not None and number.isdigit() and number not in taken:
            return Entity("identifier", number, 0, 0, number), 1.0
        number = _record_id(analysis, path)
        if number is not None and number not in taken and (p.type != "integer" or number.isdigit()):
            return Entity("identifier", number, 0, 0, number), 0.5
        return None
    if resource:
        # tied when the words before it, or its own prefix, name the resource: "gene HGNC:1100" for
        # gene_id, "target CHEMBL203" for targetChemblId (not assayChemblId); less firmly when the
        # endpoint's collection supplies the rest ("CHEMBL25" for /molecules?moleculeChemblId=)
        said = [{*e.extra.get("context", ()), *_prefix_terms(str(e.value))} for e in free]
        for e, terms in zip(free, said, strict=True):
            if all(t in terms for t in resource):
                return e, 1.0
        for e, terms in zip(free, said, strict=True):
            if all(t in terms or t in collection for t in resource):
                return e, 0.5
        # "video 76979871" names a video: for /tags/{word}/videos it is no tag, though the path says videos
        others = frozenset(t for seg in literal_segments(path) for t in name_terms(seg)) - _own_terms(p.name, path)
        free = [e for e in free if others.isdisjoint(e.extra.get("context", ()))]
        if not free:
            return None
    return free[0], 0.0


def _record_id(analysis: Analysis, path: str) -> str | None:
    """The value written after "<noun> ID" where the endpoint's path names that noun: "provider
    profile ID 28" is the id of the record /view_service_provider_profile shows, whatever its
    parameter is called (``professional_id``). Only one such value: two ids leave the choice open."""
    named = {t for segment in literal_segments(path) for t in name_terms(segment)}
    found = [value for noun, value in analysis.labels.items()
             if noun.endswith("id") and len(noun) > 2 and stem(noun[:-2]) in named]
    return found[0] if len(set(found)) == 1 else None


def _own_terms(name: str, path: str) -> frozenset[str]:
    """The terms of what a parameter names: its resource, and the literal segment right before it in the
    path (/journals/{issn}: journal) or, outside the path, the collection the endpoint lists."""
    at = path.find("{" + name + "}")
    return frozenset((*resource_of(name, path), *_collection_terms(path[:at] if at >= 0 else path)))


def _collection_terms(path: str) -> tuple[str, ...]:
    """The terms of a path's last literal segment: the collection an endpoint lists (/proteins -> protein)."""
    literal = literal_segments(path)
    return name_terms(literal[-1]) if literal else ()


def _prefix_terms(value: str) -> tuple[str, ...]:
    """The terms of an identifier's alphabetic prefix: CHEMBL203 -> (chembl,), HGNC:1100 -> (hgnc,)."""
    prefix = id_prefix(value)
    return name_terms(prefix.lower()) if prefix else ()
