"""The Materials Project adapter against cassettes built from the recorded 2022 summary records.

The cassettes hold mp-api's real request (``_fields`` = the planned fields' projection keys) and
the recorded SummaryDoc data wrapped in the documented envelope; see cassettes/materials_project/README.md.
"""

from __future__ import annotations

import pytest
from schemarouter_materials_project.adapter import search_kwargs, summary_query

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

FIELDS = ["formula_pretty", "formation_energy_per_atom", "energy_above_hull", "is_stable", "density",
          "spacegroup_symbol"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("materials_project")


# live: through mp-api; replaying: the one request mp-api sends, without importing it. Both read
# the same recordings and must give the same records.
@pytest.fixture(params=[False, True], ids=["mp-api", "replaying"])
def replaying(request: pytest.FixtureRequest) -> bool:
    return bool(request.param)


@pytest.mark.vcr("summary_formula_SmPO4.yaml")
def test_formula_lookup_projects_declared_paths(replaying: bool) -> None:
    step = run_step("materials_project", "summary", {"formula": "SmPO4"}, FIELDS, replaying=replaying)
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
def test_several_records_each_keep_their_identifier(replaying: bool) -> None:
    step = run_step("materials_project", "summary", {"formula": "C"}, FIELDS, replaying=replaying)
    assert step.ok, step.error
    assert {r.record_id for r in step.records} == {"mp-1181996", "mp-998866"}
    assert all(r.values["is_stable"].value is False for r in step.records)


@pytest.mark.vcr("summary_formula_Xe_empty.yaml")
def test_empty_result_is_no_records(replaying: bool) -> None:
    step = run_step("materials_project", "summary", {"formula": "Xe"}, FIELDS, replaying=replaying)
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("summary_formula_Zz_500.yaml")
def test_server_error_is_http_status(replaying: bool) -> None:
    step = run_step("materials_project", "summary", {"formula": "Zz"}, FIELDS, replaying=replaying)
    assert step.error is not None and step.error.kind == "http_status" and "500" in step.error.message


def test_missing_key_fails_before_network() -> None:
    step = run_step("materials_project", "summary", {"formula": "SmPO4"}, FIELDS, env={}, replaying=True)
    assert step.error is not None and step.error.kind == "missing_credentials"
    assert "MP_API_KEY" in step.error.message


def test_range_and_list_parameters_become_search_arguments() -> None:
    kwargs = search_kwargs({"band_gap_min": 1, "band_gap_max": "3", "elements": "Li,Fe,O", "_per_page": 5})
    assert kwargs == {"band_gap": (1.0, 3.0), "elements": ["Li", "Fe", "O"], "chunk_size": 5, "num_chunks": 1}


def test_the_replayed_request_is_the_one_mp_api_sends() -> None:
    query = summary_query(search_kwargs({"formula": "SmPO4"}), ["material_id", "band_gap"])
    assert query == [("formula", "SmPO4"), ("_limit", "1000"), ("_fields", "material_id,band_gap")]
    ranged = dict(summary_query(search_kwargs({"band_gap_min": 1, "elements": ["Ga", "N"], "_per_page": 5}), []))
    assert ranged == {"band_gap_min": "1.0", "band_gap_max": "1000.0", "elements": "Ga,N", "_limit": "5",
                      "_fields": ""}


def test_an_offline_run_never_imports_mp_api(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json
    import os
    import subprocess
    import sys

    script = (
        "import sys, json, schemarouter\n"
        "r = schemarouter.run('What is the formation energy of SmPO4?', db=sys.argv[1], offline=True)\n"
        "print(json.dumps({'status': r.status, 'mp_api': any(m.startswith('mp_api') for m in sys.modules)}))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCHEMAROUTER_", "MP_API"))}
    env["SCHEMAROUTER_HOME"] = str(tmp_path)
    ran = subprocess.run([sys.executable, "-c", script, f"sqlite:///{tmp_path / 'r.db'}"], capture_output=True,
                         text=True, env=env, timeout=300)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout.splitlines()[-1]) == {"status": "ok", "mp_api": False}
