"""Web search adapter: a SearxNG instance's ``/search?format=json`` through HttpJsonAdapter.

The declared base URL is a loopback SearxNG; ``SEARXNG_URL`` overrides it per deployment. The
instance must enable the JSON output format (``search.formats`` in its settings).
"""

from __future__ import annotations

from typing import Any

import httpx

from schemarouter.adapters import AdapterSpec, HttpJsonAdapter, StepCall

SPEC = AdapterSpec(records="results", fixed={"format": "json"})
URL_ENV = "SEARXNG_URL"


class SearxngAdapter(HttpJsonAdapter):
    def __init__(self) -> None:
        super().__init__({"search": SPEC}, auth_required=False)

    def build_request(self, call: StepCall, params: dict[str, Any]) -> httpx.Request:
        request = super().build_request(call, params)
        base = call.env.get(URL_ENV)
        if base:
            declared = call.endpoint.base_url.rstrip("/")
            request.url = httpx.URL(str(request.url).replace(declared, base.rstrip("/"), 1))
        return request
