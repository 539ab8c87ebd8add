"""Two versions' quizzes of a round's decks, for the concepts of short answers (issue 26, gist30): questions
written by each (and whether they are the same: stem, answer and type), short answers whose concepts change,
concept words before/after, and, for rated short answers (matched by deck and stem) whose FIX reason quotes a
phrase to add that the model answer holds, the share of those phrases a concept holds (eval/gist_phrases.py).

    python eval/gist_decks.py ROUND DIR_A DIR_B [-v]   # ROUND: 14 …; DIR_*: eval/keep26_gen.sh's ROUND/TAG folders
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from gist_phrases import _held, phrases

from kb.text import words


def _quiz(d: Path) -> dict[tuple[str, str], dict]:
    out = {}
    for p in sorted(d.glob("*.json")):
        data = json.loads(p.read_text(encoding="utf-8"))
        for q in data["questions"] if isinstance(data, dict) else data:
            out[(p.stem, q["prompt"])] = q
    return out


def main() -> None:
    rnd, a, b = int(sys.argv[1]), _quiz(Path(sys.argv[2])), _quiz(Path(sys.argv[3]))
    same = {k for k in a.keys() & b.keys() if (a[k]["answer"], a[k]["type"]) == (b[k]["answer"], b[k]["type"])}
    shorts = [k for k in sorted(same) if a[k]["type"] == "short"]
    changed = [k for k in shorts if a[k].get("concepts") != b[k].get("concepts")]
    size = {t: [len(words(c)) for k in shorts for c in q[k].get("concepts") or []] for t, q in (("a", a), ("b", b))}
    print(f"r{rnd}: questions {len(a)} -> {len(b)}, the same {len(same)}; short answers {len(shorts)}, concepts "
          f"changed {len(changed)}; concept words median {statistics.median(size['a'] or [0])} -> "
          f"{statistics.median(size['b'] or [0])}, mean {statistics.mean(size['a'] or [0]):.1f} -> "
          f"{statistics.mean(size['b'] or [0]):.1f}")
    held = {"a": 0, "b": 0}
    n = 0
    for row, phrase in phrases(rnd):
        k = (row["deck"], row["prompt"])
        if k not in same or not _held(phrase, a[k]["answer"]):
            continue
        n += 1
        for t, q in (("a", a), ("b", b)):
            held[t] += any(_held(phrase, c) for c in q[k].get("concepts") or [])
    print(f"  rated phrases to add that the answer holds: {n}; held by a concept {held['a']} -> {held['b']}")
    if "-v" in sys.argv:
        for k in changed:
            print(f"\n{k[0]} | {k[1]}\n  A: {a[k].get('concepts')}\n  B: {b[k].get('concepts')}")


if __name__ == "__main__":
    main()
