"""PubChem adapter: computed properties through ``pubchempy``, experimental values through PUG View.

* ``compound_properties``: ``pubchempy.get_properties`` with only the planned properties (the
  ``{properties}`` projection). pubchempy POSTs the identifier (``name=aspirin``) to
  ``/compound/name/property/<list>/JSON``, equivalent to the declared GET path. Responses from
  before 2025 carry ``IsomericSMILES``/``CanonicalSMILES`` instead of ``SMILES``: we fall back.
* ``experimental_properties``: PUG View ``/rest/pug_view/data/compound/{cid}/JSON`` through the
  shared httpx client; a ``name`` is first resolved to a CID with PUG REST ``/cids``. Each
  field's values are parsed (number + unit, see :mod:`units`) and converted to the declared unit;
  the value used and its PubChem reference are kept in the note.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import quote

import httpx

from schemarouter.adapters import (
    AdapterSpec,
    FetchResult,
    FieldValue,
    HttpJsonAdapter,
    HttpStatusError,
    InvalidStep,
    NetworkError,
    NoRecording,
    NoRecords,
    RateLimited,
    StepCall,
    StepError,
    StepTimeout,
    UnparseableBody,
    extract,
    parse_path,
    projection_keys,
)
from schemarouter_pubchem.units import convert, read_value

PUG_REST = "https://pubchem.ncbi.nlm.nih.gov/rest/pug"
SMILES_FALLBACKS = ("IsomericSMILES", "CanonicalSMILES", "ConnectivitySMILES")
NAMESPACES = ("cid", "name", "inchikey")


def _translate(source: str, exc: Exception) -> StepError:
    name, text = type(exc).__name__, str(exc)
    if name == "CannotOverwriteExistingCassetteException":
        asked = next((ln.strip() for ln in text.splitlines() if ln.strip().startswith(("GET ", "POST "))), "")
        return NoRecording(f"{source}: offline replay has no recording for {asked or 'this request'}")
    if name == "ServerBusyError":
        return RateLimited(f"{source}: PubChem is busy (HTTP 503 throttling): {text[:120]}")
    if name == "TimeoutError" or "timed out" in text:
        return StepTimeout(f"{source}: PubChem timed out: {text[:120]}")
    if name in ("BadRequestError", "ServerError", "MethodNotAllowedError", "UnimplementedError", "PubChemHTTPError"):
        code = {"BadRequestError": 400, "ServerError": 500, "MethodNotAllowedError": 405}.get(name, 0)
        return HttpStatusError(f"{source}: PubChem {name} (HTTP {code}): {text[:160]}", code)
    if "JSON" in name or "Expecting" in text:
        return UnparseableBody(f"{source}: PubChem response is not valid JSON ({text[:80]})")
    return NetworkError(f"{source}: {name}: {text[:160]}")


class PugViewAdapter(HttpJsonAdapter):
    """``experimental_properties``: name -> CID through PUG REST, then PUG View, then value parsing."""

    def __init__(self) -> None:
        super().__init__({"experimental_properties": AdapterSpec(
            records="Record", locations={"cid": "path", "name": "client"})}, auth_required=False)

    async def resolve_client_params(self, call: StepCall, params: dict[str, Any]) -> dict[str, Any]:
        name = params.pop("name", None)
        if params.get("cid") is None:
            if not name:
                raise InvalidStep(f"{call.source.id}.experimental_properties needs cid or name")
            url = f"{PUG_REST}/compound/name/{quote(str(name), safe='')}/cids/JSON"
            response = await call.send(httpx.Request("GET", url))
            body = self.parse_body(call, response) if response.content.strip() else None
            if response.status == 404:
                raise NoRecords(f"{call.source.id}: PubChem knows no compound named {name!r}")
            self.check_status(call, response, body)
            cids = extract(body, "IdentifierList.CID") if isinstance(body, dict) else None
            if not cids:
                raise NoRecords(f"{call.source.id}: PubChem knows no compound named {name!r}")
            params["cid"] = cids[0]
        return params

    async def fetch(self, call: StepCall) -> FetchResult:
        fetched = await super().fetch(call)
        record = fetched.records[0]
        references = {r.get("ReferenceNumber"): r for r in record.get("Reference") or [] if isinstance(r, dict)}
        projected: dict[str, Any] = {}
        for f in call.fields:
            if f.identifier:
                projected[f.name] = extract(record, f.path)
                continue
            info_path = f.path.rsplit(".Value", 1)[0]
            items = extract(record, parse_path(info_path)) or []
            projected[f.name] = _pick(items if isinstance(items, list) else [items], f.unit, references)
        return FetchResult(records=[projected], request=fetched.request, projected=True)


def _pick(items: list[Any], unit: str | None, references: dict[Any, Any]) -> FieldValue:
    """The first reported value convertible to the declared unit, with its text and reference."""
    skipped = 0
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("Value"), dict):
            continue
        parsed = read_value(item["Value"])
        if parsed is None:
            skipped += 1
            continue
        number, written, text = parsed
        value = convert(number, written, unit)
        if value is None:
            skipped += 1
            continue
        ref = references.get(item.get("ReferenceNumber")) or {}
        cite = ref.get("SourceName") or "PubChem"
        note = f"from '{text[:60]}' ({cite}); {len(items)} reported value(s)"
        return FieldValue(value, unit, note)
    if items:
        return FieldValue(None, unit, f"{len(items)} reported value(s), none readable in {unit or 'a plain number'}")
    return FieldValue(None, unit)


class PubChemAdapter:
    """Dispatches per endpoint: pubchempy for properties, PUG View (httpx) for experimental values."""

    auth_required = False

    def __init__(self) -> None:
        self.pug_view = PugViewAdapter()

    async def fetch(self, call: StepCall) -> FetchResult:
        if call.endpoint.id == "experimental_properties":
            return await self.pug_view.fetch(call)
        return await self._properties(call)

    async def _properties(self, call: StepCall) -> FetchResult:
        given = [(ns, call.params[ns]) for ns in NAMESPACES if call.params.get(ns) not in (None, "")]
        if len(given) != 1:
            raise InvalidStep(f"{call.source.id}.compound_properties takes exactly one of cid, name or inchikey")
        namespace, identifier = given[0]
        properties = [k for k in projection_keys(call.endpoint, call.fields) if k != "CID"] or ["MolecularFormula"]
        records: list[dict[str, Any]] = []
        for attempt in range(call.config.retries + 1):
            try:
                records = await asyncio.to_thread(_get_properties, properties, identifier, namespace)
                break
            except Exception as exc:  # pubchempy raises its own HTTP errors
                error = _translate(call.source.id, exc)
                if not isinstance(error, RateLimited) or attempt >= call.config.retries:
                    raise error from None
                await asyncio.sleep(call.config.backoff_s * 2**attempt)
        if not records:
            raise NoRecords(f"{call.source.id}: PubChem has no compound with {namespace} {identifier!r}")
        for record in records:
            if "SMILES" not in record:
                fallback = next((record[k] for k in SMILES_FALLBACKS if k in record), None)
                if fallback is not None:
                    record["SMILES"] = fallback
        request = f"{PUG_REST}/compound/{namespace}/{quote(str(identifier), safe='')}/property/{','.join(properties)}/JSON"
        return FetchResult(records=records, request=request)


def _get_properties(properties: list[str], identifier: Any, namespace: str) -> list[dict[str, Any]]:
    import pubchempy

    return list(pubchempy.get_properties(properties, identifier, namespace))
