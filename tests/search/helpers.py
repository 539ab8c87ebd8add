"""What the `kb ask` tests share: one question through the real CLI, the pages an answer cites, and a small
question set judged by `kb eval ask`."""

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


def eval_ask(course: Path, tmp_path: Path, items) -> dict:
    """``kb eval ask SET --json`` on a set written from ``items`` (question, source, pages, evidence); exit 0."""
    path = tmp_path / "set.jsonl"
    path.write_text("".join(json.dumps({"question": q, "source": s, "pages": p, "evidence": e}) + "\n"
                            for q, s, p, e in items), encoding="utf-8")
    r = run_kb(["eval", "ask", str(path), "--json"], cwd=course)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)
