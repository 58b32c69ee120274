"""A step that takes more than a second is named on stderr while it runs; a quick one says nothing.

The executor tells an observer when each step starts and ends; the CLI's observer
(:class:`~schemarouter.cli.step_progress.SlowSteps`) turns a step still running after its mark into
one line, and its end into another. Here the mark is shortened and one adapter sleeps past it.
"""

from __future__ import annotations

import asyncio

from schemarouter.cli.step_progress import SlowSteps
from schemarouter.execution.adapter import FetchResult, StepCall
from schemarouter.execution.executor import Executor
from schemarouter.execution.testing import installed
from schemarouter.plan import Plan, PlanStep


class Sleeper:
    auth_required = False

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    async def fetch(self, call: StepCall) -> FetchResult:
        await asyncio.sleep(self.seconds)
        return FetchResult(records=[{"CID": 2244, "MolecularWeight": "180.16"}], request="sleeper")


def test_only_the_slow_step_is_reported_and_its_end_too() -> None:
    declarations, _ = installed()
    lines: list[str] = []
    observer = SlowSteps(lines.append, after_s=0.3)
    executor = Executor(declarations, {"pubchem": Sleeper(0.8), "arxiv": Sleeper(0.0)}, on_step=observer)
    plan = Plan(query="q", registry_fingerprint=None, steps=[
        PlanStep(source="pubchem", endpoint="compound_properties", params={"name": "aspirin"},
                 fields=["MolecularWeight"]),
        PlanStep(source="arxiv", endpoint="query", params={"id_list": "1605.08386"}, fields=["title"]),
    ])
    executor.run_sync(plan)
    observer.close()
    assert lines[0] == "step 1 pubchem.compound_properties: still running after 0.3 s ..."
    assert lines[1].startswith("step 1 pubchem.compound_properties: done in 0.")
    assert len(lines) == 2, "the quick arxiv step says nothing"


def test_a_step_that_ends_before_its_mark_says_nothing() -> None:
    lines: list[str] = []
    observer = SlowSteps(lines.append, after_s=5)
    observer("start", 0, "a.b")
    observer("end", 0, "a.b")
    observer.close()
    assert lines == []
