"""Issue 26, plain stems that quote a slide title or paste a list's labels (kb/writing/pattern_topic.py).

    python eval/topic_stems.py ratings
        of the FIX/DROP ratings of rounds 8-10, how many are the plain path's quoted-title / labels stems and how
        many of those give the quoted title or the labels as the fault (a regex over the rater's reason)
    python eval/topic_stems.py decks r10 OUT.json [--work /tmp/topicstem]
        render the round's decks (the keys of eval/heldout_key_ideas_ROUND.json), ingest them in one KB_HOME,
        ``generate_quiz`` -n 12 offline on each (as ``kb quiz generate -n 12 --offline --source``), and print:
        questions written, decks with >= 10, stems that quote their slide's title in «», stems that paste labels.
        Run it with PYTHONPATH=<checkout> for the code to measure (main before, the branch after).
"""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_PLAIN = re.compile(
    r"qué caracteriza a «|qué significa «|cada uno de estos elementos de «|qué pasos sigue «|o que caracteriza «|"
    r"o que significa «|cada um destes elementos de «|quais são os passos de «|qué se entiende por «|"
    r"o que se entende por «|qué se recomienda hacer en cuanto a «|o que se recomenda fazer quanto a «|"
    r"cuándo conviene usar «|quando convém usar «|what characterises «|what does «|what is meant by «|"
    r"each of these parts of «|steps of «|what should one do about «|when should «")
_FAULT = re.compile(r"without the slide|awkward|ungrammatical|title|t[ií]tulo|label|slide vocabulary|slide'?s? "
                    r"wording|never sees|fragment|elements", re.I)
_PASTED = re.compile(r"cada uno de estos elementos|cada um destes elementos|each of these parts")


def ratings() -> None:
    total = {"fix_drop": 0, "plain_stem": 0, "named_fault": 0}
    for rnd in ("r8", "r9", "r10"):
        rows = list(csv.DictReader(open(ROOT / "eval" / f"real_heldout_{rnd}" / "ratings.csv", encoding="utf-8")))
        bad = [r for r in rows if r["verdict"] in ("FIX", "DROP")]
        stem = [r for r in bad if _PLAIN.search(r["prompt"])]
        named = [r for r in stem if _FAULT.search(r["reason"])]
        print(f"{rnd}: {len(rows)} ratings, {len(bad)} FIX/DROP, {len(stem)} plain quoted stems, "
              f"{len(named)} of them with the title or labels named as the fault")
        for k, v in (("fix_drop", bad), ("plain_stem", stem), ("named_fault", named)):
            total[k] += len(v)
    print("r8-r10:", total)


def decks(rnd: str, out: Path, work: Path) -> None:
    import kb
    from kb.writing.generate import GenerationRequest, generate_quiz
    from kb.writing.offline import OfflineWriter

    names = [k for k in json.load(open(ROOT / "eval" / f"heldout_key_ideas_{rnd}.json")) if k != "_about"]
    (work / "decks").mkdir(parents=True, exist_ok=True)
    for name in names:
        pdf = work / "decks" / name
        if not pdf.exists():
            subprocess.run([sys.executable, str(ROOT / "eval" / "deck_pdf.py"),
                            str(ROOT / "eval" / "heldout_decks" / (name[:-4] + ".txt")), "-o", str(pdf)], check=True)
    subprocess.run([sys.executable, "-m", "kb.cli", "--home", str(work / "home"), "ingest", "decks"], cwd=work,
                   check=True, capture_output=True)
    course = kb.open(work / "home")
    quizzes = {}
    for name in names:
        src = next(s["source"] for s in course.sources() if s["source"].endswith(name))
        qs = generate_quiz(course.workspace, GenerationRequest(n=12, sources=(src,)), OfflineWriter(), now="t")
        quizzes[name] = [{"prompt": q.prompt, "answer": q.answer, "concepts": list(q.concepts), "origin": q.origin,
                          "type": q.type, "loc": q.citations[0].locator} for q in qs.quiz.questions]
    out.write_text(json.dumps(quizzes, ensure_ascii=False, indent=1), encoding="utf-8")
    every = [q for qs in quizzes.values() for q in qs]
    quoted = [q for q in every if f"«{q['loc'].split(' · ', 1)[-1].strip()}»" in q["prompt"]]
    print(f"{rnd}: {len(every)} written, {sum(len(v) >= 10 for v in quizzes.values())} of {len(quizzes)} decks "
          f">= 10, {len(quoted)} stems quote their slide's title, "
          f"{sum(bool(_PASTED.search(q['prompt'])) for q in every)} paste a list's labels")


if __name__ == "__main__":
    if sys.argv[1:2] == ["ratings"]:
        ratings()
    elif sys.argv[1:2] == ["decks"] and len(sys.argv) >= 4:
        work = Path(sys.argv[sys.argv.index("--work") + 1]) if "--work" in sys.argv else Path("/tmp/topicstem")
        decks(sys.argv[2], Path(sys.argv[3]), work)
    else:
        sys.exit(__doc__)
