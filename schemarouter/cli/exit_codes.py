"""Exit codes of ``run``, ``ask`` and ``plan`` (and their ``--jsonl`` batches), so scripts can tell
a full answer from a partial one and from none at all.
"""

from __future__ import annotations

from collections.abc import Iterable

OK = 0  # every step returned values (plan: a plan was made)
ERROR = 1  # an error named on stderr (bad file, unreachable registry ...)
USAGE = 2  # a usage error (click's)
PARTIAL = 3  # some steps failed, some returned values (batch: some lines not ok)
NOTHING = 4  # no step returned values, the plan had no steps, or it was declined (batch: no line answered)

HELP = (
    "\b\nExit codes: 0 every step returned values; 3 some steps failed (partial);\n"
    "4 nothing returned (every step failed, or the plan was declined); 1 error; 2 usage error.\n"
    "With --jsonl: 0 every line ok, 3 some lines not ok, 4 no line answered; each line has a \"status\"."
)


def for_status(status: str) -> int:
    """The exit code of one run: ok -> 0, partial -> 3, failed or declined -> 4."""
    return {"ok": OK, "partial": PARTIAL}.get(status, NOTHING)


def for_batch(statuses: Iterable[str]) -> int:
    """The exit code of a batch: 0 if every line is ok, 4 if none returned anything, else 3."""
    seen = list(statuses)
    if all(s == "ok" for s in seen):
        return OK
    if not any(s in ("ok", "partial") for s in seen):
        return NOTHING
    return PARTIAL
