"""Crossref adapter: ``/works`` through the generic HttpJsonAdapter, with a single-DOI shortcut.

Filter-located parameters (``doi``, ``from-pub-date``) render as ``filter=key:value,...`` and the
planned fields go in ``select``. A plan that only names a DOI is sent as ``/works/{doi}``
(record = ``message``), the canonical single-work route; Crossref does not apply ``select`` there,
so the executor projects locally.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx

from schemarouter.adapters import AdapterSpec, HttpJsonAdapter, StepCall

SPEC = AdapterSpec(records="message.items", locations={"doi": "filter", "from-pub-date": "filter"},
                   notes="filter terms are key:value joined by commas; /works/{doi} returns one work as message")
SINGLE_DOI_EXTRA = {"mailto"}
EMAIL_ENV = "SCHEMAROUTER_CONTACT_EMAIL"  # Crossref's "polite pool": identify yourself with mailto


class CrossrefAdapter(HttpJsonAdapter):
    def __init__(self) -> None:
        super().__init__({"works": SPEC}, auth_required=False, filter_style="colon")

    def build_request(self, call: StepCall, params: dict[str, Any]) -> httpx.Request:
        if not params.get("mailto") and call.env.get(EMAIL_ENV):
            params = {**params, "mailto": call.env[EMAIL_ENV]}
        given = {k for k, v in params.items() if v not in (None, "")}
        if "doi" in given and given <= {"doi"} | SINGLE_DOI_EXTRA:
            doi = str(params["doi"]).removeprefix("https://doi.org/")
            query = {"mailto": params["mailto"]} if params.get("mailto") else None
            return httpx.Request("GET", f"{call.endpoint.base_url}/works/{quote(doi, safe='/')}", params=query)
        return super().build_request(call, params)

    def extract_records(self, call: StepCall, body: Any) -> list[Any]:
        if isinstance(body, dict) and body.get("message-type") == "work":
            return [body["message"]]
        return super().extract_records(call, body)
