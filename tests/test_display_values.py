"""Values shown to people carry significant digits and no unit for a pure number; JSON keeps them whole.

A source returns ``-3.4798433111507934``: a person reads ``-3.47984``, a program reading ``--json``
gets every digit. A count declares ``unit: "1"`` (so the declaration check can tell it from a
forgotten unit), and ``1`` is never printed after it.
"""

from __future__ import annotations

import json

from schemarouter.execution.context import format_value, render_context, significant
from schemarouter.execution.results import Record, RunResult, StepResult, Value

NOISY = -3.4798433111507934


def _run() -> RunResult:
    common = {"source": "materials_project", "endpoint": "summary", "record_id": "mp-1", "source_type": "calculated",
              "license": "CC-BY-4.0"}
    values = {
        "formation_energy_per_atom": Value(field="formation_energy_per_atom", value=NOISY, unit="eV/atom", **common),
        "nsites": Value(field="nsites", value=4, unit="1", **common),
        "lattice": Value(field="lattice", value=[[3.1898000000000004, 0.0], [0.1 + 0.2, 1.0]], unit="Å", **common),
    }
    record = Record(source="materials_project", endpoint="summary", record_id="mp-1", values=values)
    step = StepResult(index=0, source="materials_project", endpoint="summary", records=[record])
    return RunResult(query="formation energy", steps=[step])


def test_people_read_significant_digits_and_no_unit_for_a_pure_number() -> None:
    run = _run()
    shown = str(run)
    assert "formation_energy_per_atom=-3.47984 eV/atom" in shown and "3479843311" not in shown
    assert "nsites=4," in shown and "nsites=4 1" not in shown
    context = render_context(run).text
    assert "formation_energy_per_atom=-3.47984 eV/atom" in context
    assert "nsites=4," in context and "nsites=4 1" not in context
    assert "[[3.1898,0.0],[0.3,1.0]]" in context, "floats inside lists are cut too"


def test_json_keeps_every_digit() -> None:
    document = json.loads(json.dumps(_run().to_json()))
    value = document["steps"][0]["records"][0]["values"]["formation_energy_per_atom"]
    assert value["value"] == NOISY and value["unit"] == "eV/atom"
    assert document["steps"][0]["records"][0]["values"]["nsites"]["unit"] == "1"


def test_significant_digits_of_nested_values() -> None:
    assert significant({"a": [0.1 + 0.2, 2], "b": "x"}) == {"a": [0.3, 2], "b": "x"}
    assert format_value(NOISY) == "-3.47984"
    assert format_value(True) == "True" and format_value(12345678) == "12345678"
