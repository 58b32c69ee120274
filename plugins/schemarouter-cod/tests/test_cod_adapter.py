"""The COD adapter against the recorded aspirin text search."""

from __future__ import annotations

import pytest

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

FIELDS = ["formula", "sg", "a", "b", "c", "vol", "celltemp", "doi"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("cod")


@pytest.mark.vcr("search_text_aspirin.yaml")
def test_string_numbers_are_cast() -> None:
    step = run_step("cod", "search", {"text": "aspirin"}, FIELDS)
    assert step.ok, step.error
    assert len(step.records) == 5
    first = step.records[0]
    assert first.record_id == "1515581"
    assert first.values["a"].value == pytest.approx(12.1016) and first.values["a"].unit == "Angstrom"
    assert first.values["celltemp"].value == 123
    assert first.values["sg"].value == "P 1 21/c 1"
    assert first.values["vol"].source_type == "experimental"


@pytest.mark.vcr("search_formula_empty.yaml")
def test_empty_list_is_no_records() -> None:
    step = run_step("cod", "search", {"formula": "Xx9 Zz9"}, FIELDS)
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("search_text_quartz_truncated.yaml")
def test_truncated_json_is_unparseable() -> None:
    step = run_step("cod", "search", {"text": "quartz"}, FIELDS)
    assert step.error is not None and step.error.kind == "unparseable_body"
