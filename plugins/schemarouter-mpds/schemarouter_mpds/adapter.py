"""MPDS adapter: ``/v0/download/facet`` through HttpJsonAdapter.

The search keys (``props``, ``formulae``, ``elements``, ``classes``, ``sgs``, ``lattices``) are
serialized together as the JSON query parameter ``q``; ``structures`` fixes ``props`` to
``"atomic structure"``. ``property_value`` takes its unit from each record's ``property_units``
(``unit_from``). The key (``MPDS_KEY``, header ``Key``) is required. The envelope is
``{error, out, npages, page, count}``; a non-null ``error`` fails the step with its text.
"""

from __future__ import annotations

from typing import Any

from schemarouter.adapters import AdapterSpec, HttpJsonAdapter, HttpStatusError, NoRecords, StepCall

Q_KEYS = ("props", "formulae", "elements", "classes", "sgs", "lattices")
SPECS = {
    "properties": AdapterSpec(records="out", locations={k: "q_json" for k in Q_KEYS},
                              unit_from={"property_value": "property_units"}),
    "structures": AdapterSpec(records="out", locations={k: "q_json" for k in Q_KEYS},
                              fixed={"props": "atomic structure"}),
}


class MpdsAdapter(HttpJsonAdapter):
    def __init__(self) -> None:
        super().__init__(SPECS, auth_required=True)

    def check_body(self, call: StepCall, body: Any) -> None:
        error = body.get("error") if isinstance(body, dict) else None
        if error:
            if "no results" in str(error).lower() or "nothing found" in str(error).lower():
                raise NoRecords(f"{call.source.id}: {error}")
            raise HttpStatusError(f"{call.source.id}: MPDS error: {error}", 200)
