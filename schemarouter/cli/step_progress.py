"""Say on stderr which step a run is waiting for, once it has taken more than a second.

Most steps answer in well under a second and say nothing; a slow source (a live API, a large
download, a client library that takes long to start) would otherwise leave a person looking at
a silent terminal. Each step that is still running after :data:`AFTER_S` gets one line when it
passes that mark and one when it ends, on stderr, so ``--json`` output on stdout stays clean.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

AFTER_S = 1.0


class SlowSteps:
    """An ``on_step`` observer for :meth:`schemarouter.api.Router.run` that reports slow steps."""

    def __init__(self, say: Callable[[str], None], after_s: float = AFTER_S) -> None:
        self.say = say
        self.after_s = after_s
        self._started: dict[int, float] = {}
        self._timers: dict[int, threading.Timer] = {}
        self._shown: set[int] = set()
        self._lock = threading.Lock()

    def __call__(self, event: str, index: int, label: str) -> None:
        """``start``: arm the step's timer; ``end``: disarm it, and say how long a slow step took."""
        with self._lock:
            if event == "start":
                self._started[index] = time.monotonic()
                timer = threading.Timer(self.after_s, self._slow, (index, label))
                timer.daemon = True
                self._timers[index] = timer
                timer.start()
                return
            if index in self._timers:
                self._timers.pop(index).cancel()
            took = time.monotonic() - self._started.pop(index, time.monotonic())
            if index in self._shown:
                self._shown.discard(index)
                self.say(f"step {index + 1} {label}: done in {took:.1f} s")

    def _slow(self, index: int, label: str) -> None:
        with self._lock:
            if index not in self._started:
                return
            self._shown.add(index)
        self.say(f"step {index + 1} {label}: still running after {self.after_s:g} s ...")

    def close(self) -> None:
        """Cancel every timer still armed (a run that ended by an exception)."""
        with self._lock:
            for timer in self._timers.values():
                timer.cancel()
            self._timers.clear()
