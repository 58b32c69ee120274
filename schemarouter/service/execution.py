"""Running plans inside a long-lived server: the executor per snapshot, offline replay, time limit.

Offline replay patches the process's HTTP clients while it is active, so a live run must not
overlap it. :class:`ReplayGate` lets runs of one kind share the process (many live runs at
once, or many replayed runs under one replay) and makes the other kind wait; a waiting kind
stops new arrivals of the running kind, so neither starves.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import AbstractContextManager, asynccontextmanager
from functools import cache
from typing import Any

from schemarouter.execution.adapter import Adapter
from schemarouter.execution.executor import Executor
from schemarouter.execution.offline import offline_env, replay
from schemarouter.execution.results import RunResult
from schemarouter.plan import Plan
from schemarouter.service.state import Snapshot


@cache
def adapters() -> dict[str, Adapter]:
    """The installed plugins' adapters (they do not change while the process runs)."""
    from schemarouter.execution.registry_adapters import collect_adapters

    return collect_adapters()


class ReplayGate:
    """Live runs and replayed runs never overlap; runs of the same kind do."""

    def __init__(self, cassettes: str | None, keep_open: bool = False) -> None:
        self.cassettes = cassettes
        # a server that never runs live keeps the replay (and its loaded cassettes) once entered
        self.keep_open = keep_open
        self._cond = asyncio.Condition()
        self._mode: str | None = None
        self._active = 0
        self._waiting: dict[str, int] = {"live": 0, "offline": 0}
        self._replay: AbstractContextManager[Any] | None = None

    @asynccontextmanager
    async def enter(self, offline: bool) -> AsyncIterator[None]:
        mode = "offline" if offline else "live"
        other = "live" if offline else "offline"
        async with self._cond:
            self._waiting[mode] += 1
            try:
                await self._cond.wait_for(
                    lambda: self._mode in (None, mode) and not (self._mode == mode and self._waiting[other])
                )
            finally:
                self._waiting[mode] -= 1
            if self._mode is None and offline:
                self._replay = replay(self.cassettes)
                # loading the cassettes reads files: off the event loop
                await asyncio.to_thread(self._replay.__enter__)
            self._mode = mode
            self._active += 1
        try:
            yield
        finally:
            async with self._cond:
                self._active -= 1
                if self._active == 0 and not self.keep_open:
                    if self._replay is not None:
                        self._replay.__exit__(None, None, None)
                        self._replay = None
                    self._mode = None
                    self._cond.notify_all()


async def execute(
    snapshot: Snapshot, plan: Plan, gate: ReplayGate, offline: bool, timeout_s: float
) -> RunResult:
    """Run ``plan`` on ``snapshot``'s declarations within ``timeout_s`` (TimeoutError past it)."""
    decls = snapshot.graph.decls
    env: dict[str, str] = dict(os.environ)
    if offline:
        env = offline_env(env, [s.auth.env for s in decls.sources.values() if s.auth is not None])
    executor = Executor(decls, adapters(), specs=snapshot.adapter_specs, env=env)
    async with gate.enter(offline):
        return await asyncio.wait_for(executor.run(plan), timeout_s)
