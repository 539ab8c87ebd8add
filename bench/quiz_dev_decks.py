"""Questions written with `-n 12` offline on the 16 r6/r7 dev decks, decks reaching 10, the type mix, and the
questions each pattern wrote (issue 26: >= 10 of 12 on 9 of 10 decks, no type above ~40 %).

    python bench/quiz_dev_decks.py [--origin errors]   # renders eval/heldout_decks/*.txt, ingests into a temp folder
    python bench/quiz_dev_decks.py --rounds r6,r7,r8,r9 --dump q.json   # the 36 decks of r6-r9; every question

With ``--origin X`` it also prints every question whose origin is X (to read them). Measured 2026-11-28 on a
loaded 2-core machine: base 9883cf5 114 questions, 1 deck of 16 with >= 10, short 51 %; branch fill26
(common mistakes asked by their consequence, kb/writing/pattern_errors.py) 133, 3 decks, short 54 %.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    import importlib.util

    import kb
    from kb.writing.generate import GenerationRequest, generate_quiz
    from kb.writing.offline import OfflineWriter

    origin = argv[argv.index("--origin") + 1] if "--origin" in argv else ""
    rounds = argv[argv.index("--rounds") + 1].split(",") if "--rounds" in argv else ["r6", "r7"]
    dump = Path(argv[argv.index("--dump") + 1]) if "--dump" in argv else None
    written: dict[str, list[dict]] = {}
    names = [k for r in rounds for k in json.loads((ROOT / f"eval/heldout_key_ideas_{r}.json").read_text())
             if k != "_about"]
    spec = importlib.util.spec_from_file_location("deck_pdf", ROOT / "eval" / "deck_pdf.py")
    deck_pdf = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(deck_pdf)  # type: ignore[union-attr]
    with tempfile.TemporaryDirectory() as tmp:
        corpora = Path(tmp) / "corpora"
        corpora.mkdir()
        for n in names:
            deck_pdf.render(ROOT / "eval" / "heldout_decks" / f"{n[:-4]}.txt", corpora / n)
        course = kb.open(Path(tmp) / ".kb")
        course.ingest([corpora]).raise_if_failed()
        total, full, over = 0, 0, 0
        mix: Counter[str] = Counter()
        for n in names:
            src = next(r["source"] for r in course.sources() if r["source"].endswith(n))
            qs = generate_quiz(course.workspace, GenerationRequest(n=12, sources=(src,)), OfflineWriter(),
                               now="bench").quiz.questions
            kinds = Counter(q.type for q in qs)
            total, full, mix = total + len(qs), full + (len(qs) >= 10), mix + kinds
            over += bool(qs) and max(kinds.values()) > max(2, -(-4 * len(qs) // 10))
            written[n] = [{"id": q.id, "type": q.type, "origin": q.origin, "prompt": q.prompt, "answer": q.answer,
                           "concepts": list(q.concepts), "choices": list(q.choices)} for q in qs]
            print(f"{n}: {len(qs)} of 12, types {dict(kinds.most_common())}")
            for q in qs:
                if origin and q.origin == origin:
                    print(f"    [{q.type}] {q.prompt} => {q.answer}" + (f" {list(q.choices)}" if q.choices else ""))
        print(f"all: {total} questions, {full} of {len(names)} decks with >= 10, {over} with a type above ~40 %")
        if dump:
            dump.write_text(json.dumps(written, ensure_ascii=False, indent=1))
        print("type mix: " + ", ".join(f"{t} {k} ({k / max(1, total):.0%})" for t, k in mix.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
