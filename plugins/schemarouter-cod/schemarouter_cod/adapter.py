"""COD adapter: ``/cod/result?format=json`` through the generic HttpJsonAdapter.

The response root is a list of entries; numbers (cell lengths, volume, temperature) arrive as
strings and are cast to the declared types. COD publishes no rate limit: the shared client's
per-source concurrency limit keeps requests polite.
"""

from __future__ import annotations

from schemarouter.adapters import AdapterSpec, HttpJsonAdapter

SPEC = AdapterSpec(records="", fixed={"format": "json"})

ADAPTER = HttpJsonAdapter({"search": SPEC}, auth_required=False)
