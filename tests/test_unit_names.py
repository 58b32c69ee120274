"""The unit a field's own name says (``schemarouter.unit_names``), shared by every importer."""

from __future__ import annotations

import pytest

from schemarouter.checks.units import check_known
from schemarouter.unit_names import _UNITS, unit_in_name


def test_every_unit_a_name_can_say_is_one_the_units_library_reads_plainly() -> None:
    assert [u for u in set(_UNITS.values()) if not check_known(u)] == []


@pytest.mark.parametrize(("name", "unit"), [
    ("distance_km", "km"), ("durationSeconds", "s"), ("Milliseconds", "ms"), ("battery_pct", "percent"),
    ("trip_duration_min", "min"), ("energy_kwh", "kWh"), ("home_longitude", "degree"), ("Bytes", "byte"),
    ("temp_min", None),  # a minimum, not minutes
    ("price_eur", "EUR"), ("fare_usd", "USD"),  # a currency by its code
    ("page_size", None), ("m", None), ("speed_m", None),  # a letter alone says nothing for sure
])
def test_the_last_word_of_a_name_says_its_unit(name: str, unit: str | None) -> None:
    assert unit_in_name(name) == unit
