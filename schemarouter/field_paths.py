"""Field paths: where a declared response field sits inside one record.

A path is relative to one record and uses the inventory's small grammar:

* dotted keys: ``symmetry.symbol`` (a key may hold single spaces between its words: ``dose rate``)
* ``[]`` every element of a list: ``authorships[].author.display_name``
* ``[0]`` (any integer) one element of a list: ``title[0]``
* ``[key=value]`` the list element whose ``key`` equals ``value``:
  ``Section[TOCHeading=Melting Point]``; in XML records the key is an attribute, written
  ``[@Name=Title]``
* ``@attr`` an XML attribute: ``arxiv:primary_category.@term``; namespace prefixes stay in the key.

The parser lives here, alone, because the declaration validator, the adapters' local
projection and the OpenAPI importer all speak this grammar.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

# a key: letters (any alphabet), digits, "_", ":" and "-", not opening with a digit; words of a key may
# be separated by single spaces, as some APIs name a property ("dose rate", "Error Message")
_NAME = r"[^\W\d][\w:\-]*(?: [\w:\-]+)*"
_KEY = re.compile(r"@?" + _NAME)  # "@" opens an XML attribute
_PLAIN_KEY = re.compile(_NAME)


def is_plain_key(name: str) -> bool:
    """Whether ``name`` (a JSON property's) can be written as one key of a path."""
    return _PLAIN_KEY.fullmatch(name) is not None


WHOLE_RECORD = "$"  # the path of the whole record


class PathSyntaxError(ValueError):
    """A field path that does not follow the grammar; the message says where."""


@dataclass(frozen=True)
class Selector:
    """One bracket after a key: ``[]``, ``[3]`` or ``[key=value]``."""

    kind: str  # "all" | "index" | "match"
    index: int | None = None
    key: str | None = None
    value: str | None = None

    def render(self) -> str:
        """The selector as path syntax."""
        if self.kind == "all":
            return "[]"
        if self.kind == "index":
            return f"[{self.index}]"
        return f"[{self.key}={self.value}]"


@dataclass(frozen=True)
class Segment:
    """A key with the selectors that follow it."""

    key: str
    selectors: tuple[Selector, ...] = ()

    def render(self) -> str:
        """The segment as path syntax."""
        return self.key + "".join(s.render() for s in self.selectors)


def _split_segments(path: str) -> list[str]:
    """Split on dots that are not inside brackets."""
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in path:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise PathSyntaxError(f"unbalanced ']' in path {path!r}")
        if ch == "." and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    if depth != 0:
        raise PathSyntaxError(f"unclosed '[' in path {path!r}")
    parts.append("".join(current))
    return parts


def _parse_selector(body: str, path: str) -> Selector:
    if body == "":
        return Selector("all")
    if body.isdigit():
        return Selector("index", index=int(body))
    if "=" in body:
        key, value = body.split("=", 1)
        if not _KEY.fullmatch(key) or value == "":
            raise PathSyntaxError(f"bad selector [{body}] in path {path!r}")
        return Selector("match", key=key, value=value)
    raise PathSyntaxError(f"bad selector [{body}] in path {path!r}: use [], [N] or [key=value]")


def parse_path(path: str) -> tuple[Segment, ...]:
    """Parse a field path into segments, or raise PathSyntaxError naming the problem. ``$`` is the
    whole record (no segments): a field for a response nothing more is known of."""
    if path == WHOLE_RECORD:
        return ()
    if not isinstance(path, str) or not path.strip():
        raise PathSyntaxError("empty path")
    if path != path.strip():
        raise PathSyntaxError(f"path {path!r} has surrounding whitespace")
    segments: list[Segment] = []
    for raw in _split_segments(path):
        if raw == "":
            raise PathSyntaxError(f"empty segment in path {path!r}")
        match = _KEY.match(raw)
        if not match:
            raise PathSyntaxError(f"segment {raw!r} of path {path!r} does not start with a key")
        key = match.group(0)
        rest = raw[match.end() :]
        selectors: list[Selector] = []
        while rest:
            if not rest.startswith("["):
                raise PathSyntaxError(f"unexpected {rest!r} after key {key!r} in path {path!r}")
            close = rest.find("]")
            selectors.append(_parse_selector(rest[1:close], path))
            rest = rest[close + 1 :]
        segments.append(Segment(key, tuple(selectors)))
    return tuple(segments)


def projection_key(path: str) -> str:
    """The first key of a path: what most APIs accept in a field-selection list (the whole record: ``$``)."""
    segments = parse_path(path)
    return segments[0].key if segments else WHOLE_RECORD


_MISSING = object()


def _child(node: Any, key: str) -> Any:
    if isinstance(node, dict):
        return node.get(key, _MISSING)
    return _MISSING


def _select(nodes: list[Any], sel: Selector) -> list[Any]:
    out: list[Any] = []
    for node in nodes:
        items = node if isinstance(node, list) else [node]
        if sel.kind == "all":
            out.extend(items)
        elif sel.kind == "index":
            assert sel.index is not None
            if isinstance(node, list) and sel.index < len(node):
                out.append(node[sel.index])
            elif not isinstance(node, list) and sel.index == 0:
                out.append(node)
        else:
            out.extend(
                item
                for item in items
                if isinstance(item, dict) and str(item.get(sel.key or "", "")) == sel.value
            )
    return out


def extract(record: Any, path: str | tuple[Segment, ...]) -> Any:
    """Read a path out of one record (JSON-like dicts and lists).

    Returns None when the path is absent. A path with ``[]`` or ``[key=value]`` may match
    several values: then a list is returned; otherwise the single value.
    """
    segments = parse_path(path) if isinstance(path, str) else path
    nodes: list[Any] = [record]
    fan_out = False
    for segment in segments:
        nxt = [_child(node, segment.key) for node in nodes]
        nodes = [n for n in nxt if n is not _MISSING]
        for sel in segment.selectors:
            if sel.kind != "index":
                fan_out = True
            nodes = _select(nodes, sel)
        if not nodes:
            return None
    if fan_out:
        flat: list[Any] = []
        for node in nodes:
            flat.append(node)
        return flat
    return nodes[0] if nodes else None
