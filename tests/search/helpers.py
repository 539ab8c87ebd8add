"""What the `kb ask` tests share: one question through the real CLI, and the pages an answer cites."""

from __future__ import annotations

import json
from pathlib import Path

from ..conftest import run_kb


def ask(course: Path, question: str) -> dict:
    """``kb ask QUESTION --offline --json`` in the workspace ``course``; it must exit 0."""
    r = run_kb(["ask", question, "--offline", "--json"], cwd=course)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def cited_pages(a: dict) -> set[tuple[str, int]]:
    """(file name, page) of each passage the answer cites."""
    return {(Path(p["source"]).name, p["locator"]["page"]) for p in a["passages"] if p["rank"] in a["cited"]}
