"""OpenAlex adapter: ``/works`` through the generic HttpJsonAdapter, with a single-DOI route.

Filter-located parameters (``doi``, ``title.search``, ``publication_year``) render as
``filter=key:value,...``; the planned fields go in ``select``; the key (``OPENALEX_API_KEY``, required
since 2026-02-13) is sent as ``api_key``. A plan that only names a DOI is sent as
``/works/https://doi.org/{doi}`` (one work at the root), still with ``select``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx

from schemarouter.adapters import AdapterSpec, HttpJsonAdapter, QueryPair, StepCall, projection_keys

SPEC = AdapterSpec(records="results",
                   locations={"doi": "filter", "title.search": "filter", "publication_year": "filter"},
                   notes="filter terms are key:value joined by commas; /works/<doi url> returns one work")


class OpenAlexAdapter(HttpJsonAdapter):
    def __init__(self) -> None:
        super().__init__({"works": SPEC}, auth_required=True, filter_style="colon")

    def build_request(self, call: StepCall, params: dict[str, Any]) -> httpx.Request:
        given = {k for k, v in params.items() if v not in (None, "")}
        if given == {"doi"}:
            doi = str(params["doi"]).removeprefix("https://doi.org/")
            query: list[QueryPair] = [("select", ",".join(projection_keys(call.endpoint, call.fields)))]
            key = call.api_key(required=self.auth_required)
            if key and call.source.auth is not None:
                query.append((call.source.auth.name, key))
            url = f"{call.endpoint.base_url}/works/https://doi.org/{quote(doi, safe='')}"
            return httpx.Request("GET", url, params=query)
        return super().build_request(call, params)

    def extract_records(self, call: StepCall, body: Any) -> list[Any]:
        if isinstance(body, dict) and "results" not in body and "id" in body:
            return [body]
        return super().extract_records(call, body)
