"""Registry change pickup: Postgres LISTEN/NOTIFY with a fingerprint poll as the fallback.

Every registry write on Postgres (``registry sync``, ``source add``/``remove``, ``registry
import``) sends ``NOTIFY schemarouter_registry`` inside its transaction, so a listening server
hears of a committed change at once. The poll (one single-row read of the fingerprint) covers
what NOTIFY cannot: SQLite, which has no notifications, and a listener connection that dropped
and missed messages while it reconnected.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from schemarouter.registry.store import NOTIFY_CHANNEL
from schemarouter.service.state import RegistryState

log = logging.getLogger("schemarouter.service")
SQLITE_POLL_S = 2.0
POSTGRES_POLL_S = 30.0
RECONNECT_S = 5.0
TICK_S = 0.5


class RegistryWatcher:
    """A daemon thread that keeps ``state`` on the registry's current fingerprint."""

    def __init__(self, state: RegistryState, poll_s: float | None = None) -> None:
        self.state = state
        self.listen = state.dialect == "postgresql"
        self.poll_s = poll_s if poll_s is not None else (POSTGRES_POLL_S if self.listen else SQLITE_POLL_S)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="schemarouter-registry-watcher", daemon=True)
        self._conn: Any = None

    @property
    def method(self) -> str:
        """How changes arrive, for /healthz and the logs."""
        return f"LISTEN/NOTIFY + {self.poll_s:g} s poll" if self.listen else f"{self.poll_s:g} s poll"

    def start(self) -> RegistryWatcher:
        """Start watching in the background."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop watching (returns within about a second)."""
        self._stop.set()
        self._thread.join(timeout=TICK_S + 2)

    def _refresh(self) -> None:
        try:
            self.state.refresh()
        except Exception as err:
            log.warning(
                "registry check failed: %s", str(err).splitlines()[0] if str(err) else type(err).__name__
            )

    def _loop(self) -> None:
        while not self._stop.is_set():
            if self.listen:
                self._listen_until_error()
                if self._stop.wait(RECONNECT_S):
                    return
            else:
                self._refresh()
                if self._stop.wait(self.poll_s):
                    return

    def _listen_until_error(self) -> None:
        import psycopg

        conninfo = self.state.registry.engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False
        )
        try:
            with psycopg.connect(conninfo, autocommit=True, connect_timeout=10) as conn:
                conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                self._refresh()  # anything committed before LISTEN took effect
                waited = 0.0
                while not self._stop.is_set():
                    # short waits so stop() is prompt; a notification or a due poll triggers the check
                    heard = any(True for _ in conn.notifies(timeout=TICK_S, stop_after=1))
                    waited += TICK_S
                    if heard:
                        for _ in conn.notifies(timeout=0.05):  # drain a burst, then rebuild once
                            pass
                    if heard or waited >= self.poll_s:
                        waited = 0.0
                        self._refresh()
        except Exception as err:
            log.warning(
                "registry listener lost its connection (%s); polling until it reconnects",
                str(err).splitlines()[0] if str(err) else type(err).__name__,
            )
            self._refresh()
