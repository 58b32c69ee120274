"""Resolve local ``$ref`` pointers, detecting dangling and circular references.

Only references inside the same document (``#/components/...``) are followed. An external
reference (another file or a URL) is not an error but a construct the importer reports as not
mapped, because following it would mean reading files or the network the user did not name.
"""

from __future__ import annotations

from typing import Any

from schemarouter.openapi.errors import OpenAPIImportError


class ExternalRef(Exception):
    """A ``$ref`` to another document; the caller reports it."""

    def __init__(self, ref: str) -> None:
        self.ref = ref
        super().__init__(ref)


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


class Resolver:
    def __init__(self, doc: dict[str, Any], file: str) -> None:
        self.doc = doc
        self.file = file

    def pointer(self, ref: str, place: str) -> Any:
        if not ref.startswith("#"):
            raise ExternalRef(ref)
        node: Any = self.doc
        if ref in ("#", "#/"):
            return node
        if not ref.startswith("#/"):
            raise OpenAPIImportError(self.file, place, f"$ref {ref!r} is not a JSON pointer (expected '#/...')")
        for token in ref[2:].split("/"):
            key = _unescape(token)
            if isinstance(node, dict) and key in node:
                node = node[key]
            elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
            else:
                raise OpenAPIImportError(self.file, place, f"dangling $ref {ref!r}: {key!r} does not exist")
        return node

    def resolve(self, node: Any, place: str, chain: tuple[str, ...] = ()) -> tuple[Any, tuple[str, ...]]:
        """Follow ``$ref`` until a node without one; return it and the extended chain.

        ``chain`` holds the references being expanded above this node; meeting one of them
        again is a cycle, reported with the whole chain. Keys beside ``$ref`` (allowed in 3.1)
        are laid over the target.
        """
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            if not isinstance(ref, str):
                raise OpenAPIImportError(self.file, place, "$ref must be a string")
            if ref in chain:
                loop = " -> ".join((*chain[chain.index(ref):], ref))
                raise OpenAPIImportError(self.file, place, f"circular $ref: {loop}")
            chain = (*chain, ref)
            target = self.pointer(ref, place)
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            node = {**target, **siblings} if siblings and isinstance(target, dict) else target
        return node, chain
