"""Ingest throughput: kb end to end vs the raw encoder on the same chunks, same run.

    python bench/ingest.py            # sample course in sources/ (+ ../shared/corpora PDFs if present)

For each corpus: a fresh store and a fresh embedding cache; "end to end" is
kb.ingest.ingest() (read, chunk, embed, write to Chroma); "raw encode" is the
embedder alone on the very same index texts. ratio = end-to-end / raw (goal >= 0.9).
Then a second ingest of the unchanged corpus (everything skipped).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.chunking import chunk_document, index_text  # noqa: E402
from kb.config import Settings  # noqa: E402
from kb.embeddings import get_embedder  # noqa: E402
from kb.ingest import discover, ingest  # noqa: E402
from kb.readers import read_document  # noqa: E402
from kb.workspace import open_workspace  # noqa: E402


def bench(name: str, paths: list[Path], embedder: str) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-"))
    try:
        ws = open_workspace(Settings(home=tmp / ".kb", embedder=embedder), create=True)
        raw_model = get_embedder(embedder)
        raw_model.embed_documents(["warm up the model"])  # load weights outside both timings
        t = time.perf_counter()
        report = ingest(paths, ws.store, ws.embedder)
        e2e = time.perf_counter() - t
        chunks = report_chunks = sum(f.chunks for f in report.files)
        files, _, _ = discover(paths)
        texts = [index_text(c) for f in files for c in chunk_document(read_document(f), str(f))]
        assert len(texts) == report_chunks, (len(texts), report_chunks)
        t = time.perf_counter()
        raw_model.embed_documents(texts)
        raw = time.perf_counter() - t
        t = time.perf_counter()
        again = ingest(paths, ws.store, ws.embedder)
        reingest = time.perf_counter() - t
        assert again.embedded == 0
        return {"corpus": name, "files": len(files), "chunks": chunks, "e2e_s": e2e, "raw_s": raw,
                "e2e_cps": chunks / e2e, "raw_cps": chunks / raw, "ratio": raw / e2e, "reingest_s": reingest}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--embedder", default="use-m3")
    args = ap.parse_args()
    corpora = [("sample course (sources/)", [ROOT / "sources"])]
    shared = Path(os.environ.get("KB_SHARED_DIR") or ROOT.parent / "shared") / "corpora"
    if shared.is_dir():
        corpora.append(("3 slide PDFs (../shared/corpora)", sorted(shared.glob("*.pdf"))))
    print(f"embedder {args.embedder}")
    print(f"{'corpus':34} {'files':>5} {'chunks':>6} {'kb chunks/s':>11} {'raw chunks/s':>12} {'ratio':>6} "
          f"{'re-ingest s':>11}")
    for name, paths in corpora:
        r = bench(name, paths, args.embedder)
        print(f"{r['corpus']:34} {r['files']:>5} {r['chunks']:>6} {r['e2e_cps']:>11.1f} {r['raw_cps']:>12.1f} "
              f"{r['ratio']:>6.2f} {r['reingest_s']:>11.2f}")


if __name__ == "__main__":
    main()
