"""SHA-256 fingerprints of declarations, so a plan made on an older registry is detectably stale.

A fingerprint depends on the declared content only (not on which plugin version declared it
or when it was synced), so re-syncing identical declarations keeps every fingerprint.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel

from schemarouter.models import DomainConcept, FieldGroup, Intent, License, Source


def canonical_json(value: Any) -> str:
    """Serialize ``value`` as compact JSON with sorted keys, so equal content always gives equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    """SHA-256 of ``value``'s canonical JSON (a pydantic model dumped by alias first), as ``sha256:<hex>``."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", by_alias=True)
    return _sha256(canonical_json(value))


def source_fingerprint(source: Source, adapter_specs: Mapping[str, Any] | None = None) -> str:
    """The source's declaration and, for a local source, the adapter specs it runs with."""
    if not adapter_specs:
        return digest(source)  # plugin sources: the declaration alone (fingerprints stay as they were)
    return digest({"source": source.model_dump(mode="json", by_alias=True), "adapter_specs": dict(adapter_specs)})


# Stands for a source's endpoints in its dump while the rest is encoded (below): a string no declaration
# writes, and if one ever did, the marker would be found more than once and the plain path taken.
_ENDPOINTS = "\x00schemarouter:endpoints\x00"


def source_and_endpoint_fingerprints(source: Source) -> tuple[str, list[str]]:
    """``source_fingerprint(source)`` and ``digest(endpoint)`` of each of its endpoints, from one dump.

    A sync stores both, and dumping and encoding every endpoint twice (alone, then inside its source)
    was a fifth of the time a 100,000-source sync took. The source's canonical JSON is its dump with
    the endpoints' canonical JSON put back where they were, so the digests are the same text's."""
    data = source.model_dump(mode="json", by_alias=True)
    endpoints = [canonical_json(e) for e in data["endpoints"]]
    data["endpoints"] = _ENDPOINTS
    text = canonical_json(data)
    marker = canonical_json(_ENDPOINTS)
    if text.count(marker) == 1:
        text = text.replace(marker, "[" + ",".join(endpoints) + "]")
    else:
        text = canonical_json(source.model_dump(mode="json", by_alias=True))
    return _sha256(text), [_sha256(e) for e in endpoints]


def _sha256(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def license_fingerprint(license: License) -> str:
    """The license declaration's digest, which keys its single shared row in the ``licenses`` table."""
    return digest(license)


def vocabulary_fingerprint(
    intents: Iterable[Intent], field_groups: Iterable[FieldGroup], concepts: Iterable[DomainConcept]
) -> str:
    """Digest of the intents, field groups and concepts, each sorted by name so their order does not count."""
    return digest(
        {
            "intents": sorted((i.model_dump(mode="json") for i in intents), key=lambda d: d["name"]),
            "field_groups": sorted((g.model_dump(mode="json") for g in field_groups), key=lambda d: d["name"]),
            "concepts": sorted((c.model_dump(mode="json") for c in concepts), key=lambda d: d["name"]),
        }
    )


def registry_fingerprint(vocabulary: str, sources: Mapping[str, str]) -> str:
    """The whole registry's fingerprint: a digest of the vocabulary fingerprint and each source's, by id."""
    return digest({"vocabulary": vocabulary, "sources": dict(sorted(sources.items()))})
