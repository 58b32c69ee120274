"""The Materials Cloud adapter against a recorded Materials Cloud OPTIMADE list response (MC2D, 2021)."""

from __future__ import annotations

import pytest

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

FIELDS = ["chemical_formula_reduced", "lattice_vectors", "cell_volume", "total_energy"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("materials_cloud")


@pytest.mark.vcr("structures_elements_Te_mc2d_recording.yaml")
def test_optimade_records_project_standard_attributes() -> None:
    step = run_step("materials_cloud", "structures", {"elements": "Te"}, FIELDS)
    assert step.ok, step.error
    assert len(step.records) == 15
    first = step.records[0]
    assert first.record_id == "98688"  # MC2D has no _mcloud_mc3d_id: the OPTIMADE id is used
    assert first.values["chemical_formula_reduced"].value == "Te"
    assert first.values["lattice_vectors"].value == [[20, 0, 0], [0, 20, 0], [0, 0, 20]]
    assert first.values["total_energy"].value is None  # an MC3D-only attribute


@pytest.mark.vcr("structures_empty.yaml")
def test_empty_data_is_no_records() -> None:
    step = run_step("materials_cloud", "structures", {"chemical_formula_reduced": "XeOg"}, FIELDS)
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("structures_503.yaml")
def test_503_is_http_status() -> None:
    step = run_step("materials_cloud", "structures", {"mc3d_id": "mc3d-1234"}, FIELDS)
    assert step.error is not None and step.error.kind == "http_status"
