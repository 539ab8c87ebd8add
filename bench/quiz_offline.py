"""Offline quiz generation: time per question, questions written and their type mix, `-n 12` on each corpora deck.

    python bench/quiz_offline.py    # needs ../shared/corpora/*.pdf (or KB_SHARED_DIR); ingests them into a temp folder

The model is loaded once; each deck's quiz is generated three times in process and the best time
kept, so the number is the writer's (outline, patterns, checks, selection), not the start-up's.
Measured 2026-11-28 on a loaded 2-core machine (shared by 8 sessions), the three corpora decks:
before the outline (3edcf1b) 33 questions in 1.83 s (0.056 s/question), after (plan, then write;
the writer split into patterns) 35 questions in 1.88 s (0.054 s/question). Issue 26's topic ranking and
plan (branch plan26), same loaded machine, two runs each: main 0.65 / 0.67 s, plan26 0.67 / 0.64 s for 35
questions (0.019 / 0.018 s/question). Plain questions set in the deck's subject and tried in their other
forms (branch plan26b), same loaded machine: plan26 35 questions, 0.024 / 0.026 s/question; plan26b 36,
0.023 / 0.023 / 0.025 s/question (05modelos 11 → 12). A sentence's other forms kept until selection
(branch typemix26), same loaded machine: main 36 questions, 0.017 s/question, short 69 %; typemix26 36,
0.019 s/question, short 64 %, mcq 6 % (03Datos: short 5, tf 4, mcq 2, cloze 1). Objective forms on an idea's
sibling terms (branch mix), same loaded machine (load ~3), two runs each: main 36 questions, 0.024 / 0.018
s/question; mix 36, 0.022 / 0.020 s/question; the same type mix (these three decks hold no list of sibling
terms: 05modelos is titles and how-tos, short 11 of 12). Common mistakes asked by their consequence (branch
fill26), same loaded machine (load ~1.7), two runs each: base 9883cf5 36 questions, 0.018 / 0.019 s/question;
fill26 36, 0.019 / 0.019 s/question, the same type mix (these decks hold no common-mistakes slide). An asked
list's objective forms offered as other forms of its question (branch objective30), same loaded machine (load ~2.5),
two runs each: main eed0729 36 questions, 0.020 / 0.020 s/question; objective30 36, 0.021 / 0.021 s/question
(03Datos: a tf becomes a multiple choice among the DataLoader settings).
The prior over question forms (branch formprior30), same loaded machine (load ~1.5), two runs each: base eed0729
36 questions, 0.021 / 0.021 s/question; formprior30 36, 0.021 / 0.020 s/question, the same type mix.
Session 20's writer (form prior, objective forms and their checks, whole-claim concepts), load ~0.8, two
alternating runs each: eed0729 36 questions, 0.67 / 0.66 s (0.019 / 0.018 s/question); f027ebc 36,
0.68 / 0.69 s (0.019).
Session 21's writer (deck topics, attribution concepts, code-slide stems, fixes31, tidy31), load ~0.9, two alternating
runs each: 2041e92 36 questions, 0.73 / 0.71 s (0.020 s/question); 8a5222b 36, 0.71 / 0.69 s (0.020 / 0.019), the
same type mix.
Session 22's writer (last resorts by the form prior: the fill writes more candidates), this machine (load ~0.8), three
alternating runs each: 669c39d 36 questions, 0.95 / 0.95 / 1.00 s (0.026-0.028 s/question); 67bb42c 36, 0.94 / 0.94 /
0.93 s (0.026), after caching a word's fold and a source's normalised text (1.32-1.42 s before); short 69 % (64 %),
cloze 8 % (17 %): 001TFDist's clozes on prose words gave way to short answers.

Session 23's writer (settings, label options, C/CUDA code lines, chunker v13), load ~0.8, alternating runs: c73ff42
36 questions, 1.02 s (0.028 s/question); d91bd72 36, 1.03 / 1.04 s (0.029), the same type mix.
Session 24's writer (meaning-giveaway embeds a multiple choice's options, prose-blank, label stems), load ~0.4-0.9,
four alternating runs: 28fa4db 36 questions, 0.97 / 1.00 / 1.01 / 0.96 s (0.027-0.028 s/question); d08a207 36,
1.02 / 1.07 / 0.95 / 0.98 s (0.026-0.030), the same type mix (these decks' clozes blank code entities).
Session 25's writer (formula brackets in concepts, every top bullet of a long slide, results slides, the deck's title
before its code's library), four alternating runs: c23ba98 36 questions, 1.02 / 1.00 s and 1.05 / 0.99 s
(0.028 s/question); c2596d2 36, 1.00 / 1.00 s; 232b0f3 0.97 / 0.98 s; the same type mix.
Session 26's writer (notation-answer, the form prior refitted, long lists asked to fill, "which description matches
«X»"), two alternating runs: 250e1b5 36 questions, 1.01 / 0.96 s (0.027-0.028 s/question); 67f6710 36, 0.97 / 1.06 s
(0.027-0.030), the same type mix (these decks' lists hold no three siblings' descriptions to offer); the final
writer (8a61fb0, that form reverted), two more alternating runs: 250e1b5 1.14 / 1.01 s, 8a61fb0 1.02 / 1.02 s.
Session 27's mcq:unnamed (a which-term multiple choice among words the deck seldom says, a last resort), two
alternating runs: 2282839 36 questions, 1.11 / 1.06 s (0.029-0.031 s/question); 5efeb78 36, 1.09 / 1.16 s
(0.030-0.032); type mix short 69 -> 75 %, mcq 3 -> 0 (03Datos' multiple choices ask among its one-line labels).
With its named multiple choice paired again (49d71a2, generate._pair_mcq): 2282839 1.00 / 1.07 s, 49d71a2 1.05 /
0.99 s; short 75 %, mcq 2 (6 %). Paired with a last resort of four options first (fc4a374): 2282839 1.01 / 1.05 s,
fc4a374 0.98 / 1.09 s, the same type mix."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

CORPORA = Path(os.environ.get("KB_SHARED_DIR") or Path(__file__).resolve().parent.parent.parent / "shared") / "corpora"
DECKS = ("001TFDist.pdf", "03Datos.pdf", "05modelos.pdf")


def main() -> int:
    if not all((CORPORA / d).exists() for d in DECKS):
        print(f"needs {', '.join(DECKS)} in {CORPORA}", file=sys.stderr)
        return 2
    import kb
    from kb.writing.generate import GenerationRequest, generate_quiz
    from kb.writing.offline import OfflineWriter

    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "corpora").mkdir()
        for d in DECKS:
            shutil.copy(CORPORA / d, Path(tmp) / "corpora" / d)
        course = kb.open(Path(tmp) / ".kb")
        course.ingest([Path(tmp) / "corpora"]).raise_if_failed()
        ws = course.workspace
        total_t, total_q = 0.0, 0
        mix: Counter[str] = Counter()
        for d in DECKS:
            src = next(r["source"] for r in course.sources() if r["source"].endswith(d))
            best = float("inf")
            for _ in range(3):
                t = time.perf_counter()
                report = generate_quiz(ws, GenerationRequest(n=12, sources=(src,)), OfflineWriter(), now="bench")
                best = min(best, time.perf_counter() - t)
            n = len(report.quiz.questions)
            total_t, total_q = total_t + best, total_q + n
            kinds = Counter(q.type for q in report.quiz.questions)
            mix.update(kinds)
            print(f"{d}: {n} of 12 questions, {best:.2f} s, {best / max(1, n):.3f} s/question, "
                  f"types {dict(kinds.most_common())}")
        print(f"all: {total_q} questions, {total_t:.2f} s, {total_t / max(1, total_q):.3f} s/question")
        print("type mix: " + ", ".join(f"{t} {k} ({k / max(1, total_q):.0%})" for t, k in mix.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
