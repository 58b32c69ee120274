"""The Materials Project adapter against cassettes built from the recorded 2022 summary records.

The cassettes hold mp-api's real request (``_fields`` = the planned fields' projection keys) and
the recorded SummaryDoc data wrapped in the documented envelope; see cassettes/materials_project/README.md.
"""

from __future__ import annotations

import pytest
from schemarouter_materials_project.adapter import search_kwargs

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

FIELDS = ["formula_pretty", "formation_energy_per_atom", "energy_above_hull", "is_stable", "density",
          "spacegroup_symbol"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("materials_project")


@pytest.mark.vcr("summary_formula_SmPO4.yaml")
def test_formula_lookup_projects_declared_paths() -> None:
    step = run_step("materials_project", "summary", {"formula": "SmPO4"}, FIELDS)
    assert step.ok, step.error
    [record] = step.records
    assert record.record_id == "mp-1102486"
    values = record.values
    assert values["formation_energy_per_atom"].value == pytest.approx(-3.4798, abs=1e-4)
    assert values["formation_energy_per_atom"].unit == "eV/atom"
    assert values["spacegroup_symbol"].value == "I4_1/amd"  # symmetry.symbol
    assert values["is_stable"].value is True
    assert values["density"].license == "CC-BY-4.0" and values["density"].source_type == "calculated"


@pytest.mark.vcr("summary_formula_C.yaml")
def test_several_records_each_keep_their_identifier() -> None:
    step = run_step("materials_project", "summary", {"formula": "C"}, FIELDS)
    assert step.ok, step.error
    assert {r.record_id for r in step.records} == {"mp-1181996", "mp-998866"}
    assert all(r.values["is_stable"].value is False for r in step.records)


@pytest.mark.vcr("summary_formula_Xe_empty.yaml")
def test_empty_result_is_no_records() -> None:
    step = run_step("materials_project", "summary", {"formula": "Xe"}, FIELDS)
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("summary_formula_Zz_500.yaml")
def test_server_error_is_http_status() -> None:
    step = run_step("materials_project", "summary", {"formula": "Zz"}, FIELDS)
    assert step.error is not None and step.error.kind == "http_status" and "500" in step.error.message


def test_missing_key_fails_before_network() -> None:
    step = run_step("materials_project", "summary", {"formula": "SmPO4"}, FIELDS, env={})
    assert step.error is not None and step.error.kind == "missing_credentials"
    assert "MP_API_KEY" in step.error.message


def test_range_and_list_parameters_become_search_arguments() -> None:
    kwargs = search_kwargs({"band_gap_min": 1, "band_gap_max": "3", "elements": "Li,Fe,O", "_per_page": 5})
    assert kwargs == {"band_gap": (1.0, 3.0), "elements": ["Li", "Fe", "O"], "chunk_size": 5, "num_chunks": 1}
