"""Producer -> consumer links (the graph's FEEDS edges): which response field can supply which parameter.

A detail endpoint (``GET /movie/{movie_id}``) needs an id the question never gives ("When was The
Matrix released?"); a search or list endpoint of the same source returns records carrying it. The
links are derived from what every source declares, with no vocabulary:

- ``declared``: the source's ``feeds:`` (an author's word wins over any guess);
- ``same name``: another endpoint of the source returns a field named like the parameter
  (``corp_code`` -> ``corp_code``);
- ``nested id``: another endpoint returns the ids of related records of that resource, nested in
  its own (``networks[].id``, flattened ``networks_id``, for ``network_id``; ``production_companies_id``
  for ``company_id``): the field's name ends with the parameter's resource and "id";
- ``resource id``: the parameter names a resource (``movie_id``, ``personId``, or ``{id}`` after
  a ``/pets`` segment) and another endpoint of the source, whose path names that resource,
  returns records with an ``id`` (or its declared identifier). Under a path naming another record
  first (``/person/{person_id}/movie_credits``), the top-level ``id`` echoes that record: the listed
  records' ``cast[].id`` is the field.
- ``listed records``: another endpoint of the source, whose path does not name the resource, lists
  records shaped like that resource's records elsewhere in the source (``/collection/{id}`` lists
  its movies under ``parts[]`` with the fields ``/search/movie`` returns per movie): the list's
  ``parts[].id`` is the field. The shape is the set of field names a record carries; a list is
  another resource's records only when its shape matches that resource's best, and closely.

Links only say what could feed what; the router decides per question which producer to use.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from schemarouter.graph.terms import name_terms, path_terms
from schemarouter.graph.text import humanize

if TYPE_CHECKING:
    from schemarouter.graph.records import EndpointInfo

Key = tuple[str, str]
Shape = frozenset[str]
# How closely a list's record shape must match a resource's (Jaccard of field names), and how many
# names they must share: ``{id, name}`` is the shape of every small lookup list, which says nothing.
_SHAPE_MATCH = 0.7
_SHAPE_SHARED = 5
_EXCLUSIVE_SHARED = 2  # ... or how many field names only one resource's records carry a list must share
_ID_SUFFIX = re.compile(r"(?:_|\b)?(?:id|ids|key|code|uid|uuid|urn|accession)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Link:
    """Field ``field`` of endpoint ``producer`` can supply parameter ``param`` of ``consumer``."""

    producer: Key
    field: str
    consumer: Key
    param: str
    how: str  # declared | same name | nested id | resource id | listed records


@lru_cache(maxsize=100_000)
def resource_of(param: str, path: str) -> tuple[str, ...]:
    """The resource a parameter identifies, as terms: ``movie_id`` -> (movi,); ``{id}`` in
    ``/pets/{id}`` -> (pet,); () when the name says nothing beyond "id"."""
    words = humanize(param).split()
    if words and words[-1] in ("id", "ids", "key", "code", "uid", "uuid", "urn", "accession"):
        words = words[:-1]
    if words:
        return tuple(t for w in words for t in name_terms(w))
    segments = path.split("?", 1)[0].split("/")
    token = "{" + param + "}"
    if token in segments:
        at = segments.index(token)
        for segment in reversed(segments[:at]):
            if segment and not segment.startswith("{"):
                return name_terms(segment)
    return ()


def _record_id_fields(info: EndpointInfo, resource: tuple[str, ...] = ()) -> list[str]:
    """Fields that name a record of this endpoint: ``id`` first, then declared identifiers. Under a
    path that names another record first (``/person/{person_id}/movie_credits`` for a movie's id),
    the top-level ``id`` is that record's, echoed: the ids of the listed records (``cast[].id``) come
    first."""
    names = [n for n in info.fields if n == "id"]
    names += [n for n, f in info.fields.items() if f.field.identifier and n not in names]
    if resource and names and names[0] == "id" and _names_another_record(info.path, resource):
        listed = [n for n, f in info.fields.items() if f.field.path.endswith("[].id")]
        names = listed + [n for n in names if n not in listed]
    return names


@lru_cache(maxsize=100_000)
def _names_another_record(path: str, resource: tuple[str, ...]) -> bool:
    """Whether ``path``'s last template parameter identifies a resource other than ``resource``."""
    templates = re.findall(r"\{([^}]+)\}", path)
    if not templates:
        return False
    own = resource_of(templates[-1], path)
    return bool(own) and own[-1] != resource[-1]


def _record_shapes(info: EndpointInfo) -> tuple[Shape | None, list[tuple[str, Shape]]]:
    """The records an endpoint returns, by their field names: the top-level record when it has an
    ``id``, and (with the field holding their id) every list whose items have one (``parts[].id``)."""
    top: set[str] = set()
    lists: dict[str, set[str]] = defaultdict(set)
    ids: dict[str, str] = {}
    for name, f in info.fields.items():
        path = f.field.path
        head, sep, leaf = path.partition("[].")
        if sep and "." not in leaf and "[" not in leaf and "." not in head and "[" not in head:
            lists[head].add(leaf)
            if leaf == "id":
                ids[head] = name
        elif "." not in path and "[" not in path:
            top.add(path)
    return (frozenset(top) if "id" in top else None), [(ids[h], frozenset(leaves)) for h, leaves in lists.items() if h in ids]


def _named_records(path: str) -> tuple[set[str], set[str]]:
    """Which resources a path's records are, as terms: (its top-level record's, its lists' records').
    ``/movie/{movie_id}`` returns a movie; ``/search/movie`` lists movies and ``/account/categories``
    categories (the last segment says what is listed); ``/network/{network_id}/images`` lists neither
    networks nor images the source identifies."""
    segments = [s for s in path.split("?", 1)[0].split("/") if s]
    if segments and segments[-1].startswith("{"):
        own = resource_of(segments[-1][1:-1], path)
        return ({own[-1]} if own else set()), set()
    if any(s.startswith("{") for s in segments):
        return set(), set()  # the lists of a record's sub-resource (its images, its credits)
    return set(), (set(path_terms("/" + segments[-1])) if segments else set())


def _similarity(a: Shape, b: Shape) -> float:
    shared = len(a & b)
    return shared / len(a | b) if shared >= _SHAPE_SHARED else 0.0


def _listed_records(infos: list[EndpointInfo], wanted: set[str]) -> dict[str, list[tuple[EndpointInfo, str]]]:
    """Resource term -> (endpoint, id field) of lists whose records are that resource's, found by shape
    under endpoints whose path does not name it (those are the ``resource id`` links)."""
    shapes: dict[str, list[tuple[int, Shape]]] = defaultdict(list)  # resource term -> (endpoint number, shape)
    listed: list[tuple[int, EndpointInfo, str, Shape, set[str]]] = []
    for n, info in enumerate(infos):
        top, lists = _record_shapes(info)
        top_terms, list_terms = _named_records(info.path)
        if top is not None:  # a record a search returns is its records' shape too
            for term in (top_terms | list_terms) & wanted:
                shapes[term].append((n, top))
        for term in list_terms & wanted:
            shapes[term] += [(n, shape) for _, shape in lists]
        own = set(path_terms(info.path))
        listed += [(n, info, id_field, shape, own) for id_field, shape in lists]
    exclusive = _exclusive_fields(shapes)
    out: dict[str, list[tuple[EndpointInfo, str]]] = defaultdict(list)
    for n, info, id_field, shape, own in listed:
        best = {term: max((_similarity(shape, other) for m, other in found if m != n), default=0.0)
                for term, found in shapes.items()}
        top_score = max(best.values(), default=0.0)
        winners = [term for term, score in best.items() if score == top_score]
        # only a clear match, and only where no other resource's records fit as well
        if top_score >= _SHAPE_MATCH and len(winners) == 1:
            found = winners[0]
        else:
            # or the fields only one resource's records carry: a credit lists a person with the
            # role it played, but its ``profile_path`` and ``gender`` are a person's alone
            hits = [term for term, fields in exclusive.items() if shape & fields]
            found = hits[0] if len(hits) == 1 and len(shape & exclusive[hits[0]]) >= _EXCLUSIVE_SHARED else ""
        if found and found not in own:
            out[found].append((info, id_field))
    return out


def _exclusive_fields(shapes: dict[str, list[tuple[int, Shape]]]) -> dict[str, frozenset[str]]:
    """Resource term -> the field names (besides ``id``) its records carry and no other resource's do."""
    carried = {term: frozenset().union(*(shape for _, shape in found)) for term, found in shapes.items()}
    counts = Counter(name for names in carried.values() for name in names)
    return {term: frozenset(n for n in names if counts[n] == 1 and n != "id") for term, names in carried.items()}


def add_source_links(infos: list[EndpointInfo], out: dict[Key, dict[str, list[Link]]]) -> None:
    """Add to ``out`` the links among the endpoints of one source (``infos``, in graph order): links run
    between endpoints of one source, so each source's are found with its declarations alone."""
    endpoints: dict[Key, EndpointInfo] = {info.key: info for info in infos}  # a feed may name any of them
    infos = [info for info in infos if info.access == "read"]
    if len(infos) < 2:
        return  # and never from an endpoint to itself
    source_id = infos[0].key.source
    source = infos[0].source
    declared: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for feed in source.feeds:
        (p_ep, p_field), (c_ep, c_param) = feed.split()
        declared[(c_ep, c_param)].append((p_ep, p_field))
    field_owners: dict[str, list[EndpointInfo]] = defaultdict(list)
    resources: dict[str, list[EndpointInfo]] = defaultdict(list)  # path term -> endpoints
    # the term before a field name's final "id" -> (endpoint, field, the name's terms)
    id_fields: dict[str, list[tuple[EndpointInfo, str, tuple[str, ...]]]] = defaultdict(list)
    for info in infos:
        for name in info.fields:
            field_owners[name].append(info)
            terms = name_terms(name)
            if len(terms) >= 2 and terms[-1] == "id":
                id_fields[terms[-2]].append((info, name, terms))
        for term in set(path_terms(info.path)):
            resources[term].append(info)
    wanted = {resource[-1] for consumer in infos for p in consumer.endpoint.parameters
              if (resource := _id_resource(p.name, consumer.path))}
    listed = _listed_records(infos, wanted) if wanted else {}
    for consumer in infos:
        params: dict[str, list[Link]] = {}
        for p in consumer.endpoint.parameters:
            found: list[tuple[EndpointInfo, str, str]] = []  # (producer, its field, how), best first
            for p_ep, p_field in declared.get((consumer.key.endpoint, p.name), ()):
                producer = endpoints.get((source_id, p_ep))
                if producer is not None:
                    found.append((producer, p_field, "declared"))
            found += [(producer, p.name, "same name") for producer in field_owners.get(p.name, ())]
            resource = _id_resource(p.name, consumer.path)
            if resource:
                if p.name != "id":
                    found += [(producer, fname, "nested id") for producer, fname, terms in id_fields.get(resource[-1], ())
                              if fname != p.name and terms[-1 - len(resource):-1] == resource]
                for producer in resources.get(resource[-1], ()):
                    found += [(producer, fname, "resource id") for fname in _record_id_fields(producer, resource)[:1]]
                found += [(producer, fname, "listed records") for producer, fname in listed.get(resource[-1], ())]
            links = _distinct_links(consumer, p.name, found)
            if links:
                params[p.name] = links
        if params:
            out[consumer.key] = params


def _id_resource(param: str, path: str) -> tuple[str, ...]:
    """The resource an id parameter identifies (``movie_id``, ``{id}`` under ``/pets``); () for any other."""
    if _ID_SUFFIX.search(param) or (param == "id" and "{id}" in path):
        return resource_of(param, path)
    return ()


def _distinct_links(consumer: EndpointInfo, param: str, found: list[tuple[EndpointInfo, str, str]]) -> list[Link]:
    """Links into ``param`` of ``consumer``, each (producer, field) once, in the order found; never a self-link."""
    links: list[Link] = []
    seen: set[tuple[Key, str]] = set()
    for producer, fname, how in found:
        if producer is consumer or (producer.key, fname) in seen:
            continue
        seen.add((producer.key, fname))
        links.append(Link(producer.key, fname, consumer.key, param, how))
    return links
