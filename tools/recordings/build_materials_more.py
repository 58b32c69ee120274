"""Cassettes for oqmd, jarvis_dft, materials_cloud, aflow, nomad and mpds.

Provenance per file is in each ``../<source>/README.md``.
"""

from __future__ import annotations

import json

from cassettelib import REFERENCE, adapter_request, interaction, load_json, write

OPTIMADE_META = {"api_version": "1.1.0", "more_data_available": False, "schema": None}


def optimade_envelope(data: list, url: str) -> dict:
    """The OPTIMADE list-response envelope (spec v1.1: data, meta, links) around recorded data items."""
    return {"data": data, "meta": {**OPTIMADE_META, "query": {"representation": url.split(".org", 1)[-1]},
                                   "data_returned": len(data), "data_available": len(data)},
            "links": {"next": None}}


def oqmd() -> None:
    records = load_json("oqmd/oqmd_oqmdapi_formationenergy_element_set_He_icsd_T_results_array_only.json")
    cut = [{k: r[k] for k in ("entry_id", "icsd_id") if k in r} for r in records]
    method, uri, _ = adapter_request("oqmd", "formationenergy", {"element_set": "He", "icsd": True}, ["icsd_id"])
    envelope = {"links": {"next": None, "base_url": {"href": "https://oqmd.org/oqmdapi"}},
                "resource": {}, "data": cut,
                "meta": {"query": {"representation": "/formationenergy?" + uri.split("?", 1)[1]},
                         "api_version": "1.0", "more_data_available": False, "data_returned": len(cut),
                         "data_available": len(cut)},
                "response_message": "OK"}
    write("oqmd", "formationenergy_element_set_He.yaml", [interaction(method, uri, envelope)])
    method, uri, _ = adapter_request("oqmd", "formationenergy", {"composition": "He2Xe"}, ["icsd_id"])
    write("oqmd", "formationenergy_empty.yaml", [interaction(method, uri, {**envelope, "data": [],
                                                                             "meta": {**envelope["meta"], "data_returned": 0}})])
    legacy = {"count": len(cut), "next": None, "previous": None, "results": cut}
    method, uri, _ = adapter_request("oqmd", "formationenergy", {"element_set": "He"}, ["icsd_id"])
    write("oqmd", "formationenergy_legacy_results.yaml", [interaction(method, uri, legacy)])
    method, uri, _ = adapter_request("oqmd", "formationenergy", {"composition": "Fe2O3"}, ["icsd_id"])
    write("oqmd", "formationenergy_502.yaml", [interaction(method, uri, "<html>502 Bad Gateway</html>", status=502,
                                                           content_type="text/html")])


JARVIS_FIELDS = ["chemical_formula_reduced", "optb88vdw_bandgap", "mbj_bandgap", "formation_energy_peratom",
                 "ehull", "bulk_modulus_kv", "shear_modulus_gv"]


def jarvis() -> None:
    data = load_json("jarvis_dft/jarvis_optimade_jarvisdft_v1_structures_filter_elements_HAS_ALL_C_Si_all_pages_"
                     "data_items_converted_from_notebook_output.json")
    method, uri, _ = adapter_request("jarvis_dft", "structures", {"elements": "C,Si"}, JARVIS_FIELDS)
    write("jarvis_dft", "structures_elements_C_Si.yaml", [interaction(method, uri, optimade_envelope(data, uri))])
    csi = [item for item in data if item["attributes"].get("chemical_formula_reduced") == "CSi"]
    method, uri, _ = adapter_request("jarvis_dft", "structures", {"chemical_formula_reduced": "CSi"}, JARVIS_FIELDS)
    write("jarvis_dft", "structures_formula_CSi.yaml", [interaction(method, uri, optimade_envelope(csi, uri))])
    method, uri, _ = adapter_request("jarvis_dft", "structures", {"elements": "Og,Ts"}, JARVIS_FIELDS)
    write("jarvis_dft", "structures_empty.yaml", [interaction(method, uri, optimade_envelope([], uri))])
    method, uri, _ = adapter_request("jarvis_dft", "structures", {"filter": "nelements >"}, JARVIS_FIELDS)
    error = {"errors": [{"status": "400", "title": "Bad Request",
                         "detail": "Error trying to process rule 'expression' ... unexpected end of input"}],
             "meta": {**OPTIMADE_META, "query": {"representation": "/structures"}}}
    write("jarvis_dft", "structures_bad_filter_400.yaml", [interaction(method, uri, error, status=400)])


def materials_cloud() -> None:
    recorded = load_json("optimade/optimade_mcloud_mc2d_structures_list_response.json")
    fields = ["chemical_formula_reduced", "lattice_vectors", "cell_volume", "total_energy"]
    method, uri, _ = adapter_request("materials_cloud", "structures", {"elements": "Te"}, fields)
    write("materials_cloud", "structures_elements_Te_mc2d_recording.yaml", [interaction(method, uri, recorded)])
    method, uri, _ = adapter_request("materials_cloud", "structures", {"chemical_formula_reduced": "XeOg"}, fields)
    empty = {**recorded, "data": [], "meta": {**recorded["meta"], "data_returned": 0, "more_data_available": False},
             "links": {"next": None}}
    write("materials_cloud", "structures_empty.yaml", [interaction(method, uri, empty)])
    method, uri, _ = adapter_request("materials_cloud", "structures", {"mc3d_id": "mc3d-1234"}, fields)
    write("materials_cloud", "structures_503.yaml", [interaction(method, uri, "Service Unavailable", status=503,
                                                                 content_type="text/plain")])


def aflow() -> None:
    fields = ["compound", "Egap", "agl_thermal_conductivity_300K"]
    recorded = (REFERENCE / "aflow/aflow_aflux_search_Egap_ge6_agl_thermal_conductivity_300K_page_response.json").read_text()
    method, uri, _ = adapter_request("aflow", "aflux", {"Egap": "6*", "paging": "1,20"}, fields)
    write("aflow", "aflux_Egap_ge6_page1.yaml", [interaction(method, uri, recorded)])
    method, uri, _ = adapter_request("aflow", "aflux", {"species": "Og,Ts"}, fields)
    write("aflow", "aflux_empty.yaml", [interaction(method, uri, [])])
    method, uri, _ = adapter_request("aflow", "aflux", {"species": "Si", "nspecies": 1}, fields)
    write("aflow", "aflux_truncated.yaml", [interaction(method, uri, recorded[:300])])


def nomad() -> None:
    docs = (REFERENCE / "nomad/nomad_v1_entries_query_POST_elements_all_Ti_O_page_size1_production_docs_example.json").read_text()
    method, uri, body = adapter_request("nomad", "entries_query",
                                        {"results.material.elements": "Ti,O", "pagination.page_size": 1}, [])
    write("nomad", "entries_query_Ti_O_docs_example.yaml", [interaction(method, uri, docs, request_body=body)])
    page = json.loads((REFERENCE / "nomad/nomad_v1_gui_test_recording_local_test_server_entries_query_POST_first_"
                       "interaction_TRIMMED.json").read_text())
    recorded = next(iter(page.values()))[0]["response"]["body"]
    fields = ["chemical_formula_reduced", "xc_functional_names"]
    method, uri, body = adapter_request("nomad", "entries_query", {"results.method.simulation.program_name": "VASP"},
                                        fields)
    write("nomad", "entries_query_vasp_gui_test_server.yaml", [interaction(method, uri, recorded, request_body=body)])
    dft = json.loads((REFERENCE / "nomad/nomad_v1_gui_test_recording_local_test_server_entries_dft_bulk_GET_query_archive.json").read_text())
    zero = next(i["response"]["body"] for ix in dft.values() for i in ix
                if i["request"]["method"] == "POST" and i["request"]["url"].endswith("/entries/query"))
    method, uri, body = adapter_request("nomad", "entries_query", {"entry_id": "no-such-entry"}, fields)
    write("nomad", "entries_query_zero_hits_gui_test_server.yaml", [interaction(method, uri, zero, request_body=body)])
    method, uri, body = adapter_request("nomad", "entries_query", {"pagination.page_size": -1}, fields)
    error = {"detail": [{"loc": ["body", "pagination", "page_size"], "msg": "ensure this value is greater than or equal to 0",
                         "type": "value_error.number.not_ge"}]}
    write("nomad", "entries_query_422.yaml", [interaction(method, uri, error, status=422, request_body=body)])


def mpds() -> None:
    """No genuine MPDS response exists publicly: bodies follow the documented envelope and MIF P-entry schema."""
    fields = ["chemical_formula", "property_name", "property_value", "property_units"]
    params = {"props": "isothermal bulk modulus", "elements": "Sr-Ti-O", "pagesize": 10}
    method, uri, _ = adapter_request("mpds", "properties", params, fields)
    entries = [
        {"sample": {"material": {"entry": "P600028", "chemical_formula": "SrTiO3", "phase_id": 2000},
                    "measurement": [{"property": {"name": "isothermal bulk modulus", "units": "GPa", "scalar": 179},
                                     "condition": [{"name": "Temperature", "units": "K", "scalar": 300}]}]},
         "version": "1.2.0", "object_type": "P",
         "reference": {"entry": "https://mpds.io/entry/P600028", "phase": "https://mpds.io/phase/2000"}},
        {"sample": {"material": {"entry": "P600031", "chemical_formula": "SrTiO3", "phase_id": 2000},
                    "measurement": [{"property": {"name": "isothermal bulk modulus", "units": "GPa", "scalar": "n/a"},
                                     "condition": []}]},
         "version": "1.2.0", "object_type": "P",
         "reference": {"entry": "https://mpds.io/entry/P600031", "phase": "https://mpds.io/phase/2000"}},
    ]
    write("mpds", "properties_bulk_modulus_SrTiO_SYNTHETIC.yaml",
          [interaction(method, uri, {"error": None, "out": entries, "npages": 1, "page": 0, "count": 2})])
    method, uri, _ = adapter_request("mpds", "structures", {"formulae": "SrTiO3", "sgs": 221}, ["chemical_formula", "sg_n", "cell_abc"])
    structure = {"entry": "S377634", "chemical_formula": "SrTiO3", "sg_n": 221, "phase_id": 2000,
                 "cell_abc": [3.905, 3.905, 3.905, 90, 90, 90], "basis_noneq": [[0, 0, 0], [0.5, 0.5, 0.5], [0.5, 0.5, 0]],
                 "els_noneq": ["Sr", "Ti", "O"]}
    write("mpds", "structures_SrTiO3_SYNTHETIC.yaml",
          [interaction(method, uri, {"error": None, "out": [structure], "npages": 1, "page": 0, "count": 1})])
    method, uri, _ = adapter_request("mpds", "properties", {"props": "superconducting transition temperature", "elements": "Og"}, fields)
    write("mpds", "properties_empty_SYNTHETIC.yaml",
          [interaction(method, uri, {"error": None, "out": [], "npages": 0, "page": 0, "count": 0})])
    method, uri, _ = adapter_request("mpds", "properties", {"props": "band gap", "elements": "Si"}, fields)
    write("mpds", "properties_429_SYNTHETIC.yaml",
          [interaction(method, uri, {"error": "Too many requests, please decrease the request rate"}, status=429)])


if __name__ == "__main__":
    for build in (oqmd, jarvis, materials_cloud, aflow, nomad, mpds):
        build()
