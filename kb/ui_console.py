"""The terminal itself: rich consoles on stdout (data) and stderr (messages), JSON output, one-line
messages and errors. Every other ``kb.ui_*`` module prints through these; :mod:`kb.ui` re-exports them.
"""

from __future__ import annotations

import json
import sys
from typing import Any

_console_class: Any = None


def _console(**options: Any):
    """A rich Console whose every string (printed, in a table cell, a rule's title) passes through
    :func:`kb.text.visible` first: a file name, quiz prompt or passage holding ``ESC[31m`` or RLO
    (U+202E) is shown escaped, never obeyed by the terminal. The one place text meets the terminal."""
    global _console_class
    if _console_class is None:
        from rich.console import Console

        from .text import visible

        class ShownConsole(Console):
            def render_str(self, text: str, **kwargs: Any):
                return super().render_str(visible(text), **kwargs)

        _console_class = ShownConsole
    return _console_class(**options)


def stdout():
    """A rich console on stdout, for data: no soft wrapping and no syntax highlighting of numbers."""
    return _console(soft_wrap=False, highlight=False)


def stderr():
    """A rich console on stderr, for messages, warnings and progress."""
    return _console(stderr=True, highlight=False)


def print_json(obj: Any) -> None:
    """Write ``obj`` to stdout as indented JSON, non-ASCII kept as is (what every ``--json`` prints)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")


def message(text: str, style: str = "") -> None:
    """Print one message line to stderr, in ``style`` (rich markup in ``text`` is not interpreted)."""
    stderr().print(text, style=style or None, markup=False)


def error(msg: str, hint: str = "") -> None:
    """Print ``kb: error: MSG`` to stderr, then ``fix: HINT`` on its own line when there is a hint."""
    from .i18n import _

    con = stderr()
    con.print(_("kb: error: {message}").format(message=msg), style="bold red", markup=False)
    if hint:
        con.print("  " + _("fix: {hint}").format(hint=hint), style="yellow", markup=False)
