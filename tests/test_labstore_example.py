"""The private-sources walkthrough end to end: import the lab store, route a question to it, execute offline.

docs/private-sources.md shows these steps; this test keeps the example honest.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from schemarouter.execution.executor import load_executor
from schemarouter.execution.offline import replay
from schemarouter.openapi import import_openapi
from schemarouter.plan import Plan, PlanStep
from schemarouter.registry import Registry
from schemarouter.registry.local import add_local_source
from schemarouter.sources.local import label_for
from tests.sr_cli import EXAMPLES, REPO, copy_registry, synced_template

CASSETTES = REPO / "docs" / "examples" / "labstore" / "recordings"
SPEC = EXAMPLES / "labstore_openapi.yaml"
OVERLAY = EXAMPLES / "labstore_overlay.yaml"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synced_template(tmp_path_factory.mktemp("template"))


@pytest.fixture
def db(template: Path, tmp_path: Path) -> str:
    url = copy_registry(template, tmp_path)
    with Registry.open(url) as reg:
        add_local_source(reg, import_openapi(SPEC, "labstore", OVERLAY).local, label_for(SPEC))
    return url


def test_the_example_imports_with_its_report() -> None:
    result = import_openapi(SPEC, "labstore", OVERLAY)
    source = result.local.source
    assert [e.id for e in source.endpoints] == [
        "list_samples", "get_sample", "list_measurements", "get_experiment", "create_sample"]
    create = source.endpoint("create_sample")
    assert (create.method, create.access, create.fields) == ("POST", "write", []), "a write: kept, never a read"
    gap = source.endpoint("list_samples").field("measured_band_gap")
    assert (gap.path, gap.unit, gap.group, gap.concepts) == ("measured.band_gap", "eV", "electronic", ["band_gap"])
    assert source.endpoint("get_experiment").field("conditions_pressure").unit == "GPa", "x-unit inside allOf"
    assert source.auth is not None and source.auth.env == "LABSTORE_TOKEN" and source.auth.name == "X-Lab-Token"
    assert result.local.spec("list_measurements").records == "measurements"
    assert result.local.spec("list_measurements").unit_from == {"value": "unit"}
    constructs = {u.construct for u in result.report.unmapped}
    assert {"header parameter", "cookie parameter", "write operation", "non-JSON response", "oneOf"} <= constructs


def test_a_question_about_the_lab_store_is_routed_to_its_fields(db: str) -> None:
    router_module = pytest.importorskip("schemarouter.router")
    router = router_module.Router.from_registry(db)
    plan = router.plan("What is the measured band gap of our LiFePO4 samples in the lab store?")
    assert plan.declined is None
    steps = [s for s in plan.steps if s.source == "labstore"]
    assert steps, f"the plan does not use the lab store: {[(s.source, s.endpoint) for s in plan.steps]}"
    step = steps[0]
    assert step.endpoint == "list_samples" and step.params.get("formula") == "LiFePO4"
    assert "measured_band_gap" in step.fields and "sample_id" in step.fields
    assert step.meta["measured_band_gap"].unit == "eV"
    assert step.meta["measured_band_gap"].license == "LicenseRef-Halcyon-Internal"


def test_the_lab_store_executes_against_its_cassette(db: str) -> None:
    executor = load_executor(db, env={"LABSTORE_TOKEN": "placeholder-token"})
    plan = Plan(query="band gaps of LiFePO4 samples and a sample's measurements", registry_fingerprint=None, steps=[
        PlanStep(source="labstore", endpoint="list_samples", params={"formula": "LiFePO4"},
                 fields=["sample_id", "measured_band_gap", "synthesis_temperature"]),
        PlanStep(source="labstore", endpoint="list_measurements", params={"sample_id": "HX-0042", "kind": "band_gap"},
                 fields=["measurement_id", "value", "instrument_name"]),
    ])
    with replay(CASSETTES):
        result = executor.run_sync(plan)
    samples, measurements = result.steps
    assert samples.error is None and measurements.error is None, (samples.error, measurements.error)
    gaps = {r.record_id: r.values["measured_band_gap"] for r in samples.records}
    assert {k: (v.value, v.unit) for k, v in gaps.items()} == {"HX-0042": (3.62, "eV"), "HX-0057": (3.71, "eV")}
    assert samples.records[0].values["synthesis_temperature"].unit == "K"
    assert "X-Lab-Token" not in (samples.request or "") and "placeholder-token" not in (samples.request or "")
    values = [r.values["value"] for r in measurements.records]
    assert [(v.value, v.unit) for v in values] == [(3.62, "eV"), (3.58, "eV")], "unit_from: each value's own unit"
    assert measurements.records[0].values["instrument_name"].value == "Cary 5000 UV-vis"
