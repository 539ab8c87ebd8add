"""``kb.ui`` is split by what it shows (kb/ui_*.py) and stays the one name callers use: every ``ui.NAME`` the
CLI calls is there, and importing any of the modules brings in neither rich nor a heavy package (rich comes in
inside the functions that print)."""

from __future__ import annotations

import re
import subprocess
import sys

from ..conftest import ROOT

KB = ROOT / "kb"


def test_every_name_the_cli_calls_on_ui_is_in_kb_ui():
    import kb.ui

    used = set(re.findall(r"\bui\.([A-Za-z_]\w*)", (KB / "cli.py").read_text(encoding="utf-8")))
    assert len(used) >= 15
    assert sorted(n for n in used if not hasattr(kb.ui, n)) == []


def test_the_ui_modules_import_neither_rich_nor_a_heavy_package():
    names = sorted(f.stem for f in KB.glob("ui*.py"))
    assert {"ui", "ui_console", "ui_progress", "ui_quiz", "ui_grade"} <= set(names)
    code = (
        "import importlib, sys\n"
        f"for n in {names!r}:\n    importlib.import_module('kb.' + n)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'rich', 'torch', 'sentence_transformers', 'chromadb', 'openai', 'numpy'}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]"
