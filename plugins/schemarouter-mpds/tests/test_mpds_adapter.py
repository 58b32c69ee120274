"""The MPDS adapter against SYNTHETIC cassettes built from MPDS's documented schema (no public recording exists)."""

from __future__ import annotations

import pytest

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

FIELDS = ["chemical_formula", "property_name", "property_value", "property_units"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("mpds")


@pytest.mark.vcr("properties_bulk_modulus_SrTiO_SYNTHETIC.yaml")
def test_q_json_and_unit_from() -> None:
    params = {"props": "isothermal bulk modulus", "elements": "Sr-Ti-O", "pagesize": 10}
    step = run_step("mpds", "properties", params, FIELDS)
    assert step.ok, step.error
    first, second = step.records
    assert first.record_id == "P600028"
    assert first.values["property_value"].value == 179 and first.values["property_value"].unit == "GPa"
    assert second.values["property_value"].value is None  # "n/a" -> typed null
    assert "q=%7B%22props%22" in (step.request or "")


@pytest.mark.vcr("structures_SrTiO3_SYNTHETIC.yaml")
def test_structures_fix_props_to_atomic_structure() -> None:
    step = run_step("mpds", "structures", {"formulae": "SrTiO3", "sgs": 221}, ["chemical_formula", "sg_n", "cell_abc"])
    assert step.ok, step.error
    values = step.records[0].values
    assert values["sg_n"].value == 221 and values["cell_abc"].value[:3] == [3.905, 3.905, 3.905]
    assert "atomic+structure" in (step.request or "")


@pytest.mark.vcr("properties_empty_SYNTHETIC.yaml")
def test_empty_out_is_no_records() -> None:
    params = {"props": "superconducting transition temperature", "elements": "Og"}
    step = run_step("mpds", "properties", params, FIELDS)
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("properties_429_SYNTHETIC.yaml")
def test_429_is_rate_limited() -> None:
    step = run_step("mpds", "properties", {"props": "band gap", "elements": "Si"}, FIELDS)
    assert step.error is not None and step.error.kind == "rate_limited"


def test_missing_key_names_mpds_key() -> None:
    step = run_step("mpds", "properties", {"props": "band gap"}, FIELDS, env={})
    assert step.error is not None and "MPDS_KEY" in step.error.message
