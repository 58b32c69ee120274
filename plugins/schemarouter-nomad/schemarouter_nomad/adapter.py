"""NOMAD adapter: ``POST /entries/query`` with a JSON body, through HttpJsonAdapter.

Parameters go into the body's ``query`` object under their dotted names verbatim
(``results.material.elements``, rendered as ``{"all": [...]}``), ``pagination.page_size`` into
``pagination``, ``owner`` is fixed to ``public``, and the planned fields become
``required.include`` (full paths without list selectors). Values keep NOMAD's SI units (J, Pa,
kg/m^3), as declared; nothing is converted.
"""

from __future__ import annotations

from typing import Any

from schemarouter.adapters import AdapterSpec, HttpJsonAdapter, StepCall, as_list

SPEC = AdapterSpec(records="data", fixed={"owner": "public"}, locations={
    "results.material.elements": "body_query", "results.material.chemical_formula_reduced": "body_query",
    "entry_id": "body_query", "results.method.simulation.program_name": "body_query",
    "pagination.page_size": "body"})
ALL_OF = {"results.material.elements"}


class NomadAdapter(HttpJsonAdapter):
    def __init__(self) -> None:
        super().__init__({"entries_query": SPEC}, auth_required=False)

    async def resolve_client_params(self, call: StepCall, params: dict[str, Any]) -> dict[str, Any]:
        for name in ALL_OF & set(params):
            if params[name] is not None and not isinstance(params[name], dict):
                params[name] = {"all": [str(v) for v in as_list(params[name])]}
        return params
