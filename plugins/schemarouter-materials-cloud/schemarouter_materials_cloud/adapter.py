"""Materials Cloud MC3D adapter: its OPTIMADE ``/v1/structures`` through :class:`OptimadeAdapter`.

``mc3d_id`` and the other provider fields are ``_mcloud_*`` attributes; the filter and
``response_fields`` use those names.
"""

from __future__ import annotations

from schemarouter.adapters import AdapterSpec, OptimadeAdapter

SPEC = AdapterSpec(records="data", locations={"mc3d_id": "filter", "chemical_formula_reduced": "filter",
                                              "elements": "filter"})

ADAPTER = OptimadeAdapter({"structures": SPEC})
