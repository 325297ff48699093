"""The progress bars of the long commands (``cinch arena``, ``cinch train``): Rich, on standard error."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.progress import Progress, ProgressColumn


def terminal_progress(*columns: str | ProgressColumn, transient: bool = False) -> Progress | None:
    """A started Rich progress bar of these columns, refreshed only when updated; None when standard error is
    not a terminal (nothing to animate in a log file)."""
    from rich.console import Console
    from rich.progress import Progress

    console = Console(stderr=True)
    if not console.is_terminal:
        return None
    progress = Progress(*columns, console=console, auto_refresh=False, transient=transient)
    progress.start()
    return progress
