"""Time and memory of `kb grade` for a class with one huge reply (issue 34: a 1 MB reply took 113 s
and 3.6 GB graded whole; kb grades a reply's first 5,000 characters, kb.grading.base.MAX_REPLY_CHARS).

    python bench/grade_huge_reply.py [--mb 1]

Runs the real `kb grade --offline` in a child process under /usr/bin/time and prints its wall time
and peak memory. Numbers depend on the machine's load: say which machine gave them.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

QUIZ = {"schema": 1, "title": "huge reply", "questions": [
    {"id": "gil", "type": "short", "lang": "pt", "prompt": "O que é o GIL no Python?",
     "answer": "Uma trava do interpretador que deixa uma só thread executar bytecode Python por vez.",
     "concepts": ["trava", "uma thread por vez"]}]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=float, default=1.0, help="size of the huge reply in MB")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "q.json").write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
        piece = "trava global e paralelismo "
        huge = piece * int(args.mb * 1_000_000 / len(piece))
        with (d / "r.csv").open("w", encoding="utf-8", newline="") as f:
            csv.writer(f).writerows([("student", "question_id", "answer"), ("Ana", "gil", huge),
                                     ("Bia", "gil", "uma trava")])
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        r = subprocess.run(["/usr/bin/time", "-f", "%e s wall, %M KB peak", sys.executable, "-m", "kb.cli", "grade",
                            "q.json", "r.csv", "--offline", "--out", "out"], cwd=d, env=env, capture_output=True,
                           text=True)
        print(f"reply of {len(huge):,} characters: exit {r.returncode}, {r.stderr.strip().splitlines()[-1]}")


if __name__ == "__main__":
    main()
