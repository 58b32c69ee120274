"""The JARVIS-DFT adapter against the JARVIS team's recorded OPTIMADE data items (C-Si)."""

from __future__ import annotations

import pytest

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

FIELDS = ["chemical_formula_reduced", "optb88vdw_bandgap", "mbj_bandgap", "formation_energy_peratom",
          "ehull", "bulk_modulus_kv", "shear_modulus_gv"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("jarvis_dft")


@pytest.mark.vcr("structures_elements_C_Si.yaml")
def test_elements_filter_dedupes_pages_and_nulls_sentinels() -> None:
    step = run_step("jarvis_dft", "structures", {"elements": "C,Si"}, FIELDS)
    assert step.ok, step.error
    ids = [r.record_id for r in step.records]
    assert len(ids) == 13 == len(set(ids))  # 19 printed items, 13 distinct ids
    sic = next(r for r in step.records if r.record_id == "JVASP-182")
    assert sic.values["optb88vdw_bandgap"].value == pytest.approx(2.303)
    assert sic.values["optb88vdw_bandgap"].unit == "eV"
    assert sic.values["bulk_modulus_kv"].value == pytest.approx(213.28)
    assert 'filter=elements+HAS+ALL+%22C%22%2C%22Si%22' in (step.request or "")
    # -99999 is JARVIS's missing value: it must never show up as a number
    assert all(v.value != -99999 for r in step.records for v in r.values.values())


@pytest.mark.vcr("structures_formula_CSi.yaml")
def test_formula_filter_is_an_optimade_string_comparison() -> None:
    step = run_step("jarvis_dft", "structures", {"chemical_formula_reduced": "CSi"}, FIELDS)
    assert step.ok, step.error
    assert all(r.values["chemical_formula_reduced"].value == "CSi" for r in step.records)
    assert "filter=chemical_formula_reduced%3D%22CSi%22" in (step.request or "")


@pytest.mark.vcr("structures_empty.yaml")
def test_empty_data_is_no_records() -> None:
    step = run_step("jarvis_dft", "structures", {"elements": "Og,Ts"}, FIELDS)
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("structures_bad_filter_400.yaml")
def test_bad_filter_is_http_400_with_detail() -> None:
    step = run_step("jarvis_dft", "structures", {"filter": "nelements >"}, FIELDS)
    assert step.error is not None and step.error.kind == "http_status" and "400" in step.error.message
