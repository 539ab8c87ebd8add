"""How well kb's outline and quizzes find the key ideas a teacher listed for each deck (issue 26).

    python eval/key_idea_coverage.py KEY_IDEAS.json WORKSPACE [--generate 12] [--quiz Q.json ...] [--json]

KEY_IDEAS.json has the shape of ``eval/heldout_key_ideas.json``: per file name, a list of ideas, each with
``idea`` (what it is), ``phrases`` (lower case; any one shows a text is about the idea) and where the deck
teaches it: ``pages`` (1-based) and/or ``sections`` (heading text, for files without pages). WORKSPACE is
a folder whose ``.kb`` holds the decks (``kb ingest DECKS`` run in it), or a kb home itself. A deck is
found by its file name at the end of a stored source's path.

Two measures, per deck and in all:

(a) **Outline recall** (``kb outline``): how many of the deck's key ideas are among its outline's
    top-5 and top-10 ideas (``Outline.top(k)``). An outline idea *matches* a key idea when both
      - **place**: a page of the idea (the pages of the passages it was read from) is one of the key
        idea's ``pages``, or, for a key idea with ``sections``, the heading path of one of its passages
        contains one of them (folded: lower case, no accents); and
      - **phrase**: one of the key idea's phrases occurs in the idea's name or text (rule below).
    ``strict`` counts place AND phrase (the headline); ``loose`` counts place OR a phrase in the idea's
    *name*, to show how much the strict rule's text test costs.
(b) **Quiz coverage**: the share of key ideas that some question on the deck (one citing it) hits by
    phrase in its prompt or model answer (for mcq the correct choice) — the rule the fresh raters
    applied, approximately (``eval/real_heldout_r4/coverage.csv``: they also counted a question that
    "only partly" asked an idea). ``cited`` also asks that the question cite one of the idea's pages or
    sections.

A phrase occurs in a text when it starts a word there ("tensor" in "tensores"); a phrase of 4 letters or
fewer must also end one ("nas" is not "ventanas", "head" not "headers"). Both are folded first.

With ``--why`` (and ``--generate``), each deck's planned top ideas (``kb.writing.plan.plan_size(N)``, the ideas
the quiz aims one question each at) are listed with what became of them: asked (and by which question type),
or how many drafts on them passed the checks and were not chosen, and which checks turned down the drafts
written from their passages (each check counted once per draft); for an idea not asked, up to three of
those drafts (the stem's first 80 characters) with the checks each failed.

Quizzes come from ``--quiz`` files (each question counts for the deck whose file name its first citation names) or are
written with ``--generate N``: ``kb quiz generate -n N --offline --source DECK`` for each deck, in
process (``--save DIR`` keeps them as DIR/<deck stem>.json).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

TOPS = (5, 10)
EXAMPLES = 3  # --why: the drafts turned down on a planned idea shown, each with the checks it failed


def fold(text: str) -> str:
    """Lower case without accents ("Época" → "epoca")."""
    nfkd = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in nfkd if not unicodedata.combining(ch))


def phrase_in(phrase: str, text: str) -> bool:
    """``phrase`` occurs in ``text``: it starts a word there, and ends one when it has 4 letters or fewer."""
    p = fold(phrase).strip()
    if not p:
        return False
    end = r"(?!\w)" if len(p) <= 4 else ""
    return re.search(rf"(?<!\w){re.escape(p)}{end}", fold(text)) is not None


def any_phrase(idea: dict, text: str) -> bool:
    """One of the key idea's phrases occurs in ``text``."""
    return any(phrase_in(p, text) for p in idea.get("phrases", []))


def in_place(idea: dict, pages: Iterable[int | None], headings: Iterable[str]) -> bool:
    """Passages on ``pages`` under ``headings`` are where the deck teaches the key idea."""
    want = set(idea.get("pages", []))
    if want & {p for p in pages if p is not None}:
        return True
    secs = [fold(s) for s in idea.get("sections", []) if s.strip()]
    return any(s in fold(h) for h in headings for s in secs)


def load_key_ideas(path: Path) -> dict[str, list[dict]]:
    """The key-idea file: deck file name → its ideas (keys starting with "_" are notes)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


def outline_recall(ideas: Sequence[dict], outline, chunks: dict, tops: Sequence[int] = TOPS) -> dict:
    """Per k: how many key ideas some top-k outline idea matches (strict and loose), and which."""
    out: dict = {}
    for k in tops:
        top = outline.top(k)
        strict: list[int] = []
        loose: list[int] = []
        for n, key in enumerate(ideas, 1):
            s = lo = False
            for i in top:
                cs = [chunks[c] for c in i.chunk_ids if c in chunks]
                place = in_place(key, (c.locator.page for c in cs), (c.locator.heading or "" for c in cs))
                s = s or (place and any_phrase(key, f"{i.name}\n{i.text}"))
                lo = lo or place or any_phrase(key, i.name)
            if s:
                strict.append(n)
            if lo:
                loose.append(n)
        out[k] = {"strict": strict, "loose": loose, "top": [f"{i.name} ({i.locator.split(' · ')[0]})" for i in top]}
    return out


def quiz_coverage(ideas: Sequence[dict], questions: Sequence, chunks: dict) -> dict:
    """Which key ideas some question hits by phrase (prompt, model answer) and, of those, which a question
    citing the idea's place hits."""
    hit: list[int] = []
    cited: list[int] = []
    for n, key in enumerate(ideas, 1):
        h = c = False
        for q in questions:
            if not any_phrase(key, f"{q.prompt}\n{q.correct_text}"):
                continue
            h = True
            cs = [chunks[x.chunk_id] for x in q.citations if x.chunk_id in chunks]
            c = c or in_place(key, (ch.locator.page for ch in cs), (ch.locator.heading or "" for ch in cs))
        if h:
            hit.append(n)
        if c:
            cited.append(n)
    return {"questions": len(questions), "hit": hit, "cited": cited}


def planned_fate(outline, rep, n: int) -> list[dict]:
    """What became of each planned top idea of a generated quiz (``rep``: its GenerationReport): asked by
    the chosen questions (their types), how many passing drafts were on it, and the checks that turned
    down drafts written from its passages (name → drafts)."""
    from collections import Counter

    from kb.writing.plan import asks, plan_size

    top = outline.top(plan_size(n))
    keys = {d.idea for d in rep.chosen if d.idea}
    chosen_ideas = [i for i in outline.ideas if i.key in keys]
    rows = []
    for rank, idea in enumerate(top):
        on = [d for d in rep.drafts if d.chunk.source == outline.source and d.plan == rank]
        by = [d.question.type + "/" + d.question.origin for d in rep.chosen
              if d.chunk.source == outline.source and d.plan == rank]
        failed: Counter = Counter()
        examples: list[str] = []
        for r in rep.rejected:
            if r.chunk_id in idea.chunk_ids and str(r.reason).startswith("failed checks"):
                failed.update(sorted({x.strip() for x in str(r.reason).split(":", 1)[1].split(",")}))
                examples.append(f"{r.what} — {str(r.reason).split(':', 1)[1].strip()}")
        rows.append({"rank": rank + 1, "idea": idea.name, "where": idea.locator.split(" · ")[0], "kind": idea.kind,
                     "asked": bool(by) or asks(chosen_ideas, idea), "by": by, "passed": len(on),
                     "failed": dict(failed.most_common()), "examples": examples[:EXAMPLES]})
    return rows


def measure(key_ideas: dict[str, list[dict]], home: Path, *, generate: int = 0, quiz_files: Sequence[Path] = (),
            save: Path | None = None, why: bool = False) -> dict:
    """Outline recall and (with quizzes) quiz coverage for every deck of ``key_ideas`` found in the kb at ``home``."""
    import kb
    from kb.outline import build_outline, match_source
    from kb.quiz import load_quiz, save_quiz
    from kb.store import open_store

    course = kb.open(home)
    store = course.workspace.store if generate else open_store(course.settings)  # (a model only to write)
    chunks_list = list(store.all_chunks())
    chunks = {c.id: c for c in chunks_list}
    names = sorted({c.source for c in chunks_list})
    loaded = [q for f in quiz_files for q in load_quiz(f).questions]
    report: dict = {"decks": {}}
    for deck, ideas in key_ideas.items():
        src = match_source(names, deck)
        if src is None:
            report["decks"][deck] = {"missing": True}
            continue
        outline = build_outline(chunks_list, src)
        row: dict = {"source": src, "ideas": len(ideas), "outline": outline_recall(ideas, outline, chunks)}
        # (a quiz made in another folder names the deck by another path: its file name is the deck)
        questions = [q for q in loaded if q.citations and Path(q.citations[0].source).name == Path(src).name]
        if generate:
            from kb.writing.generate import GenerationRequest, generate_quiz
            from kb.writing.offline import OfflineWriter

            rep = generate_quiz(course.workspace, GenerationRequest(n=generate, sources=(src,)), OfflineWriter(),
                                now="key-idea-coverage")
            questions += list(rep.quiz.questions)
            row["types"] = dict(Counter(q.type for q in rep.quiz.questions).most_common())
            if why:
                row["planned"] = planned_fate(outline, rep, generate)
            if save is not None:
                save.mkdir(parents=True, exist_ok=True)
                save_quiz(rep.quiz, save / f"{Path(deck).stem}.json")
        if generate or quiz_files:
            row["quiz"] = quiz_coverage(ideas, questions, chunks)
        report["decks"][deck] = row
    return report


def totals(report: dict) -> dict:
    """Sums over the decks found: ideas, outline strict/loose per k, quiz hit/cited and questions."""
    rows = [r for r in report["decks"].values() if not r.get("missing")]
    t: dict = {"decks": len(rows), "ideas": sum(r["ideas"] for r in rows)}
    for k in TOPS:
        for rule in ("strict", "loose"):
            t[f"top{k}_{rule}"] = sum(len(r["outline"][k][rule]) for r in rows)
    if any("quiz" in r for r in rows):
        for f in ("hit", "cited"):
            t[f"quiz_{f}"] = sum(len(r["quiz"][f]) for r in rows if "quiz" in r)
        t["questions"] = sum(r["quiz"]["questions"] for r in rows if "quiz" in r)
    types: Counter = Counter()
    for r in rows:
        types.update(r.get("types", {}))
    if types:
        t["types"] = dict(types.most_common())
    return t


def render(report: dict) -> str:
    """The report as lines a person reads: one block per deck, then the totals."""
    lines = []
    for deck, r in report["decks"].items():
        if r.get("missing"):
            lines.append(f"{deck}: not in the knowledge base")
            continue
        n = r["ideas"]
        o = r["outline"]
        parts = [f"outline top-{k} {len(o[k]['strict'])}/{n} strict {o[k]['strict']}, "
                 f"{len(o[k]['loose'])}/{n} loose" for k in TOPS]
        lines.append(f"{deck}: " + "; ".join(parts))
        if "quiz" in r:
            q = r["quiz"]
            lines.append(f"  quiz ({q['questions']} questions): asks {len(q['hit'])}/{n} key ideas {q['hit']}, "
                         f"{len(q['cited'])}/{n} citing their pages")
            if "types" in r:
                lines[-1] += " — " + ", ".join(f"{k} {v}" for k, v in r["types"].items())
        lines.append("  top-5: " + " | ".join(o[5]["top"]))
        for p in r.get("planned", []):
            fate = ("asked by " + ", ".join(p["by"]) if p["by"] else "asked (a question on its topic)") \
                if p["asked"] else (f"{p['passed']} drafts passed, none chosen" if p["passed"] else "no draft passed")
            failed = ", ".join(f"{k} ×{v}" for k, v in p["failed"].items())
            lines.append(f"  plan #{p['rank']} {p['kind']} «{p['idea']}» ({p['where'][:60]}): {fate}"
                         + (f"; failed: {failed}" if failed else ""))
            if not p["asked"]:
                lines += [f"      {e}" for e in p.get("examples", [])]
    t = totals(report)
    if t["ideas"]:
        s = (f"all {t['decks']} decks: outline top-5 {t['top5_strict']}/{t['ideas']} "
             f"({t['top5_strict'] / t['ideas']:.0%}) strict, top-10 {t['top10_strict']}/{t['ideas']} "
             f"({t['top10_strict'] / t['ideas']:.0%}) strict; loose {t['top5_loose']}, {t['top10_loose']}")
        if "quiz_hit" in t:
            s += (f"; quizzes ({t['questions']} questions) ask {t['quiz_hit']}/{t['ideas']} "
                  f"({t['quiz_hit'] / t['ideas']:.0%}), {t['quiz_cited']} citing their pages")
        if "types" in t:
            s += "; types " + ", ".join(f"{k} {v / t['questions']:.0%}" for k, v in t["types"].items())
        lines.append(s)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("key_ideas", type=Path)
    ap.add_argument("workspace", type=Path, help="a folder holding .kb, or a kb home")
    ap.add_argument("--generate", type=int, default=0, metavar="N", help="write an offline -n N quiz per deck")
    ap.add_argument("--quiz", type=Path, nargs="*", default=[], help="quiz files to measure")
    ap.add_argument("--save", type=Path, help="with --generate: keep the quizzes here")
    ap.add_argument("--why", action="store_true", help="with --generate: what became of each planned top idea")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    home = a.workspace / ".kb" if (a.workspace / ".kb").is_dir() else a.workspace
    report = measure(load_key_ideas(a.key_ideas), home, generate=a.generate, quiz_files=a.quiz, save=a.save,
                     why=a.why)
    if a.json:
        report["totals"] = totals(report)
        print(json.dumps(report, ensure_ascii=False, indent=1))
    else:
        print(render(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
