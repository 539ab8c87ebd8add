"""Progress on a terminal: the ingest bar and the LLM requests' bar with its notes (silent when piped).
"""

from __future__ import annotations

import sys
from typing import Any

from .ui_console import message, stderr


class IngestProgress:
    """A rich progress bar on a terminal; silent when stderr is not one."""

    def __init__(self) -> None:
        self._progress: Any = None  # a rich Progress once started (rich imported lazily)
        self._task: Any = None

    def start(self, total_files: int) -> None:
        """Show a bar of ``total_files`` files; does nothing when stderr is not a terminal or there is nothing to do."""
        if not sys.stderr.isatty() or total_files == 0:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._progress = Progress(TextColumn("ingest"), BarColumn(), MofNCompleteColumn(),
                                  TimeElapsedColumn(), TextColumn("{task.description}"),
                                  console=stderr(), transient=True)
        self._progress.start()
        self._task = self._progress.add_task("", total=total_files)

    def file_done(self, result) -> None:
        """Advance the bar by one file and show the end of its name (``result`` is a ``FileResult``)."""
        if self._progress is not None:
            self._progress.update(self._task, advance=1, description=_shown(result.source[-40:]))

    def embedding(self, source: str, done: int, total: int) -> None:
        """Show how many of one file's chunks are embedded, so a huge file shows progress within it."""
        if self._progress is not None:
            from .i18n import _

            self._progress.update(self._task, description=_shown(_("{source}: {done}/{total} chunks embedded").format(
                source=source[-40:], done=done, total=total)))

    def stop(self) -> None:
        """Remove the bar (it is transient); safe to call when none was started."""
        if self._progress is not None:
            self._progress.stop()


def _shown(text: str) -> str:
    """A progress bar's description (rich markup, not a console string): escaped and made visible."""
    from rich.markup import escape

    from .text import visible

    return escape(visible(text))


class LLMProgress:
    """LLM requests in flight as a rich progress bar on a terminal (silent when stderr is not one);
    notes (an estimate before a long run) always go to stderr."""

    def __init__(self) -> None:
        self._progress: Any = None
        self._task: Any = None

    def start(self, total: int, what: str) -> None:
        """Show a bar of ``total`` requests labelled ``what``."""
        if not sys.stderr.isatty() or total == 0:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._progress = Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                                  console=stderr(), transient=True)
        self._progress.start()
        self._task = self._progress.add_task("", total=total)

    def advance(self) -> None:
        """One request answered."""
        if self._progress is not None:
            self._progress.update(self._task, advance=1)

    def stop(self) -> None:
        """Remove the bar (transient); safe when none was started."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def note(self, text: str) -> None:
        """Say ``text`` now, on stderr."""
        message(f"kb: {text}", "dim")
