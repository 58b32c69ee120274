"""JARVIS-DFT adapter: the JARVIS OPTIMADE endpoint through :class:`OptimadeAdapter`.

``jid`` (``JVASP-1002``) is filtered as the OPTIMADE ``id`` (its numeric part), because entries
carry the JVASP id only inside ``_jarvis_reference``; when ``_jarvis_jid`` is absent it is read from
that reference URL. Missing values are ``-99999`` and become nulls in the cast.
"""

from __future__ import annotations

import re
from typing import Any

import httpx

from schemarouter.adapters import AdapterSpec, OptimadeAdapter, StepCall

SPEC = AdapterSpec(records="data", locations={"jid": "filter", "chemical_formula_reduced": "filter",
                                              "elements": "filter"})
JVASP = re.compile(r"JVASP-(\d+)")


class JarvisAdapter(OptimadeAdapter):
    def __init__(self) -> None:
        super().__init__({"structures": SPEC})

    def build_request(self, call: StepCall, params: dict[str, Any]) -> httpx.Request:
        jid = params.pop("jid", None)
        if jid:
            match = JVASP.search(str(jid))
            number = match.group(1) if match else str(jid)
            raw = f'id="{number}"'
            params["filter"] = f"({params['filter']}) AND {raw}" if params.get("filter") else raw
        return super().build_request(call, params)

    def extract_records(self, call: StepCall, body: Any) -> list[Any]:
        records = super().extract_records(call, body)
        for record in records:
            attributes = record.get("attributes") if isinstance(record, dict) else None
            if isinstance(attributes, dict) and not attributes.get("_jarvis_jid"):
                match = JVASP.search(str(attributes.get("_jarvis_reference") or ""))
                if match:
                    attributes["_jarvis_jid"] = f"JVASP-{match.group(1)}"
        return records
