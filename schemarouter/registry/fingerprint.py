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
    return "sha256:" + hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def source_fingerprint(source: Source, adapter_specs: Mapping[str, Any] | None = None) -> str:
    """The source's declaration and, for a local source, the adapter specs it runs with."""
    if not adapter_specs:
        return digest(source)  # plugin sources: the declaration alone (fingerprints stay as they were)
    return digest({"source": source.model_dump(mode="json", by_alias=True), "adapter_specs": dict(adapter_specs)})


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
