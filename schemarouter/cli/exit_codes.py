"""Exit codes of ``run``, ``ask`` and ``plan`` (and their ``--jsonl`` batches), so scripts can tell
a full answer from a partial one and from none at all.
"""

from __future__ import annotations

from collections.abc import Iterable

OK = 0  # every step returned its answer fields (plan: a plan was made)
ERROR = 1  # an error named on stderr (bad file, unreachable registry ...)
USAGE = 2  # a usage error (click's)
PARTIAL = 3  # some steps failed or some answer fields came back empty, others returned (batch: some lines not ok)
NOTHING = 4  # no step returned values, no answer field came back, no steps, or declined (batch: no line answered)

HELP = (
    "\b\nExit codes: 0 every step returned the fields that answer; 3 some steps failed or some of\n"
    "those fields came back empty (partial); 4 nothing answered (every step failed, no answer field\n"
    "came back, or the plan was declined); 1 error; 2 usage error.\n"
    "With --jsonl: 0 every line ok, 3 some lines not ok, 4 no line answered; each line has a \"status\"."
)


def for_status(status: str) -> int:
    """The exit code of one run: ok -> 0, partial -> 3, empty, failed or declined -> 4."""
    return {"ok": OK, "partial": PARTIAL}.get(status, NOTHING)


def for_batch(statuses: Iterable[str]) -> int:
    """The exit code of a batch: 0 if every line is ok, 4 if none returned anything, else 3."""
    seen = list(statuses)
    if all(s == "ok" for s in seen):
        return OK
    if not any(s in ("ok", "partial") for s in seen):
        return NOTHING
    return PARTIAL
