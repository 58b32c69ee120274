"""How fast the machine running the benchmark is, so speed figures from two runs can be compared.

The speed targets (routing p50, graph build) are absolute times, yet the same code measures 20-30 %
apart on two machines of the same kind (shared cloud cores differ in clock and load). A fixed
pure-Python workload, timed at the start of the run, puts a number beside them: when the reference
took 20 % longer, so will routing, and a change of the code shows as a change of the ratio.

The workload does what routing does most: it splits text into words, counts them in dicts, and
intersects sets of strings. It depends on nothing of the project, so no change to the router moves it.
"""

from __future__ import annotations

import platform
import time
from pathlib import Path

REPEATS = 5
_WORDS = ["band", "gap", "formation", "energy", "structure", "movie", "released", "director", "station",
          "forecast", "gene", "protein", "article", "repository", "dataset", "title", "author", "year",
          "element", "density", "temperature"]


def _workload() -> int:
    """A fixed amount of dict, set and string work (the same on every run); its checksum."""
    text = " ".join(_WORDS[(i * 7) % len(_WORDS)] for i in range(2_000))
    total = 0
    for round_ in range(40):
        counts: dict[str, int] = {}
        for word in text.split():
            counts[word] = counts.get(word, 0) + 1
        left = {w for w in counts if len(w) > 4}
        right = {w[: 4 + round_ % 3] for w in counts}
        total += len(left & right) + sum(counts.values())
    return total


def reference_ms(repeats: int = REPEATS) -> float:
    """Milliseconds the reference workload takes on this machine (the fastest of ``repeats``)."""
    best = float("inf")
    for _ in range(max(1, repeats)):
        started = time.perf_counter()
        _workload()
        best = min(best, (time.perf_counter() - started) * 1000)
    return best


def cpu_model() -> str:
    """The processor's model name where the system says it, else the architecture."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="ascii", errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"
