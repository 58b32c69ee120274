"""Cassettes for pubchem (see ../pubchem/README.md for provenance)."""

from __future__ import annotations

from cassettelib import REFERENCE, interaction, load_json, write

PUG = "https://pubchem.ncbi.nlm.nih.gov/rest/pug"
ALL_PROPS = "pubchem/pubchem_pug_compound_cid_5564_2244_property_all_props_JSON_httptest_mock.json"
TWO_PROPS = "pubchem/pubchem_pug_compound_cid_5564_property_MolecularFormula_MolecularWeight_JSON_httptest_mock.json"
PUG_VIEW = ("experimental_thermochemistry/"
            "pubchem_pug_view_compound_176_acetic_acid_TRIMMED_to_Chemical_and_Physical_Properties_section.json")
PROPS = ["MolecularFormula", "MolecularWeight", "IUPACName", "SMILES", "InChIKey", "XLogP"]
FORM = "application/x-www-form-urlencoded"


def fault(code: str, message: str) -> dict:
    """The PUG REST error envelope (documented shape {Fault: {Code, Message, Details}})."""
    return {"Fault": {"Code": code, "Message": message, "Details": []}}


def main() -> None:
    aspirin = next(p for p in load_json(ALL_PROPS)["PropertyTable"]["Properties"] if p["CID"] == 2244)
    wanted = ["CID", *PROPS, "IsomericSMILES"]  # the 2023 server had no SMILES key: keep IsomericSMILES
    cut = {k: aspirin[k] for k in wanted if k in aspirin}
    props_uri = f"{PUG}/compound/name/property/{','.join(PROPS)}/JSON"
    write("pubchem", "properties_name_aspirin.yaml", [
        interaction("POST", props_uri, {"PropertyTable": {"Properties": [cut]}}, request_body="name=aspirin"),
    ])
    write("pubchem", "properties_cid_5564_formula_weight.yaml", [
        interaction("POST", f"{PUG}/compound/cid/property/MolecularFormula,MolecularWeight/JSON",
                    (REFERENCE / TWO_PROPS).read_text(encoding="utf-8"), request_body="cid=5564"),
    ])
    write("pubchem", "properties_name_unknown_404.yaml", [
        interaction("POST", props_uri, fault("PUGREST.NotFound", "No CID found"), status=404,
                    request_body="name=notacompoundxyz"),
    ])
    write("pubchem", "properties_name_benzene_500.yaml", [
        interaction("POST", props_uri, fault("PUGREST.ServerError", "Internal server error"), status=500,
                    request_body="name=benzene"),
    ])
    view = (REFERENCE / PUG_VIEW).read_text(encoding="utf-8")
    view_uri = "https://pubchem.ncbi.nlm.nih.gov/rest/pug_view/data/compound/176/JSON"
    write("pubchem", "pug_view_cid_176.yaml", [interaction("GET", view_uri, view)])
    write("pubchem", "cids_name_acetic_acid.yaml", [
        interaction("GET", f"{PUG}/compound/name/acetic%20acid/cids/JSON", {"IdentifierList": {"CID": [176]}}),
    ])
    write("pubchem", "pug_view_cid_999999999_404.yaml", [
        interaction("GET", "https://pubchem.ncbi.nlm.nih.gov/rest/pug_view/data/compound/999999999/JSON",
                    fault("PUGVIEW.NotFound", "Record not found"), status=404),
    ])
    write("pubchem", "pug_view_cid_2244_truncated.yaml", [
        interaction("GET", "https://pubchem.ncbi.nlm.nih.gov/rest/pug_view/data/compound/2244/JSON",
                    view[:5000]),
    ])


if __name__ == "__main__":
    main()
