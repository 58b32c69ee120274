"""PubMed adapter: one logical ``search`` = E-utilities esearch (term -> PMIDs), then esummary (XML v1).

With ``id`` given, esearch is skipped. esummary v1 XML is read through
:mod:`schemarouter.execution.xmltree`, so the declared paths (``Item[@Name=Title]``) apply. NCBI
asks every client to send ``tool`` (and ``email``: set ``SCHEMAROUTER_CONTACT_EMAIL``); the key
(``NCBI_API_KEY``) is optional and raises the rate limit from 3 to 10 requests/s.
"""

from __future__ import annotations

from typing import Any

import httpx

from schemarouter.adapters import (
    AdapterSpec,
    FetchResult,
    HttpJsonAdapter,
    HttpStatusError,
    NoRecords,
    QueryPair,
    StepCall,
    as_list,
    extract,
    redact_url,
    scalar_text,
)

SPEC = AdapterSpec(records="eSummaryResult.DocSum", fixed={"db": "pubmed", "retmode": "xml"})
TOOL = "schemarouter"
EMAIL_ENV = "SCHEMAROUTER_CONTACT_EMAIL"
ESEARCH_PARAMS = ("term", "retmax", "retstart", "sort", "mindate", "maxdate")


class PubMedAdapter(HttpJsonAdapter):
    def __init__(self) -> None:
        super().__init__({"search": SPEC}, auth_required=False)

    def _common(self, call: StepCall) -> list[QueryPair]:
        query: list[QueryPair] = [*((k, str(v)) for k, v in SPEC.fixed.items()), ("tool", TOOL)]
        if call.env.get(EMAIL_ENV):
            query.append(("email", call.env[EMAIL_ENV]))
        key = call.api_key(required=False)
        if key and call.source.auth is not None:
            query.append((call.source.auth.name, key))
        return query

    async def _get(self, call: StepCall, url: str, query: list[QueryPair]) -> Any:
        request = httpx.Request("GET", url, params=query)
        response = await call.send(request)
        body = self.parse_body(call, response) if response.content.strip() or response.status < 400 else None
        self.check_status(call, response, body)
        root = next(iter(body.values()), None) if isinstance(body, dict) else None
        if isinstance(root, dict) and root.get("ERROR"):
            raise HttpStatusError(f"{call.source.id}: E-utilities error: {root['ERROR']}", response.status)
        return body, request

    async def fetch(self, call: StepCall) -> FetchResult:
        base = call.endpoint.base_url.rstrip("/") + "/entrez/eutils"
        common = self._common(call)
        ids = [str(i) for i in as_list(call.params["id"])] if call.params.get("id") else []
        if not ids:
            extra: list[QueryPair] = [
                (k, scalar_text(call.params[k])) for k in ESEARCH_PARAMS if call.params.get(k) is not None
            ]
            body, _ = await self._get(call, f"{base}/esearch.fcgi", common + extra)
            found = extract(body, "eSearchResult.IdList.Id")
            ids = [str(i) for i in as_list(found)] if found else []
            if not ids:
                raise NoRecords(f"{call.source.id}: no PubMed records for {call.params.get('term')!r}")
        body, request = await self._get(call, f"{base}/esummary.fcgi", [*common, ("id", ",".join(ids))])
        records = self.extract_records(call, body)
        if not records:
            raise NoRecords(f"{call.source.id}: esummary returned no documents for {','.join(ids)}")
        return FetchResult(records=records, request=redact_url(request.url))
