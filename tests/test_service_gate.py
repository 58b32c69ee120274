"""The replay gate: a replayed run never overlaps another run; live runs share; arrivals keep their order."""

from __future__ import annotations

import asyncio

from schemarouter.service.execution import ReplayGate


async def _trace(gate: ReplayGate, kinds: list[bool], hold_s: float = 0.02) -> list[tuple[str, int, int]]:
    """Run one task per kind (True: offline); record (event, task, runs active) as they enter and leave."""
    events: list[tuple[str, int, int]] = []
    active: list[int] = [0]

    async def one(n: int, offline: bool) -> None:
        release = await gate.acquire(offline)
        active[0] += 1
        events.append(("in", n, active[0]))
        await asyncio.sleep(hold_s)
        active[0] -= 1
        events.append(("out", n, active[0]))
        release()

    tasks = []
    for n, offline in enumerate(kinds):
        tasks.append(asyncio.create_task(one(n, offline)))
        await asyncio.sleep(0)  # arrive in this order
    await asyncio.gather(*tasks)
    return events


def test_live_runs_share_and_a_replayed_run_is_alone() -> None:
    kinds = [False, False, True, False, True, True, False]
    events = asyncio.run(_trace(ReplayGate(), kinds))
    entered = [(n, active) for event, n, active in events if event == "in"]
    assert [n for n, _ in entered] == list(range(len(kinds))), "turns are taken in arrival order"
    for n, active in entered:
        if kinds[n]:
            assert active == 1, f"replayed run {n} overlapped another run"
    assert max(active for _, active in entered) == 2, "the first two live runs ran together"


def test_a_live_run_arriving_behind_a_waiting_replay_waits_its_turn() -> None:
    events = asyncio.run(_trace(ReplayGate(), [False, True, False]))
    order = [(event, n) for event, n, _ in events]
    assert order.index(("in", 2)) > order.index(("out", 1)), "the later live run did not jump the queue"


def test_a_caller_that_leaves_while_waiting_gives_no_turn_away() -> None:
    async def scenario() -> int:
        gate = ReplayGate()
        release = await gate.acquire(offline=True)
        waiting = asyncio.create_task(gate.acquire(offline=False))
        await asyncio.sleep(0)
        waiting.cancel()
        release()
        again = await asyncio.wait_for(gate.acquire(offline=True), 1)  # free again: nobody holds a turn
        again()
        return gate._active

    assert asyncio.run(scenario()) == 0
