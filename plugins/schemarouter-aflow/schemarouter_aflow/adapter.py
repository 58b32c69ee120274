"""AFLOW adapter: AFLUX through HttpJsonAdapter (``aflux_keywords`` projection).

The whole query string is the matchbook: conditions ``species(Si,O)``, ``Egap(6*)``, then the
planned fields as bare keywords, then ``paging(...)`` and ``format(json)``. Legacy AFLUX answers an
object keyed ``"1 of N"``, ``"2 of N"``; newer AFLUX a list. Values arrive as strings and are cast.
"""

from __future__ import annotations

import re
from typing import Any

from schemarouter.adapters import AdapterSpec, HttpJsonAdapter, StepCall

SPEC = AdapterSpec(records="", fixed={"format": "json"}, locations={
    name: "matchbook" for name in ("species", "nspecies", "auid", "Egap", "catalog", "paging")})
ORDINAL_KEY = re.compile(r"^\d+ of \d+$")


class AflowAdapter(HttpJsonAdapter):
    def __init__(self) -> None:
        super().__init__({"aflux": SPEC}, auth_required=False)

    def extract_records(self, call: StepCall, body: Any) -> list[Any]:
        if isinstance(body, dict) and body and all(ORDINAL_KEY.match(k) for k in body):
            return [body[k] for k in sorted(body, key=lambda k: int(k.split()[0]))]
        return super().extract_records(call, body)
