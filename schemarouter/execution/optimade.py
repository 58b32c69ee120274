"""OptimadeAdapter: any OPTIMADE provider's ``/v1/structures`` through HttpJsonAdapter.

Filter-located parameters render in the OPTIMADE filter language (``key="value"``,
``elements HAS ALL "A","B"``), planned fields go in ``response_fields`` (the attribute names after
``attributes.``), records are ``data``. Providers may return the same entry on two pages
(JARVIS does): records are de-duplicated on ``id``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemarouter.execution.adapter import StepCall
from schemarouter.execution.httpjson import HttpJsonAdapter
from schemarouter.sources.spec import AdapterSpec


class OptimadeAdapter(HttpJsonAdapter):
    """The HTTP JSON adapter for OPTIMADE APIs: OPTIMADE filter syntax, records de-duplicated by id."""

    def __init__(self, specs: Mapping[str, AdapterSpec] | AdapterSpec, *, auth_required: bool = False) -> None:
        super().__init__(specs, auth_required=auth_required, filter_style="optimade")

    def extract_records(self, call: StepCall, body: Any) -> list[Any]:
        """The records, with repeats of an id dropped."""
        records = super().extract_records(call, body)
        seen: set[Any] = set()
        unique: list[Any] = []
        for record in records:
            key = record.get("id") if isinstance(record, dict) else None
            if key is not None and key in seen:
                continue
            seen.add(key)
            unique.append(record)
        return unique
