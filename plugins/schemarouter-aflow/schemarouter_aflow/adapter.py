"""AFLOW adapter: AFLUX through HttpJsonAdapter (``aflux_keywords`` projection).

The whole query string is the matchbook: conditions ``species(Si,O)``, ``Egap(6*)``, then the
planned fields as bare keywords, then ``paging(...)`` and ``format(json)``. Legacy AFLUX answers an
object keyed ``"1 of N"``, ``"2 of N"``; newer AFLUX a list. Values arrive as strings and are cast.
"""

from __future__ import annotations

import re
from typing import Any

import httpx

from schemarouter.adapters import AdapterSpec, HttpJsonAdapter, RequestParts, StepCall, scalar_text

MATCHBOOK = "matchbook"  # where AFLUX takes a condition: inside the query string, as key(value)
SPEC = AdapterSpec(records="", fixed={"format": "json"}, locations={
    name: MATCHBOOK for name in ("species", "nspecies", "auid", "Egap", "catalog", "paging")})
ORDINAL_KEY = re.compile(r"^\d+ of \d+$")


def render_matchbook(terms: list[tuple[str, Any]], keywords: list[str], fixed: dict[str, Any]) -> str:
    """``species(Si,O),Egap(6*),keyword,format(json)``: conditions, bare keywords (the planned
    fields), then directives."""
    parts = [f"{key}({scalar_text(value)})" for key, value in terms]
    parts.extend(k for k in keywords if k not in {key for key, _ in terms})
    parts.extend(f"{key}({scalar_text(value)})" for key, value in fixed.items())
    return ",".join(parts)


class AflowAdapter(HttpJsonAdapter):
    def __init__(self) -> None:
        super().__init__({"aflux": SPEC}, auth_required=False)

    def assemble(self, call: StepCall, parts: RequestParts) -> httpx.Request:
        """AFLUX takes the whole matchbook as the raw query string, not key=value pairs."""
        fixed = self.spec(call.endpoint.id).fixed
        terms = [(name, value) for location, name, value in parts.custom if location == MATCHBOOK and name not in fixed]
        return httpx.Request(parts.method, f"{parts.url}?{render_matchbook(terms, parts.keys, dict(fixed))}",
                             headers=parts.headers)

    def extract_records(self, call: StepCall, body: Any) -> list[Any]:
        if isinstance(body, dict) and body and all(ORDINAL_KEY.match(k) for k in body):
            return [body[k] for k in sorted(body, key=lambda k: int(k.split()[0]))]
        return super().extract_records(call, body)
