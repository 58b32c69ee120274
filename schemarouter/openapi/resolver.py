"""Resolve local ``$ref`` pointers with the ``referencing`` library; report dangling and circular ones.

A ``$ref`` is a URI reference: its fragment is percent-decoded before the JSON Pointer rules
(RFC 6901 ``~1`` = ``/``, ``~0`` = ``~``) apply, so ``#/paths/~1accounts~1%7Bid%7D`` names the
path ``/accounts/{id}``. ``referencing`` (the resolver behind ``jsonschema``) implements exactly
that; this module adds what an importer needs around it: a cache per reference, references to
other files or URLs reported rather than followed (the user named one file, not the network),
and cycle detection. A reference met again while it is being expanded is followed once more (so
a ``Taxon`` whose ``parent`` is a ``Taxon`` still yields ``parent.name``) and then stops with
:class:`CircularRef`, which the caller maps to one ``object`` field and reports.
"""

from __future__ import annotations

from typing import Any

from referencing import Registry, Resource, Specification
from referencing.exceptions import Unresolvable

BASE_URI = "urn:schemarouter:openapi-document"
MAX_REF_HOPS = 64  # a chain of pure $ref -> $ref longer than this is a loop in all but name


class ExternalRef(Exception):
    """A ``$ref`` to another document; the caller reports it."""

    def __init__(self, ref: str) -> None:
        self.ref = ref
        super().__init__(ref)


class DanglingRef(Exception):
    """A local ``$ref`` that points at nothing; the caller reports it with its place."""

    def __init__(self, ref: str, problem: str) -> None:
        self.ref = ref
        self.problem = problem
        super().__init__(f"dangling $ref {ref!r}: {problem}")


class CircularRef(Exception):
    """A ``$ref`` that was already expanded (twice) on the way here: the schema refers to itself."""

    def __init__(self, chain: tuple[str, ...], ref: str) -> None:
        self.loop = " -> ".join((*chain[chain.index(ref):], ref))
        super().__init__(f"circular $ref: {self.loop}")


class Resolver:
    """Local ``$ref`` lookup over one document (OpenAPI 3.x, or Swagger 2.0 converted to it)."""

    def __init__(self, doc: dict[str, Any], file: str, revisits: int = 1) -> None:
        self.doc = doc
        self.file = file
        self.revisits = revisits  # how often a reference may reappear in one expansion chain
        resource: Resource[Any] = Specification.OPAQUE.create_resource(doc)
        self._resolver = Registry().with_resource(BASE_URI, resource).resolver(BASE_URI)
        self._cache: dict[str, Any] = {}

    def pointer(self, ref: str) -> Any:
        """The node ``ref`` names; :class:`ExternalRef` or :class:`DanglingRef` when there is none here."""
        if ref in self._cache:
            return self._cache[ref]
        if not ref.startswith("#"):
            raise ExternalRef(ref)
        if ref not in ("#", "#/") and not ref.startswith("#/"):
            raise DanglingRef(ref, "not a JSON pointer (expected '#/...')")
        try:
            target = self._resolver.lookup(ref).contents if ref not in ("#", "#/") else self.doc
        except Unresolvable:
            raise DanglingRef(ref, "it names nothing in the document") from None
        except (ValueError, TypeError, IndexError):  # a list index that is not a number, a pointer into a string
            raise DanglingRef(ref, "it names nothing in the document") from None
        self._cache[ref] = target
        return target

    def resolve(self, node: Any, chain: tuple[str, ...] = ()) -> tuple[Any, tuple[str, ...]]:
        """Follow ``$ref`` until a node without one; return it and the extended chain.

        ``chain`` holds the references being expanded above this node. Keys beside ``$ref``
        (allowed in 3.1) are laid over the target.
        """
        hops = 0
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            if not isinstance(ref, str):
                raise DanglingRef(repr(ref)[:60], "$ref must be a string")
            hops += 1
            if chain.count(ref) > self.revisits or hops > MAX_REF_HOPS:
                raise CircularRef(chain, ref) if ref in chain else DanglingRef(ref, "too many $ref hops")
            chain = (*chain, ref)
            target = self.pointer(ref)
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            node = {**target, **siblings} if siblings and isinstance(target, dict) else target
        return node, chain
