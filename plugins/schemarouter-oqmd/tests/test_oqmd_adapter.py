"""The OQMD adapter against a cassette built from qmpy_rester's recorded formationenergy results."""

from __future__ import annotations

import pytest

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("oqmd")


@pytest.mark.vcr("formationenergy_element_set_He.yaml")
def test_element_set_renders_into_the_filter() -> None:
    step = run_step("oqmd", "formationenergy", {"element_set": "He", "icsd": True}, ["icsd_id"])
    assert step.ok, step.error
    assert [r.record_id for r in step.records][:1] == ["4177"]
    assert step.records[0].values["icsd_id"].value == 22384
    assert "filter=element_set%3DHe" in (step.request or "") and "fields=entry_id%2Cicsd_id" in (step.request or "")


@pytest.mark.vcr("formationenergy_legacy_results.yaml")
def test_legacy_results_envelope_is_read() -> None:
    step = run_step("oqmd", "formationenergy", {"element_set": "He"}, ["icsd_id"])
    assert step.ok, step.error
    assert len(step.records) == 5


@pytest.mark.vcr("formationenergy_empty.yaml")
def test_empty_data_is_no_records() -> None:
    step = run_step("oqmd", "formationenergy", {"composition": "He2Xe"}, ["icsd_id"])
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("formationenergy_502.yaml")
def test_502_is_http_status() -> None:
    step = run_step("oqmd", "formationenergy", {"composition": "Fe2O3"}, ["icsd_id"])
    assert step.error is not None and step.error.kind == "http_status" and "502" in step.error.message
