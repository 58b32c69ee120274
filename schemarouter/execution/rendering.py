"""Parameter rendering: filter expressions, projection keys, nested body keys.

Each API spells "these conditions" and "only these fields" differently. The functions here are
pure (values in, strings or dicts out) so they are easy to test and reuse for user sources.
Filter styles: ``optimade`` (``key="v"``; ``elements HAS ALL "A","B"``), ``oqmd`` (``key=v``
joined with AND) and ``colon`` (Crossref/OpenAlex ``key:v`` joined with commas).
"""

from __future__ import annotations

import json
from typing import Any, Literal

from schemarouter.field_paths import parse_path
from schemarouter.models import Endpoint, ResponseField

FilterStyle = Literal["optimade", "oqmd", "colon"]


def as_list(value: Any) -> list[Any]:
    """A parameter value as a list: lists stay, comma strings split, scalars wrap."""
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, str) and "," in value:
        return [part.strip() for part in value.split(",") if part.strip()]
    return [value]


def scalar_text(value: Any) -> str:
    """A parameter value as request text: booleans as true/false, lists joined with commas."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(scalar_text(v) for v in value)
    return str(value)


def _optimade_literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return json.dumps(str(value))


def filter_key(endpoint: Endpoint, param: str, style: FilterStyle) -> str:
    """The property name a filter term uses: for OPTIMADE the attribute behind a same-named field."""
    if style == "optimade":
        for f in endpoint.fields:
            if f.name == param:
                return optimade_key(f.path)
    return param


def render_filter(terms: list[tuple[str, Any]], style: FilterStyle, raw: str | None = None) -> str | None:
    """Join ``(key, value)`` terms in the API's filter syntax, AND-ed with a raw filter if given."""
    parts: list[str] = []
    for key, value in terms:
        if style == "optimade":
            if key == "elements":
                parts.append("elements HAS ALL " + ",".join(_optimade_literal(v) for v in as_list(value)))
            else:
                parts.append(f"{key}={_optimade_literal(value)}")
        elif style == "oqmd":
            parts.append(f"{key}={scalar_text(value)}")
        else:
            parts.append(f"{key}:{scalar_text(value)}")
    if raw:
        parts.insert(0, f"({raw})" if style in ("optimade", "oqmd") and parts else raw)
    if not parts:
        return None
    joiner = "," if style == "colon" else " AND "
    return joiner.join(parts)


def optimade_key(path: str) -> str:
    """The OPTIMADE property name a field path reads (``attributes.`` dropped)."""
    segments = parse_path(path)
    if segments[0].key == "attributes" and len(segments) > 1:
        return segments[1].key
    return segments[0].key


def projection_keys(endpoint: Endpoint, fields: list[ResponseField]) -> list[str]:
    """What the endpoint's projection parameter should list for these fields (order kept, no duplicates)."""
    if endpoint.projection is None:
        return []
    style = endpoint.projection.style
    keys: list[str] = []
    for f in fields:
        segments = parse_path(f.path)
        if style == "json_list":
            # NOMAD: the full path, cut after a repeated section (band_gap[0].value -> band_gap)
            cut = next((i for i, seg in enumerate(segments) if seg.selectors), len(segments) - 1)
            key = ".".join(s.key for s in segments[: cut + 1])
        elif segments[0].key == "attributes" and len(segments) > 1:
            key = segments[1].key
        else:
            key = segments[0].key
        if key not in keys:
            keys.append(key)
    return keys


def set_dotted(target: dict[str, Any], dotted: str, value: Any) -> None:
    """``set_dotted(body, "pagination.page_size", 5)`` -> ``{"pagination": {"page_size": 5}}``."""
    *parents, last = dotted.split(".")
    node = target
    for key in parents:
        node = node.setdefault(key, {})
    node[last] = value
