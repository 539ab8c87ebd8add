"""Grading speed: replies/s of the offline grader, with embedding timed apart.

    python bench/grade.py [--replies 10000]

Replies come from pt_asag_2018 (../shared/benchmarks, all 15 questions) when it is beside
the checkout, else from the sample course's sentences paired with its own quiz questions.
Step 1 embeds every distinct text (replies, references, questions) through a fresh
embedding cache; step 2 grades all replies with those vectors cached, so its time is the
grader's own work (features, concept matching, guards) plus cache reads.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.embeddings import CachedEmbedder, get_embedder  # noqa: E402
from kb.grading.base import Task  # noqa: E402
from kb.grading.offline import CALIBRATION, OfflineGrader  # noqa: E402
from kb.quiz import Question  # noqa: E402
from kb.text import sentences  # noqa: E402

ASAG = next((up / "shared" / "benchmarks" / "pt_asag_2018" for up in ROOT.parents
             if (up / "shared" / "benchmarks" / "pt_asag_2018").is_dir()),
            ROOT.parent / "shared" / "benchmarks" / "pt_asag_2018")


def asag_tasks(tmp: Path) -> list[Task]:
    out = tmp / "all.csv"
    subprocess.run([sys.executable, str(ROOT / "bench" / "pt_asag_to_csv.py"), "--split", "all", "-o", str(out)],
                   check=True)
    qs: dict[str, Question] = {}
    tasks = []
    with out.open(encoding="utf-8") as f:
        for r in csv.DictReader(f):
            q = qs.setdefault(r["question_id"], Question(
                "short", r["question"], r["reference"], (), concepts=tuple(c for c in r["concepts"].split("; ") if c)))
            tasks.append(Task(q, r["answer"]))
    return tasks


def course_tasks() -> list[Task]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "sources").iterdir()) if p.is_file())
    sents = [s for s in sentences(text) if 40 <= len(s) <= 300]
    qs = [Question("short", f"Explique: {s[:60]}?", s, ()) for s in sents[::10]]
    return [Task(qs[i % len(qs)], sents[(i * 7) % len(sents)]) for i in range(len(sents) * 4)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--replies", type=int, default=10_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tasks = asag_tasks(Path(tmp)) if ASAG.is_dir() else course_tasks()
        source = "pt_asag_2018" if ASAG.is_dir() else "sample course"
        while len(tasks) < args.replies:
            tasks = tasks + tasks
        tasks = tasks[: args.replies]
        emb = CachedEmbedder(get_embedder(CALIBRATION["embedder"]), Path(tmp) / "cache.sqlite")
        grader = OfflineGrader(emb)
        t0 = time.perf_counter()
        grader.features(tasks)  # embeds every distinct text once, into the cache
        t_embed = time.perf_counter() - t0
        distinct = emb.misses
        t0 = time.perf_counter()
        c0 = time.process_time()
        grades = grader.grade(tasks)
        t_grade, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"replies: {len(grades)} from {source}; distinct texts embedded: {distinct}")
    print(f"embedding: {t_embed:.1f} s ({distinct / t_embed:.0f} texts/s)")
    print(f"grading with embeddings cached: {t_grade:.2f} s wall, {cpu:.2f} s CPU -> "
          f"{len(grades) / t_grade:,.0f} replies/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
