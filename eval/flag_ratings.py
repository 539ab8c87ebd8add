"""How many of the questions teachers DROP (and FIX) does the check registry flag? And how many it keeps?

    python eval/flag_ratings.py                 # both halves, per verdict
    python eval/flag_ratings.py --half report   # only the decks no check was written on
    python eval/flag_ratings.py --half write --examples DROP   # the unflagged DROPs of the half checks are written on

Each rating of ``eval/ratings.csv`` by a teacher (not the first writer's ``author`` self-rating) is
checked the way ``kb eval quiz`` checks a question (:func:`kb.writing.checklist.question_defects`, and
:func:`~kb.writing.checklist.quiz_defects` across the quiz it was in — the file's ``quizzes``, else the
rated packet's deck): against its cited page (``p. N``) or heading as the passage, the whole deck as the source, the
deck's outline. The decks are read again from their files — ``../shared/corpora/*.pdf``, the sample
course (``sources/``) and ``eval/heldout_decks/*.txt`` rendered to a PDF as ``eval/deck_pdf.py`` does —
with kb's own reader and chunker, and the default embedder for the cosine support test (``--no-embedder``:
lexical only, faster, flags more). ``thin-concepts`` (a note on the grader's concepts, which a teacher
rating the question does not judge) is not counted as a flag unless ``--count-thin``. The rated question's origin
(definition, purpose …) is not in the file; it is read from the stem's shape.

The rated decks are split in two halves by a hash of their name (``write``: the half new checks
may be written on; ``report``: the half they are measured on). The real held-out decks
(``../shared/heldout_decks/``) are never rated here and never read.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import re
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("KB_SHARED_DIR") or ROOT.parent / "shared")
# the lead's held-out measurement: never read here (none of them is in ratings.csv)
HELD_OUT = frozenset({"021022023Tensores.pdf", "041RAYTune.pdf", "04CreacionArquitecturasRed.pdf"})

_ORIGIN = [  # the writer's origin from the stem's shape (the file does not keep it)
    (re.compile(r"^¿?(?:Qué es|Qué son|O que é|O que são|What is|What are)\b", re.I), "definition"),
    (re.compile(r"^¿?(?:Para qué|Para que)\b", re.I), "purpose"),
    (re.compile(r"diferencia|diferença|difference", re.I), "compare"),
    (re.compile(r"pasos|passos|steps", re.I), "steps"),
]


def half_of(deck: str) -> str:
    """``write`` or ``report``: a stable half by the deck's name."""
    return "write" if hashlib.sha1(deck.encode()).digest()[0] % 2 == 0 else "report"


def deck_file(deck: str, tmp: Path) -> Path | None:
    """The file a rated deck was read from (a text deck rendered to a PDF in ``tmp``), or None."""
    name = Path(deck).name
    if name in HELD_OUT:
        return None
    if deck.startswith("sources/"):
        p = ROOT / deck
        return p if p.is_file() else None
    if (SHARED / "corpora" / name).is_file():
        return SHARED / "corpora" / name
    txt = ROOT / "eval" / "heldout_decks" / (Path(name).stem + ".txt")
    if not txt.is_file():
        return None
    from eval.deck_pdf import render

    out = tmp / "corpora" / name
    out.parent.mkdir(parents=True, exist_ok=True)
    if not out.exists():
        render(txt, out)
    return out


def question_of(row: dict, source: str):
    """The rated question as a :class:`kb.quiz.Question` (origin read from the stem)."""
    from kb.quiz import Citation, Question
    from kb.text import detect_language

    answer = row["answer"]
    choices = tuple(x.strip() for x in row["choices"].split(" | ")) if row["choices"] else ()
    if row["type"] == "mcq" and not choices and " → " in answer:  # the older files: "a | b | c | d → b"
        listed, answer = answer.rsplit(" → ", 1)
        choices = tuple(x.strip() for x in listed.split(" | "))
    correct: int | bool | None = None
    if row["type"] == "mcq" and answer.strip() in choices:
        correct = choices.index(answer.strip())
    elif row["type"] == "tf":
        correct = not re.match(r"^\s*(Falso|False)\b", row["answer"])
    origin = "harvested" if re.search(r"Exerc[ií]c", row["locator"]) else \
        next((o for rx, o in _ORIGIN if row["type"] == "short" and rx.search(row["prompt"])), "")
    quote = re.search(r"“(.+)”", answer) if row["type"] == "tf" else None  # a false statement's quote
    cite = Citation(source, row["locator"], "", quote.group(1) if quote else "")
    return Question(row["type"], row["prompt"], answer, (cite,),
                    tuple(x.strip() for x in row["concepts"].split(";") if x.strip()),
                    lang=detect_language(row["prompt"], default="es"), choices=choices, correct=correct,
                    origin=origin)


def section_text(chunks, locator: str) -> str:
    """The text of the page (``p. N``) or heading a locator names."""
    m = re.match(r"^pp?\. (\d+)", locator)
    if m:
        page = int(m.group(1))
        return "\n".join(c.text for c in chunks if c.locator.page == page)
    head = locator.split(" · ")[-1]
    return "\n".join(c.text for c in chunks if (c.locator.heading or "") == head or c.locator.describe() == locator)


def flag(rows: list[dict], embedder=None) -> list[tuple[dict, list[str]]]:
    """Each rating with the defects the registry finds in its question ([] = clean); ratings whose deck
    or page cannot be read again are left out."""
    from kb.chunking import chunk_document
    from kb.outline import build_outline
    from kb.readers import read_document
    from kb.writing.checklist import CheckContext, question_defects, quiz_defects
    from kb.writing.checks import vocabulary
    from kb.writing.course import CourseTerms

    by_deck: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_deck[r["deck"]].append(r)
    out: list[tuple[dict, list[str]]] = []
    questions: dict[str, object] = {}  # question key → its Question, for the checks across a quiz
    with tempfile.TemporaryDirectory() as tmp:
        for deck, mine in sorted(by_deck.items()):
            path = deck_file(deck, Path(tmp))
            if path is None:
                continue
            chunks = chunk_document(read_document(path), deck)
            whole = "".join(f"\n{c.locator.heading or ''}\n{c.text}" for c in chunks)
            vocab = vocabulary(whole)
            course = CourseTerms(chunks, None)
            outline = build_outline(chunks, deck, bookmarks=[])
            cache: dict[str, list[str]] = {}
            for r in mine:
                key = r["question_id"] + r["prompt"]
                if key not in cache:
                    passage = section_text(chunks, r["locator"])
                    if not passage:
                        continue
                    q = question_of(r, deck)
                    ctx = CheckContext(passage, whole, vocab, embedder, course.verb_like, outline=outline)
                    cache[key] = question_defects(q, ctx)
                    questions[key] = q
                out.append((r, cache[key]))
    # across each quiz (a rated packet's deck where the file names no quiz), as kb eval quiz checks it:
    # a question asking what an earlier one asks, an answer another stem writes
    quizzes: dict[str, dict[str, object]] = defaultdict(dict)
    for r, _ in out:
        key = r["question_id"] + r["prompt"]
        # (a quiz name was written again by each writer version: one quiz per version and name)
        for name in r["quizzes"].split() or [f"{r['source_file']}|{r['deck']}"]:
            quizzes[f"{r['writer']}|{r['source_file']}|{name}"].setdefault(key, questions[key])
    across: dict[str, set[str]] = defaultdict(set)
    for members in quizzes.values():
        keys = list(members)
        qs = [members[k] for k in keys]
        if len({q.id for q in qs}) < len(qs):  # (one question rated twice under two ids' prompts: keep the first)
            seen: set[str] = set()
            keys = [k for k, q in zip(keys, qs, strict=True) if not (q.id in seen or seen.add(q.id))]
            qs = [members[k] for k in keys]
        found, _ = quiz_defects(qs, embedder)
        for k, q in zip(keys, qs, strict=True):
            across[k] |= set(found[q.id])
    return [(r, f + sorted(across[r["question_id"] + r["prompt"]] - set(f))) for r, f in out]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--half", choices=("write", "report", "all"), default="all")
    ap.add_argument("--examples", metavar="VERDICT", help="list the unflagged ratings of this verdict (DROP, FIX)")
    ap.add_argument("--flagged", metavar="VERDICT", help="list the flagged ratings of a verdict (KEEP: false alarms)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-embedder", action="store_true", help="lexical support only")
    ap.add_argument("--count-thin", action="store_true", help="count thin-concepts as a flag")
    args = ap.parse_args()
    embedder = None
    if not args.no_embedder:
        from kb.config import DEFAULT_EMBEDDER
        from kb.embeddings import get_embedder

        embedder = get_embedder(DEFAULT_EMBEDDER)
    rows = [r for r in csv.DictReader(open(ROOT / "eval" / "ratings.csv", encoding="utf-8"))
            if r["rater"] != "author" and r["verdict"] in ("KEEP", "FIX", "DROP")]
    result: dict[str, dict] = {}
    for half in (("write", "report") if args.half == "all" else (args.half,)):
        done = [(r, [d for d in f if args.count_thin or d != "thin-concepts"])
                for r, f in flag([r for r in rows if half_of(r["deck"]) == half], embedder)]
        per: dict[str, dict] = {}
        for v in ("DROP", "FIX", "KEEP"):
            got = [f for r, f in done if r["verdict"] == v]
            per[v] = {"ratings": len(got), "flagged": sum(1 for f in got if f),
                      "share": round(sum(1 for f in got if f) / max(1, len(got)), 3),
                      "defects": dict(Counter(d for f in got for d in set(f)).most_common())}
        result[half] = {"decks": len({r["deck"] for r, _ in done}), **per}
        for verdict, want in ((args.examples, False), (args.flagged, True)):
            if verdict:
                for r, f in done:
                    if r["verdict"] == verdict and bool(f) == want:
                        print(f"[{half}] {r['deck']} {r['locator'][:40]} | {r['type']} | {r['prompt'][:140]} | "
                              f"A: {r['answer'][:80]} | {f} | {r['reason'][:120]}")
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=1))
    else:
        for half, res in result.items():
            print(f"{half} half ({res['decks']} decks): " + ", ".join(
                f"{v} {res[v]['flagged']}/{res[v]['ratings']} ({res[v]['share']:.0%})"
                for v in ("DROP", "FIX", "KEEP")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
