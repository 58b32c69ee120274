"""A list chosen for the answer brings the lists it is read against: the columns of one series
(``energies.data`` beside ``intensities.data``), never the rows of a listing."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter.graph import SchemaGraph
from schemarouter.models import Source
from schemarouter.router import Router
from tests.open_world_support import BASE, with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


def _field(name: str, path: str, type_: str = "string") -> dict[str, Any]:
    return {"name": name, "path": path, "type": type_, "group": "content"}


def _spectra() -> Source:
    return Source.model_validate({
        "id": "spectra", "title": "Cosmic Ray Spectra", "domain": "general", "source_type": "calculated",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [
            {"id": "neutron_spectrum", "base_url": BASE, "path": "/neutrons/spectrum",
             "summary": "Differential neutron intensity spectrum at an altitude",
             "parameters": [{"name": "altitude", "type": "number", "required": True, "description": "Altitude in km."}],
             "fields": [_field("energies_data", "energies.data", "array"), _field("energies_units", "energies.units"),
                        _field("intensities_data", "intensities.data", "array"),
                        _field("intensities_units", "intensities.units"), _field("tags", "tags", "array"),
                        _field("model_notes", "model.notes", "array")]},
            {"id": "station_counts", "base_url": BASE, "path": "/stations/counts",
             "summary": "Neutron monitor stations with their hourly count rates",
             "fields": [_field("name", "stations[].name"), _field("rates", "stations[].rates.data", "array"),
                        _field("pressures", "stations[].pressures.data", "array")]},
        ],
    })


@pytest.fixture(scope="module")
def router(graph: SchemaGraph) -> Router:
    return Router(with_catalogue(graph, _spectra()))


def test_a_series_is_read_with_the_list_it_was_measured_against(router: Router) -> None:
    step = router.plan("The neutron intensities at 12 km altitude").steps[-1]
    assert step.endpoint == "neutron_spectrum"
    assert {"intensities_data", "energies_data"} <= set(step.fields)
    assert "intensities_data" in step.why["energies_data"]
    # a list named otherwise, or not inside an object of the record, is no column of the series
    assert "tags" not in step.fields and "model_notes" not in step.fields


def test_the_rows_of_a_listing_bring_no_other_lists(router: Router) -> None:
    step = router.plan("Hourly count rates of the neutron monitor stations").steps[-1]
    assert step.endpoint == "station_counts"
    assert "rates" in step.fields and "pressures" not in step.fields
