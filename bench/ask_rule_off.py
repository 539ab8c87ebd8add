"""`bench/ask.py` with one of kb.answer_kinds' rules switched off: what each rule does on each dev set.

    python bench/ask_rule_off.py RULE [bench/ask.py's options]
    python bench/ask_rule_off.py comparison --set eval/ask_r8.jsonl --split dev --home /tmp/kb-ask-r8

RULE: title (title slides and agendas answer again), defining (no definition slide's opening), clauses (a
question of two questions is one), benefit (a benefit answers every "why"), whyheading, solution, premise,
comparison, namedhead (see kb/answer_kinds.py), or none. Dev splits only: a rule is judged where it may be read.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import kb.answer_kinds as kinds  # noqa: E402

_cause = kinds.states_cause
OFF = {
    "title": ("never_answers", lambda heading, text, page: False),
    "defining": ("defining_units", lambda *a: None),
    "clauses": ("clauses", lambda question: [question]),
    "benefit": ("states_cause", lambda text, why_use: _cause(text, True)),
    "whyheading": ("asks_why", lambda heading: False),
    "solution": ("is_solution", lambda line: False),
    "premise": ("is_consequence", lambda line: False),
    "comparison": ("comparison_units", lambda *a: []),
    "namedhead": ("named_head", lambda line: ""),
}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in {*OFF, "none"}:
        sys.exit(f"usage: {sys.argv[0]} {{{','.join(OFF)},none}} [bench/ask.py options]")
    if "--split" in sys.argv and sys.argv[sys.argv.index("--split") + 1:][:1] == ["test"]:
        sys.exit("dev splits only")
    if sys.argv[1] in OFF:
        setattr(kinds, *OFF[sys.argv[1]])
    sys.argv = [str(ROOT / "bench" / "ask.py"), *sys.argv[2:]]
    runpy.run_path(sys.argv[0], run_name="__main__")
