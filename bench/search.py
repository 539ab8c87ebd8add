"""Search latency on a 10,000-chunk store, in-process and as a cold `kb search`.

    python bench/search.py [--chunks 10000]

The store is built from the sample course's real chunks, replicated with a marker and a
little noise on their vectors until it holds --chunks chunks (embedding 10,000 distinct
texts would time the encoder, not search). Reports p50/p95 of Retriever.search for each
mode over the queries of eval/queries.jsonl (query embedding included), then the wall time
of a cold `kb search` process.
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
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from kb.chunking import chunk_document, index_text  # noqa: E402
from kb.config import Settings  # noqa: E402
from kb.ingest import discover  # noqa: E402
from kb.readers import read_document  # noqa: E402
from kb.workspace import open_workspace  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chunks", type=int, default=10_000)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-search-"))
    try:
        ws = open_workspace(Settings(home=tmp / ".kb"), create=True)
        files, _, _ = discover([ROOT / "sources"])
        base = [c for f in files for c in chunk_document(read_document(f), f"sources/{f.name}")]
        vecs = ws.embedder.embed_documents([index_text(c) for c in base])
        rng = np.random.default_rng(0)
        t = time.perf_counter()
        copies = 0
        while ws.store.count() < args.chunks:
            n = min(len(base), args.chunks - ws.store.count())
            batch = [replace(c, text=f"{c.text} [{copies}]", source=f"{c.source}#{copies}", id="") for c in base[:n]]
            v = vecs[:n] + rng.normal(0, 0.02, vecs[:n].shape).astype(np.float32)
            v /= np.linalg.norm(v, axis=1, keepdims=True)
            ws.store.upsert(batch, v, "bench")
            copies += 1
        ws.store.bump_revision()
        print(f"store: {ws.store.count()} chunks, built in {time.perf_counter() - t:.1f} s")
        queries = [json.loads(x)["query"] for x in (ROOT / "eval" / "queries.jsonl").read_text().splitlines()
                   if x.strip()]
        t = time.perf_counter()
        _ = ws.retriever.index  # the property builds and caches the search index (vectors + BM25) once: timed here
        print(f"search index built in {time.perf_counter() - t:.2f} s (cached for later processes)")
        ws.retriever.search("warm up", k=5)
        print(f"{'mode':8} {'p50 ms':>8} {'p95 ms':>8}   (in-process, {len(queries)} queries x 3)")
        for mode in ("hybrid", "dense", "bm25"):
            times = []
            for _ in range(3):
                for q in queries:
                    t = time.perf_counter()
                    ws.retriever.search(q, k=5, mode=mode)
                    times.append((time.perf_counter() - t) * 1000)
            times.sort()
            print(f"{mode:8} {statistics.median(times):8.1f} {times[int(len(times) * 0.95) - 1]:8.1f}")
        qt = []
        for q in queries:
            t = time.perf_counter()
            ws.embedder.embed_queries([q])
            qt.append((time.perf_counter() - t) * 1000)
        print(f"query embedding alone: p50 {statistics.median(qt):.1f} ms")
        env = dict(os.environ, KB_HOME=str(tmp / ".kb"))
        walls = []
        for _ in range(3):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "kb.cli", "search", "como limitar a memória da GPU?", "--json"],
                           env=env, cwd=tmp, check=True, capture_output=True)
            walls.append(time.perf_counter() - t)
        print(f"cold `kb search` wall time: median {statistics.median(walls):.2f} s of 3 runs")
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "kb.cli", "--help"], check=True, capture_output=True)
        print(f"`kb --help` wall time: {time.perf_counter() - t:.2f} s")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
