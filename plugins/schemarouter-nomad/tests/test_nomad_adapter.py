"""The NOMAD adapter against NOMAD's documented production example and its GUI test-server recordings."""

from __future__ import annotations

import pytest

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

FIELDS = ["chemical_formula_reduced", "xc_functional_names"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("nomad")


@pytest.mark.vcr("entries_query_Ti_O_docs_example.yaml")
def test_docs_example_body_query_and_required_include() -> None:
    step = run_step("nomad", "entries_query", {"results.material.elements": "Ti,O", "pagination.page_size": 1}, [])
    assert step.ok, step.error
    assert [r.record_id for r in step.records] == ["--SZVYOxA2jTu_L-mSxefSQFmeyF"]


@pytest.mark.vcr("entries_query_vasp_gui_test_server.yaml")
def test_nested_results_paths_project() -> None:
    step = run_step("nomad", "entries_query", {"results.method.simulation.program_name": "VASP"}, FIELDS)
    assert step.ok, step.error
    first = step.records[0]
    assert first.values["chemical_formula_reduced"].value == "COFe"
    assert first.values["xc_functional_names"].value == ["GGA_X_PBE_SOL", "GGA_C_PBE_SOL"]
    assert first.values["chemical_formula_reduced"].license == "CC-BY-4.0"


@pytest.mark.vcr("entries_query_zero_hits_gui_test_server.yaml")
def test_zero_hits_is_no_records() -> None:
    step = run_step("nomad", "entries_query", {"entry_id": "no-such-entry"}, FIELDS)
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("entries_query_422.yaml")
def test_validation_error_is_http_422() -> None:
    step = run_step("nomad", "entries_query", {"pagination.page_size": -1}, FIELDS)
    assert step.error is not None and step.error.kind == "http_status" and "422" in step.error.message


def test_request_body_carries_query_pagination_owner_and_include() -> None:
    import asyncio
    import json

    import httpx

    from schemarouter.execution.adapter import StepCall
    from schemarouter.execution.testing import installed

    declarations, adapters = installed()
    source = declarations.sources["nomad"]
    endpoint = source.endpoint("entries_query")
    fields = [endpoint.field(n) for n in ("entry_id", "band_gap", "mass_density")]
    params = {"results.material.elements": "Si", "pagination.page_size": 5}
    call = StepCall(source, endpoint, params, fields, httpx.AsyncClient())
    adapter = adapters["nomad"]
    request = adapter.build_request(call, asyncio.run(adapter.resolve_client_params(call, dict(params))))
    body = json.loads(request.content)
    assert request.method == "POST"
    assert body["query"] == {"results.material.elements": {"all": ["Si"]}}
    assert body["pagination"] == {"page_size": 5} and body["owner"] == "public"
    assert body["required"]["include"] == [
        "entry_id", "results.properties.electronic.band_gap",
        "results.properties.structures.structure_conventional.mass_density"]
