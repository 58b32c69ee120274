"""OpenDART adapter: ``company`` and ``financial_statement`` through HttpJsonAdapter.

* ``corp_name`` is resolved client-side: ``corpCode.xml`` (a ZIP holding ``CORPCODE.xml``, every
  company's 8-digit code) is downloaded once per process and searched by name (exact after
  normalising spaces and ``(주)``; listed companies first). It is never sent to the API.
* OpenDART answers HTTP 200 with a ``status`` code: ``000`` OK, ``013`` no data, ``020`` request
  limit exceeded, ``010``/``011`` key problems; these become typed step errors.
* Amounts are KRW strings with thousands separators; the executor casts them to numbers.
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
import zipfile
from typing import Any

import httpx

from schemarouter.adapters import (
    AdapterSpec,
    HttpJsonAdapter,
    HttpStatusError,
    InvalidStep,
    NoRecords,
    RateLimited,
    StepCall,
    UnparseableBody,
)

SPECS = {
    "company": AdapterSpec(records="", locations={"corp_name": "client"}),
    "financial_statement": AdapterSpec(records="list", locations={"corp_name": "client"}),
}
CORP_CODE_URL = "https://opendart.fss.or.kr/api/corpCode.xml"
STATUS_ERRORS = {"010": "unregistered API key", "011": "API key not usable", "012": "IP not allowed",
                 "100": "invalid field value", "101": "invalid parameter", "800": "service paused for maintenance",
                 "900": "undefined error"}


def normalise(name: str) -> str:
    return re.sub(r"\s+|\(주\)|㈜|주식회사", "", name).lower()


def normalise_english(name: str) -> str:
    """``SAMSUNG ELECTRONICS CO,.LTD`` and ``Samsung Electronics`` -> ``samsungelectronics``."""
    words = re.sub(r"[^a-z0-9 ]+", " ", name.lower()).split()
    suffixes = {"co", "ltd", "inc", "corp", "corporation", "company", "limited", "the"}
    return "".join(w for w in words if w not in suffixes)


def parse_corp_codes(zipped: bytes) -> list[dict[str, str]]:
    with zipfile.ZipFile(io.BytesIO(zipped)) as archive:
        xml_name = next(n for n in archive.namelist() if n.lower().endswith(".xml"))
        root = ET.fromstring(archive.read(xml_name))
    return [{child.tag: (child.text or "").strip() for child in item} for item in root.iter("list")]


class DartAdapter(HttpJsonAdapter):
    def __init__(self) -> None:
        super().__init__(SPECS, auth_required=True)
        self._corp_codes: list[dict[str, str]] | None = None

    async def _codes(self, call: StepCall) -> list[dict[str, str]]:
        if self._corp_codes is None:
            key = call.api_key(required=True)
            response = await call.send(httpx.Request("GET", CORP_CODE_URL, params={"crtfc_key": key or ""}))
            if response.status >= 400:
                raise HttpStatusError(f"{call.source.id}: corpCode.xml HTTP {response.status}", response.status)
            try:
                self._corp_codes = parse_corp_codes(response.content)
            except (zipfile.BadZipFile, ET.ParseError, StopIteration):
                # An error comes back as JSON/XML status instead of the ZIP.
                raise UnparseableBody(f"{call.source.id}: corpCode.xml is not the expected ZIP of CORPCODE.xml") from None
        return self._corp_codes

    async def resolve_client_params(self, call: StepCall, params: dict[str, Any]) -> dict[str, Any]:
        name = params.pop("corp_name", None)
        if params.get("corp_code") or not name:
            if not params.get("corp_code"):
                raise InvalidStep(f"{call.source.id}.{call.endpoint.id} needs corp_code or corp_name")
            return params
        wanted, wanted_en = normalise(str(name)), normalise_english(str(name))
        matches = [c for c in await self._codes(call) if normalise(c.get("corp_name", "")) == wanted
                   or (wanted_en and normalise_english(c.get("corp_eng_name", "")) == wanted_en)]
        if not matches:
            raise NoRecords(f"{call.source.id}: no company named {name!r} in corpCode.xml")
        matches.sort(key=lambda c: (c.get("stock_code", "") == "", c.get("corp_code", "")))
        params["corp_code"] = matches[0]["corp_code"]
        return params

    def check_body(self, call: StepCall, body: Any) -> None:
        status = str(body.get("status", "000")) if isinstance(body, dict) else "000"
        if status == "000":
            return
        message = body.get("message", "")
        if status == "013":
            raise NoRecords(f"{call.source.id}: no data ({message})")
        if status == "020":
            raise RateLimited(f"{call.source.id}: request limit exceeded (status 020: {message})")
        raise HttpStatusError(
            f"{call.source.id}: OpenDART status {status} ({STATUS_ERRORS.get(status, 'error')}): {message}", 200)
