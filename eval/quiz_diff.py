"""Two versions' quizzes of the same decks side by side (issue 26, keep26): questions written, decks with >= 10,
and each question of the second that the first did not write (stem, answer, concepts), with the stems it replaced.

    python eval/quiz_diff.py DIR_A DIR_B [-q]     # DIR_*: the quizzes/DECK.json of `kb quiz generate -o`

eval/keep26_gen.sh writes such directories for rounds r9-r11 (one KB_HOME per round, the code of a checkout).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def _questions(path: Path) -> list[dict]:
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return data["questions"] if isinstance(data, dict) else data


def main() -> None:
    a, b = Path(sys.argv[1]), Path(sys.argv[2])
    show = "-q" not in sys.argv
    decks = sorted(p.stem for p in a.glob("*.json"))
    written = {"a": 0, "b": 0}
    ten = {"a": 0, "b": 0}
    changed = 0
    for deck in decks:
        qa, qb = _questions(a / f"{deck}.json"), _questions(b / f"{deck}.json")
        for tag, qs in (("a", qa), ("b", qb)):
            written[tag] += len(qs)
            ten[tag] += len(qs) >= 10
        old = {(q["prompt"], q.get("answer", "")) for q in qa}
        new = [q for q in qb if (q["prompt"], q.get("answer", "")) not in old]
        changed += len(new)
        if show and new:
            print(f"== {deck}: {len(qa)} -> {len(qb)}")
            for q in new:
                loc = q["citations"][0]["locator"] if q.get("citations") else ""
                print(f"  + [{q.get('origin')}] {loc}\n    Q: {q['prompt']}\n    A: {q.get('answer', '')[:300]}\n"
                      f"    C: {'; '.join(q.get('concepts') or [])}")
            kept = {(q["prompt"], q.get("answer", "")) for q in qb}
            for q in qa:
                if (q["prompt"], q.get("answer", "")) not in kept:
                    print(f"  - {q['prompt'][:140]}")
    print(f"written {written['a']} -> {written['b']}; decks >= 10: {ten['a']} -> {ten['b']} of {len(decks)}; "
          f"new or changed questions: {changed}")


if __name__ == "__main__":
    main()
