"""Searchable text of endpoints and fields, for the keyword and retrieval baselines."""

from __future__ import annotations

from schemarouter.graph import EndpointInfo
from schemarouter.graph.text import STOPWORDS, humanize, words


def content_words(text: str) -> list[str]:
    """Lower-case words of ``text`` without stop words (single letters and digits kept out too)."""
    return [w for w in words(text) if w not in STOPWORDS and len(w) > 1]


def field_text(info: EndpointInfo, name: str, aliases: bool = True) -> str:
    """The words that describe a field: its name, description, concepts and (optionally) aliases."""
    f = info.fields[name].field
    parts = [humanize(f.name), f.description, " ".join(f.concepts).replace("_", " ")]
    if aliases:
        parts.append(" ".join(f.aliases))
    return " ".join(p for p in parts if p)


def endpoint_text(info: EndpointInfo, with_fields: bool = True) -> str:
    """The words that describe an endpoint: its source, its own text and (optionally) its fields'."""
    s, e = info.source, info.endpoint
    parts = [
        s.id.replace("_", " "),
        s.title,
        " ".join(s.aliases),
        s.description,
        humanize(e.id),
        e.description,
        " ".join(i.replace("_", " ") for i in e.intents),
    ]
    if with_fields:
        parts.extend(field_text(info, n) for n in info.fields)
    return " ".join(p for p in parts if p)
