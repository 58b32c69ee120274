"""The one unpickler that reads what a graph cache holds: the graph itself, and the sources it keeps
pickled until a question first needs them (:mod:`schemarouter.graph.shelf`).

A cache file is checksummed, but the checksum guards against torn files, not against someone who can
write the cache directory: a crafted pickle runs code by naming a function to call. This unpickler
resolves only classes (of this package, and the few containers a graph is made of), so such a file
is refused even when its checksum is right.
"""

from __future__ import annotations

import pickle
from typing import Any


class UnpicklingRefused(Exception):
    """A payload names something no graph holds."""


# What a graph is made of besides this package's classes (found by listing a pickled graph's globals).
_ALLOWED = {
    ("collections", "defaultdict"), ("collections", "OrderedDict"), ("array", "array"),
    ("array", "_array_reconstructor"), ("re", "_compile"), ("copyreg", "_reconstructor"),
}
_BUILTIN_TYPES = frozenset({"list", "dict", "set", "frozenset", "tuple", "bytearray", "object", "int", "float", "str"})


class GraphUnpickler(pickle.Unpickler):
    """Resolves only the classes a graph holds; anything else is :class:`UnpicklingRefused`."""

    def find_class(self, module: str, name: str) -> Any:
        """The class ``module.name`` where a graph may hold it; else UnpicklingRefused."""
        if (module, name) in _ALLOWED or (module == "builtins" and name in _BUILTIN_TYPES):
            return super().find_class(module, name)
        if module == "schemarouter" or module.startswith("schemarouter."):
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise UnpicklingRefused(f"the payload names {module}.{name}, which no graph holds")
