"""Two versions' key concepts of the same questions side by side (issue 26, concepts27): for each question both
versions wrote (same stem and answer), the concept lists that differ, and each list's faults as
kb.writing.concept_faults reads them.

    python eval/concept_diff.py DIR_A DIR_B [-q]     # DIR_*: the quizzes/DECK.json of `kb quiz generate -o`

eval/keep26_gen.sh writes such directories (one KB_HOME per round, the code of a checkout).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from kb.writing.concept_faults import concept_fault


def _questions(path: Path) -> list[dict]:
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return data["questions"] if isinstance(data, dict) else data


def _faults(q: dict) -> list[str]:
    return [f"{c} [{f}]" for c in q.get("concepts", []) if (f := concept_fault(c, q.get("lang", "")))]


def main() -> None:
    a, b = Path(sys.argv[1]), Path(sys.argv[2])
    show = "-q" not in sys.argv
    shared = changed = faults_a = faults_b = 0
    for deck in sorted(p.stem for p in a.glob("*.json")):
        old = {(q["prompt"], q.get("answer", "")): q for q in _questions(a / f"{deck}.json") if q["type"] == "short"}
        for q in _questions(b / f"{deck}.json"):
            p = old.get((q["prompt"], q.get("answer", "")))
            if p is None:
                continue
            shared += 1
            faults_a += bool(_faults(p))
            faults_b += bool(_faults(q))
            if p.get("concepts") != q.get("concepts"):
                changed += 1
                if show:
                    print(f"== {deck}: {q['prompt']}\n   answer: {q.get('answer', '')[:300]}")
                    print(f"   A: {' ; '.join(p.get('concepts', []))}  {_faults(p) or ''}")
                    print(f"   B: {' ; '.join(q.get('concepts', []))}  {_faults(q) or ''}")
    print(f"short questions in both: {shared}; concept lists changed: {changed}; "
          f"with a faulty concept: {faults_a} -> {faults_b}")


if __name__ == "__main__":
    main()
