"""`kb ask` on the honest ask set, and retrieval on decks kb was never tuned on, in one knowledge base.

    python bench/ask.py                      # dev split (what tuning may look at)
    python bench/ask.py --split test         # the headline: run once, at the end
    python bench/ask.py --home /tmp/kb-ask   # keep (or reuse) the knowledge base there
    python bench/ask.py --embedder e5-small  # another embedder for the store
    python bench/ask.py --home /tmp/kb-ask --cold 7 [--baseline /other/checkout] [--uncached]   # cold `kb ask`
    python bench/ask.py --set eval/ask_dev_extra.jsonl --home /tmp/kb-ask-extra   # more dev questions (own decks)
    python bench/ask.py --set eval/ask_dev_fresh.jsonl --home /tmp/kb-ask-fresh   # 54 fresh dev questions (round 3)

The knowledge base holds the sample course (sources/), the three decks of ../shared/corpora, the
three real decks of ../shared/heldout_decks and the held-out decks of eval/ask_set.jsonl rendered
from eval/heldout_decks/*.txt by eval/deck_pdf.py, so every question competes with every passage.
Reported: correct / partly / wrong answers (eval/ask_set.jsonl's rule, see kb.evaluate.judge_answer),
answers that quote their cited passage, the right page among the passages; and hit@1 / hit@5 /
MRR@10 of eval/queries_heldout.jsonl's split of the same name.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# eval/ last: a module there must never shadow the standard library in the ingest's worker processes
sys.path.append(str(ROOT / "eval"))

from deck_pdf import render  # noqa: E402

from kb.ask import ask  # noqa: E402
from kb.config import Settings  # noqa: E402
from kb.evaluate import evaluate_ask, evaluate_retrieval, load_ask_set, load_queries  # noqa: E402
from kb.ingest import ingest  # noqa: E402
from kb.workspace import open_workspace  # noqa: E402

SHARED = Path(os.environ.get("KB_SHARED_DIR") or ROOT.parent / "shared")
ASK_SET = ROOT / "eval" / "ask_set.jsonl"


def build(home: Path, embedder: str | None, extra: Path | None = None):
    """The workspace at ``home`` with every file ingested (unchanged files are skipped on reuse); the decks
    of ``extra`` (another ask set) too, when given."""
    corpora = sorted((SHARED / "corpora").glob("*.pdf"))
    heldout = sorted((SHARED / "heldout_decks").glob("*.pdf"))
    if not corpora or not heldout:
        sys.exit(f"{SHARED}: no corpora/ or heldout_decks/ PDFs (set KB_SHARED_DIR to the shared folder)")
    decks = home / "decks"
    decks.mkdir(parents=True, exist_ok=True)
    rendered = []
    for item in load_ask_set(ASK_SET) + (load_ask_set(extra) if extra else []):
        txt = ROOT / "eval" / "heldout_decks" / item.source.replace(".pdf", ".txt")
        out = decks / item.source
        if txt.exists() and out not in rendered:
            if not out.exists():
                render(txt, out)
            rendered.append(out)
    ws = open_workspace(Settings(home=home / ".kb", **({"embedder": embedder} if embedder else {})), create=True)
    t = time.perf_counter()
    report = ingest([ROOT / "sources", *corpora, *heldout, *rendered], ws.store, ws.embedder)
    print(f"knowledge base: {ws.store.count()} chunks from {len(report.files)} files "
          f"({time.perf_counter() - t:.1f} s)", file=sys.stderr)
    return ws


def cold(home: Path, runs: int, baseline: Path | None, baseline_home: Path | None = None,
         uncached: bool = False) -> None:
    """Wall time of `kb ask --offline` in fresh processes (a student typing it), a different dev question
    each run; with a baseline checkout, its runs alternate with ours so both see the same machine load (on
    ``baseline_home``'s knowledge base when given: one its own chunker built). ``uncached``: each run reads a
    copy of the knowledge base without its embedding cache, so the question and every unit the answer reads
    are embedded in the run (a question asked before otherwise finds them cached)."""
    questions = [i.question for i in load_ask_set(ASK_SET) if i.split == "dev"]
    import resource

    times: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}  # user + system seconds of the process: what the load does not inflate as much
    for n in range(runs + 1):  # the first round warms the model snapshot, the index cache and bytecode: not counted
        for name, code, kb_home in [("this checkout", ROOT, home)] + (
                [("baseline", baseline, baseline_home or home)] if baseline else []):
            # each checkout its own model snapshot (two snapshot formats would replace each other every run)
            # and compiled bytecode, as an installed kb has (kept under home, not written into a checkout)
            if uncached:
                shutil.rmtree(home / "uncached", ignore_errors=True)
                shutil.copytree(kb_home / ".kb", home / "uncached" / ".kb",
                                ignore=shutil.ignore_patterns("embeddings.sqlite*"))
                kb_home = home / "uncached"
            env = dict(os.environ, KB_HOME=str(kb_home / ".kb"), PYTHONPATH=str(code),
                       KB_MODEL_CACHE=str(home / "models" / name.replace(" ", "-")),
                       PYTHONPYCACHEPREFIX=str(home / "pycache" / name.replace(" ", "-")))
            env.pop("KB_LLM_MODEL", None)
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            t = time.perf_counter()
            used = resource.getrusage(resource.RUSAGE_CHILDREN)
            r = subprocess.run([sys.executable, "-m", "kb.cli", "ask", questions[n % len(questions)], "--offline",
                                "--json"], cwd=kb_home, env=env, capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"kb ask failed ({name}):\n{r.stderr}")
            if n:
                times.setdefault(name, []).append(time.perf_counter() - t)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu.setdefault(name, []).append(after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime)
    for name, ts in times.items():
        print(f"cold kb ask --offline, {name}: median {statistics.median(ts):.2f} s, worst {max(ts):.2f} s, "
              f"CPU median {statistics.median(cpu[name]):.2f} s ({len(ts)} runs; "
              f"load average {os.getloadavg()[0]:.1f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", default="dev", choices=("dev", "test", "all"))
    ap.add_argument("--set", type=Path, default=None, help="another ask set (its decks are added to the knowledge "
                    "base: use another --home than the headline's)")
    ap.add_argument("--home", type=Path, default=None, help="keep the knowledge base here (reused when present)")
    ap.add_argument("--embedder", default=None)
    ap.add_argument("-k", type=int, default=5)
    ap.add_argument("--show", action="store_true", help="print every answer (dev only: never read the test's)")
    ap.add_argument("--dump", type=Path, default=None, help="write every question's verdict, cited page and "
                    "answer as JSON lines there (for a before/after diff; never read a test split's answers)")
    ap.add_argument("--ask-only", action="store_true", help="skip queries_heldout's retrieval (the answers only)")
    ap.add_argument("--cold", type=int, default=0, help="time N cold `kb ask` processes instead")
    ap.add_argument("--baseline", type=Path, default=None, help="with --cold: another checkout, run alternately")
    ap.add_argument("--uncached", action="store_true", help="with --cold: no embedding cache in any run")
    ap.add_argument("--baseline-home", type=Path, default=None,
                    help="with --baseline: the knowledge base it reads (built by its own chunker), else --home's")
    args = ap.parse_args()
    tmp = args.home or Path(tempfile.mkdtemp(prefix="kb-bench-ask-"))
    try:
        ws = build(tmp, args.embedder, args.set)
        if args.cold:
            cold(tmp, args.cold, args.baseline, args.baseline_home, args.uncached)
            return
        items = [i for i in load_ask_set(args.set or ASK_SET) if args.split == "all" or i.split == args.split]
        t = time.perf_counter()
        r = evaluate_ask(lambda q: ask(ws, q, k=args.k), items)
        per_q = (time.perf_counter() - t) / max(1, len(items))
        print(f"ask set, {args.split}: n={r['n']} correct {r['correct']:.3f} partly {r['partly']:.3f} "
              f"wrong {r['wrong']:.3f} not-found {r['not_found']:.3f} quoted {r['quoted']:.3f} "
              f"page hit@1 {r['page_hit@1']:.3f} hit@5 {r['page_hit@5']:.3f} ({per_q * 1000:.0f} ms a question)")
        kinds = sorted({q["kind"] for q in r["questions"] if q["kind"]})
        print("  by kind: " + ", ".join(
            f"{k} {sum(q['verdict'] == 'correct' for q in r['questions'] if q['kind'] == k)}/"
            f"{sum(q['kind'] == k for q in r['questions'])}" for k in kinds))
        if args.dump:
            with args.dump.open("w", encoding="utf-8") as out:
                for q in r["questions"]:
                    out.write(json.dumps({k: q.get(k) for k in ("verdict", "question", "answer", "cited",
                                                                "retrieved_rank")}, ensure_ascii=False) + "\n")
        if args.show and args.split == "dev":
            for q in r["questions"]:
                print(json.dumps({k: q[k] for k in ("verdict", "question", "expected", "answer", "cited",
                                                    "retrieved_rank", "quoted")}, ensure_ascii=False))
        if args.ask_only:
            return
        held = load_queries(ROOT / "eval" / "queries_heldout.jsonl")
        for split in (("dev", "test") if args.split == "all" else (args.split,)):
            qs = [q for q in held if q.split == split]
            for mode in ("hybrid", "dense", "bm25"):
                m = evaluate_retrieval(ws.retriever, qs, k=10, mode=mode)
                print(f"queries_heldout {split:4} {mode:6} n={m['n']} hit@1 {m['hit@1']:.3f} "
                      f"hit@5 {m['hit@5']:.3f} MRR@10 {m['mrr@10']:.3f}")
    finally:
        if args.home is None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
