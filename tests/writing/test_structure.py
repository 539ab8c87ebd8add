"""The writer stays findable: no module of kb/writing over 800 lines, and no import circle among its
modules (imports inside functions and under TYPE_CHECKING count: a lazy import hides a circle, it
does not remove it)."""

from __future__ import annotations

import ast
from pathlib import Path

WRITING = Path(__file__).resolve().parents[2] / "kb" / "writing"


def _imports() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for f in WRITING.glob("*.py"):
        deps: set[str] = set()
        for n in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(n, ast.ImportFrom) and n.level == 1:
                deps |= {n.module.split(".")[0]} if n.module else {a.name for a in n.names}
        out[f.stem] = deps
    return out


def test_no_module_over_800_lines():
    sizes = {f.name: len(f.read_text(encoding="utf-8").splitlines()) for f in WRITING.glob("*.py")}
    assert len(sizes) >= 10
    assert {k: v for k, v in sizes.items() if v > 800} == {}


def test_no_import_circle():
    graph = _imports()
    assert graph["offline"] and graph["generate"]

    def reach(start: str) -> set[str]:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for d in graph.get(todo.pop(), ()):
                if d not in seen:
                    seen.add(d)
                    todo.append(d)
        return seen

    assert [m for m in sorted(graph) if m in reach(m)] == []
