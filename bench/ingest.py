"""Ingest throughput: kb end to end vs the raw encoder on the same chunks, same run.

    python bench/ingest.py [--repeat 5]    # sample course in sources/ (+ ../shared/corpora PDFs if present)
    KB_EMBED_THREADS=2 python bench/ingest.py   # the encoder with another number of BLAS threads

For each corpus and each repeat: a fresh store and a fresh embedding cache; "end to end" is
kb.ingest.ingest() (read, chunk, embed, write to Chroma); "raw encode" is the same encoder alone
on the very same index texts, in one call, right after. ratio = raw time / end-to-end time
(goal >= 0.9 text, >= 0.7 PDF); the median and range over the repeats are printed, because on
a shared machine the load moves both timings between runs (the pairs are measured back to back).
Both sides start warm: the encoder has embedded a text and Chroma has stored one file (a throwaway
store) before any timing, so the first corpus does not pay Chroma's one-time start (~0.5-1 s).
Then a second ingest of the unchanged corpus (everything skipped).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.chunking import chunk_document, index_text  # noqa: E402
from kb.config import Settings  # noqa: E402
from kb.embeddings import embed_threads, get_embedder  # noqa: E402
from kb.ingest import discover, ingest, source_key  # noqa: E402
from kb.readers import read_document  # noqa: E402
from kb.workspace import open_workspace  # noqa: E402


def warm_up(embedder: str) -> None:
    """Load the encoder and let Chroma store one file once in this process, outside every timing."""
    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-"))
    try:
        ws = open_workspace(Settings(home=tmp / ".kb", embedder=embedder), create=True)
        get_embedder(embedder).embed_documents(["warm up the model"])
        (tmp / "warm.txt").write_text("Aquecimento do Chroma: um arquivo curto, gravado uma vez.\n", encoding="utf-8")
        ingest([tmp / "warm.txt"], ws.store, ws.embedder)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def bench_once(paths: list[Path], embedder: str, texts: list[str]) -> dict:
    """One pair: kb's ingest into a fresh store, then the raw encoder on the same texts."""
    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-"))
    try:
        ws = open_workspace(Settings(home=tmp / ".kb", embedder=embedder), create=True)
        emb = ws.embedder  # opens the (empty) embedding cache, outside the timing
        t = time.perf_counter()
        report = ingest(paths, ws.store, emb)
        e2e = time.perf_counter() - t
        chunks = sum(f.chunks for f in report.files)
        assert chunks == len(texts), (chunks, len(texts))
        raw_model = get_embedder(embedder)
        t = time.perf_counter()
        raw_model.embed_documents(texts)
        raw = time.perf_counter() - t
        t = time.perf_counter()
        again = ingest(paths, ws.store, ws.embedder)
        reingest = time.perf_counter() - t
        assert again.embedded == 0
        return {"chunks": chunks, "e2e_s": e2e, "raw_s": raw, "ratio": raw / e2e, "reingest_s": reingest}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def bench(name: str, paths: list[Path], embedder: str, repeat: int) -> dict:
    files, _, _ = discover(paths)
    texts = [index_text(c) for f in files for c in chunk_document(read_document(f), source_key(f))]
    runs = [bench_once(paths, embedder, texts) for _ in range(repeat)]
    ratios = [r["ratio"] for r in runs]
    n = len(texts)
    return {"corpus": name, "files": len(files), "chunks": n,
            "e2e_cps": n / statistics.median(r["e2e_s"] for r in runs),
            "raw_cps": n / statistics.median(r["raw_s"] for r in runs),
            "ratio": statistics.median(ratios), "ratio_min": min(ratios), "ratio_max": max(ratios),
            "reingest_s": statistics.median(r["reingest_s"] for r in runs)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--embedder", default="use-m3")
    ap.add_argument("--repeat", type=int, default=5, help="pairs (kb, raw) per corpus; the median is reported")
    args = ap.parse_args()
    corpora = [("sample course (sources/)", [ROOT / "sources"])]
    shared = Path(os.environ.get("KB_SHARED_DIR") or ROOT.parent / "shared") / "corpora"
    if shared.is_dir():
        corpora.append(("3 slide PDFs (../shared/corpora)", sorted(shared.glob("*.pdf"))))
    warm_up(args.embedder)
    print(f"embedder {args.embedder}, {embed_threads()} BLAS thread(s) (KB_EMBED_THREADS), {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}, {args.repeat} pairs per corpus")
    print(f"{'corpus':34} {'files':>5} {'chunks':>6} {'kb chunks/s':>11} {'raw chunks/s':>12} {'ratio':>6} "
          f"{'range':>10} {'re-ingest s':>11}")
    for name, paths in corpora:
        r = bench(name, paths, args.embedder, args.repeat)
        print(f"{r['corpus']:34} {r['files']:>5} {r['chunks']:>6} {r['e2e_cps']:>11.1f} {r['raw_cps']:>12.1f} "
              f"{r['ratio']:>6.2f} {r['ratio_min']:>4.2f}-{r['ratio_max']:<5.2f} {r['reingest_s']:>11.2f}")
    print(f"load {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
