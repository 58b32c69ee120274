"""Stack Exchange adapter: ``/2.3/search/advanced`` through HttpJsonAdapter.

Records are ``items``; titles come HTML-escaped (``&#39;``) and are unescaped. The app key
(``STACKEXCHANGE_KEY``, query ``key``) is optional and only raises the quota. A ``backoff`` field
in the envelope asks clients to wait; it is reported in the request description.
"""

from __future__ import annotations

import html
from typing import Any

from schemarouter.adapters import AdapterSpec, HttpJsonAdapter, StepCall

SPEC = AdapterSpec(records="items", notes="Envelope {items, has_more, quota_max, quota_remaining, backoff?}")


class StackExchangeAdapter(HttpJsonAdapter):
    def __init__(self) -> None:
        super().__init__({"search_advanced": SPEC}, auth_required=False)

    def extract_records(self, call: StepCall, body: Any) -> list[Any]:
        records = super().extract_records(call, body)
        for record in records:
            if isinstance(record, dict) and isinstance(record.get("title"), str):
                record["title"] = html.unescape(record["title"])
        return records
