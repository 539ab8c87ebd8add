"""An interrupted command (Ctrl-C, or SIGTERM turned into it) ends through ``kb.cli.run`` with exit 130 at once
(``_exit_interrupted``): what it printed is flushed first, and the interpreter's teardown (its atexit handlers,
where a Ctrl-C during LLM requests once died by SIGINT instead) is skipped. A command that ends with exit 130 by
itself, not through the boundary, still goes through the teardown. Each in a child process: ``os._exit`` would end
pytest's own."""

from __future__ import annotations

import subprocess
import sys

from kb.errors import ExitCode

from ..conftest import ROOT

CHILD = """
import atexit, sys
import typer
from kb import cli

@cli.app.command("boom")
@cli.boundary
def boom():
    sys.stdout.write("half a report")  # (piped: block-buffered, not yet written when the command ends)
    {end}

atexit.register(lambda: sys.stderr.write("teardown ran\\n"))
sys.argv = ["kb", "boom"]
cli.run()
"""


def _child(end: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", CHILD.format(end=end)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_an_interrupted_command_exits_130_at_once_with_its_output_flushed():
    r = _child("raise KeyboardInterrupt")
    assert r.returncode == ExitCode.INTERRUPTED, (r.returncode, r.stderr)
    assert r.stdout == "half a report"
    assert "kb: interrupted" in r.stderr and "Traceback" not in r.stderr
    assert "teardown ran" not in r.stderr  # (os._exit: no atexit handler, no interpreter teardown)


def test_exit_130_outside_the_boundarys_interrupt_keeps_the_teardown():
    r = _child("raise typer.Exit(130)")  # (as `kb quiz review` and an interrupted `kb ingest` end)
    assert r.returncode == ExitCode.INTERRUPTED, (r.returncode, r.stderr)
    assert r.stdout == "half a report"
    assert "teardown ran" in r.stderr and "kb: interrupted" not in r.stderr
