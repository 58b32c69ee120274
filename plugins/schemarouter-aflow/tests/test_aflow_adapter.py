"""The AFLOW adapter against a recorded legacy AFLUX page (Egap >= 6 eV)."""

from __future__ import annotations

import pytest

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

FIELDS = ["compound", "Egap", "agl_thermal_conductivity_300K"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("aflow")


@pytest.mark.vcr("aflux_Egap_ge6_page1.yaml")
def test_legacy_keyed_object_and_string_numbers() -> None:
    step = run_step("aflow", "aflux", {"Egap": "6*", "paging": "1,20"}, FIELDS)
    assert step.ok, step.error
    first = step.records[0]
    assert first.record_id == "aflow:db1f17a6f945c29b"
    assert first.values["compound"].value == "Be1O1"
    assert first.values["Egap"].value == pytest.approx(6.8531) and first.values["Egap"].unit == "eV"
    assert first.values["agl_thermal_conductivity_300K"].value == pytest.approx(83.0737)
    assert all(r.values["Egap"].value >= 6 for r in step.records)
    assert "?Egap(6*),paging(1,20),auid,compound,agl_thermal_conductivity_300K,format(json)" in (step.request or "")


@pytest.mark.vcr("aflux_empty.yaml")
def test_empty_list_is_no_records() -> None:
    step = run_step("aflow", "aflux", {"species": "Og,Ts"}, FIELDS)
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("aflux_truncated.yaml")
def test_truncated_body_is_unparseable() -> None:
    step = run_step("aflow", "aflux", {"species": "Si", "nspecies": 1}, FIELDS)
    assert step.error is not None and step.error.kind == "unparseable_body"
