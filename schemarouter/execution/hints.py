"""One-line hints after a step error: what the user can do next (``--offline``, ``--cassettes``, a key)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from schemarouter.execution.results import StepFailure

NO_RECORDING = "offline replay has no recording"


def hint(error: StepFailure, offline: bool) -> str | None:
    """What to try after ``error``, or None when there is nothing useful to say."""
    if error.kind == "no_recording" or (error.kind == "network" and NO_RECORDING in error.message):
        return ("no recording holds this request (these values and fields): run it live, or pass --cassettes DIR "
                "(or set SCHEMAROUTER_CASSETTES) to a folder of recordings that has it")
    if offline:
        return None
    if error.kind in ("network", "timeout"):
        return "no network, or the source is down? --offline replays the recorded responses"
    if error.kind == "missing_credentials":
        return "set the variable, or try --offline to replay the recorded responses without keys"
    return None
