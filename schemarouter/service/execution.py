"""Running plans inside a long-lived server, through :meth:`schemarouter.api.Router.run`.

``Router.run`` is synchronous (it owns its event loop) and, for offline replay, patches the
process's HTTP clients while it runs; so each run goes to a worker thread, and
:class:`ReplayGate` keeps a replayed run from overlapping any other run (live runs share the
process freely). Arrivals queue in order, so neither kind starves. A run past the time limit is
answered as timed out at once, but keeps its place in the gate until its thread has ended.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from pathlib import Path

from schemarouter.execution.results import RunResult
from schemarouter.plan import Plan
from schemarouter.service.state import Snapshot


class ReplayGate:
    """Live runs share the process; a replayed run has it to itself."""

    def __init__(self) -> None:
        self._mode: str | None = None
        self._active = 0
        self._waiting: deque[tuple[str, asyncio.Future[None]]] = deque()

    def _admits(self, mode: str) -> bool:
        return self._mode is None or (self._mode == mode == "live")

    def _enter(self, mode: str) -> None:
        self._mode = mode
        self._active += 1

    def _release(self) -> None:
        self._active -= 1
        if self._active == 0:
            self._mode = None
        while self._waiting:
            mode, future = self._waiting[0]
            if future.done():  # its caller went away while waiting
                self._waiting.popleft()
                continue
            if not self._admits(mode):
                break
            self._waiting.popleft()
            self._enter(mode)
            future.set_result(None)

    async def acquire(self, offline: bool) -> Callable[[], None]:
        """Wait for a turn; returns the function that gives it back (call it exactly once)."""
        mode = "offline" if offline else "live"
        if self._admits(mode) and not self._waiting:
            self._enter(mode)
        else:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.append((mode, future))
            try:
                await future
            except asyncio.CancelledError:
                if future.done() and not future.cancelled():  # admitted just as the caller left
                    self._release()
                raise
        return self._release


async def execute(
    snapshot: Snapshot,
    plan: Plan,
    gate: ReplayGate,
    offline: bool,
    timeout_s: float,
    cassettes: str | Path | None,
) -> RunResult:
    """Run ``plan`` on ``snapshot``'s router within ``timeout_s`` (TimeoutError past it)."""
    release = await gate.acquire(offline)
    try:
        task = asyncio.ensure_future(
            asyncio.to_thread(snapshot.router.run, plan, offline=offline, cassettes=cassettes)
        )
    except BaseException:
        release()
        raise

    def done(finished: asyncio.Future[RunResult]) -> None:
        release()
        if not finished.cancelled():
            finished.exception()  # retrieved: a timed-out run's late error is not "never retrieved"

    task.add_done_callback(done)
    return await asyncio.wait_for(asyncio.shield(task), timeout_s)
