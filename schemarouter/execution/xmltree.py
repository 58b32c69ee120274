"""XML responses as JSON-like dicts, so field paths work the same on XML and JSON.

The inventory's path grammar reads XML as: child elements by tag (namespace prefix kept, e.g.
``arxiv:doi``; the document's default namespace has no prefix), attributes as ``@name``, and an
element's text under ``#text`` (or the element *is* its text when it has no attributes and no
children). Repeated children become a list.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

# Prefixes for the namespaces the first-party sources use; others keep their URI's last segment.
KNOWN_PREFIXES = {
    "http://www.w3.org/2005/Atom": "",
    "http://arxiv.org/schemas/atom": "arxiv",
    "http://a9.com/-/spec/opensearch/1.1/": "opensearch",
}


def _name(tag: str, prefixes: dict[str, str]) -> str:
    if tag.startswith("{"):
        uri, local = tag[1:].split("}", 1)
        prefix = prefixes.get(uri, uri.rstrip("/").rsplit("/", 1)[-1])
        return f"{prefix}:{local}" if prefix else local
    return tag


def _convert(element: ET.Element, prefixes: dict[str, str]) -> Any:
    node: dict[str, Any] = {f"@{_name(k, prefixes)}": v for k, v in element.attrib.items()}
    for child in element:
        key = _name(child.tag, prefixes)
        value = _convert(child, prefixes)
        if key in node:
            existing = node[key]
            node[key] = [*existing, value] if isinstance(existing, list) else [existing, value]
        else:
            node[key] = value
    text = (element.text or "").strip()
    if not node:
        return text
    if text:
        node["#text"] = text
    return node


def parse_xml(data: bytes | str, prefixes: dict[str, str] | None = None) -> dict[str, Any]:
    """Parse an XML document into ``{root_tag: converted_root}``; raises ``ET.ParseError``."""
    root = ET.fromstring(data)
    table = {**KNOWN_PREFIXES, **(prefixes or {})}
    return {_name(root.tag, table): _convert(root, table)}
