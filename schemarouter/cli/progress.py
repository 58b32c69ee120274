"""Progress bars for long commands (batches, the benchmark, large syncs and imports), on stderr.

Silent when stderr is not a terminal, so piped or captured output (JSON, JSONL, CI logs) never
contains bar redraws.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


def bar(console: Console | None = None) -> Progress:
    """A transient rich progress display on stderr, disabled when stderr is not a terminal."""
    err = console or Console(stderr=True)
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err, transient=True, disable=not err.is_terminal)


@contextmanager
def progress(description: str, total: int | None) -> Iterator[Callable[[int], None]]:
    """``with progress("plans", 100) as advance: ... advance(1)``."""
    with bar() as shown:
        task = shown.add_task(description, total=total)

        def advance(n: int = 1) -> None:
            shown.advance(task, n)

        yield advance
