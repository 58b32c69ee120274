"""The PubChem adapter against cassettes built from recorded PUG REST and PUG View responses."""

from __future__ import annotations

import pytest
from schemarouter_pubchem.units import convert, read_value

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

PROPS = ["MolecularFormula", "MolecularWeight", "IUPACName", "SMILES", "InChIKey", "XLogP"]
EXPERIMENTAL = ["melting_point", "boiling_point", "density", "vapor_pressure", "logp", "heat_of_combustion"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("pubchem")


@pytest.mark.vcr("properties_name_aspirin.yaml")
def test_aspirin_properties_cast_and_fall_back_to_isomeric_smiles() -> None:
    step = run_step("pubchem", "compound_properties", {"name": "aspirin"}, PROPS)
    assert step.ok, step.error
    [record] = step.records
    values = record.values
    assert record.record_id == "2244"
    assert values["MolecularWeight"].value == pytest.approx(180.16)  # sent as the string "180.16"
    assert values["MolecularWeight"].unit == "g/mol"
    assert values["MolecularWeight"].source_type == "calculated"  # per-field override
    assert values["MolecularFormula"].value == "C9H8O4" and values["MolecularFormula"].source_type == "curated"
    assert values["SMILES"].value == "CC(=O)OC1=CC=CC=C1C(=O)O"
    assert values["XLogP"].value == pytest.approx(1.2)


@pytest.mark.vcr("properties_cid_5564_formula_weight.yaml")
def test_cid_lookup_with_recorded_body() -> None:
    step = run_step("pubchem", "compound_properties", {"cid": 5564}, ["MolecularFormula", "MolecularWeight"])
    assert step.ok, step.error
    assert step.records[0].values["MolecularWeight"].value == pytest.approx(289.5)


@pytest.mark.vcr("properties_name_unknown_404.yaml")
def test_unknown_name_is_no_records() -> None:
    step = run_step("pubchem", "compound_properties", {"name": "notacompoundxyz"}, PROPS)
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("properties_name_benzene_500.yaml")
def test_server_error_is_http_status() -> None:
    step = run_step("pubchem", "compound_properties", {"name": "benzene"}, PROPS)
    assert step.error is not None and step.error.kind == "http_status"


def test_two_identifiers_are_an_invalid_step() -> None:
    step = run_step("pubchem", "compound_properties", {"name": "aspirin", "cid": 2244}, PROPS)
    assert step.error is not None and step.error.kind == "invalid_step"


@pytest.mark.vcr("pug_view_cid_176.yaml")
def test_experimental_values_are_parsed_and_converted() -> None:
    step = run_step("pubchem", "experimental_properties", {"cid": 176}, EXPERIMENTAL)
    assert step.ok, step.error
    values = step.records[0].values
    assert step.records[0].record_id == "176"
    assert values["melting_point"].value == pytest.approx(16.6) and values["melting_point"].unit == "degC"
    assert values["boiling_point"].value == pytest.approx(117.9)
    assert values["density"].value == pytest.approx(1.0446) and values["density"].unit == "g/cm^3"
    assert values["vapor_pressure"].value == pytest.approx(15.7)
    assert values["logp"].value == pytest.approx(-0.17)
    assert values["heat_of_combustion"].value == pytest.approx(874.2)
    assert "reported value" in (values["melting_point"].note or "")
    assert values["melting_point"].source_type == "experimental"


@pytest.mark.vcr("cids_name_acetic_acid.yaml", "pug_view_cid_176.yaml")
def test_name_is_resolved_to_a_cid_first() -> None:
    step = run_step("pubchem", "experimental_properties", {"name": "acetic acid"}, ["boiling_point"])
    assert step.ok, step.error
    assert step.records[0].record_id == "176"


@pytest.mark.vcr("pug_view_cid_999999999_404.yaml")
def test_unknown_cid_is_no_records() -> None:
    step = run_step("pubchem", "experimental_properties", {"cid": 999999999}, ["melting_point"])
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("pug_view_cid_2244_truncated.yaml")
def test_truncated_pug_view_body_is_unparseable() -> None:
    step = run_step("pubchem", "experimental_properties", {"cid": 2244}, ["melting_point"])
    assert step.error is not None and step.error.kind == "unparseable_body"


@pytest.mark.parametrize(("value", "unit", "expected"), [
    ({"Number": [16.6], "Unit": "°C"}, "degC", 16.6),
    ({"StringWithMarkup": [{"String": "244 °F"}]}, "degC", 117.777778),
    ({"StringWithMarkup": [{"String": "Vapor pressure, kPa at 20 °C: 1.5"}]}, "mmHg", None),
    ({"StringWithMarkup": [{"String": "1.5 kPa"}]}, "mmHg", 11.25093),
    ({"StringWithMarkup": [{"String": "209 kcal/mol"}]}, "kJ/mol", 874.456),
])
def test_unit_parsing_and_conversion(value: dict, unit: str, expected: float | None) -> None:
    parsed = read_value(value)
    assert parsed is not None
    result = convert(parsed[0], parsed[1], unit)
    assert (result is None) if expected is None else result == pytest.approx(expected, rel=1e-4)
