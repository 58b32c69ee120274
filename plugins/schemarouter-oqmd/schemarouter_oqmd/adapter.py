"""OQMD adapter: ``/oqmdapi/formationenergy`` through HttpJsonAdapter.

``element_set`` renders into OQMD's ``filter`` (``element_set=Fe-O``, AND-ed with a raw ``filter``);
planned fields go in ``fields``. The current deployment returns ``{links, resource, data, meta,
response_message}``; the older Django REST deployment returned ``{count, next, results}``, which is
read too.
"""

from __future__ import annotations

from typing import Any

from schemarouter.adapters import AdapterSpec, HttpJsonAdapter, StepCall

SPEC = AdapterSpec(records="data", locations={"element_set": "filter"})


class OqmdAdapter(HttpJsonAdapter):
    def __init__(self) -> None:
        super().__init__({"formationenergy": SPEC}, auth_required=False, filter_style="oqmd")

    def extract_records(self, call: StepCall, body: Any) -> list[Any]:
        if isinstance(body, dict) and "data" not in body and isinstance(body.get("results"), list):
            results: list[Any] = body["results"]
            return results
        return super().extract_records(call, body)
