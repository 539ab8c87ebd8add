"""A knowledge base of 10,000 or 100,000 passages: writes, search latency, the search index, memory.

    python bench/scale.py                       # 10,000 passages, on disk and on a Chroma server
    python bench/scale.py -n 100000 --no-server # 100,000 on disk only
    python bench/scale.py --json                # one JSON object per store

The passages are synthesised from real course material, not random words: every chunk kb
makes of sources/ (lecture transcripts and notes), ../shared/corpora and ../shared/heldout_decks
(slide PDFs). Passage i is real chunk ``i mod m`` as a
copy in course ``i div m`` ("curso017/…"), its sentences rotated by the copy number and one
sentence of another real chunk appended, so that no two passages have the same text or id.
Its vector is the real chunk's USE-m3 vector plus Gaussian noise (sigma 0.02 a component,
about 0.45 in norm before normalising, cosine ~0.9 to the original): the real chunks are embedded
once (cached under ~/.cache/kb-bench), the 100,000 are not. Search quality is therefore not
measured here (see bench/retrieval.py), only its cost.

Per store (embedded Chroma on disk; a Chroma server that this bench starts with ``chroma run``
on 127.0.0.1 and stops at the end):

- write: chunks/s of ``ChromaStore.upsert`` in ingest's batches (the model's time excluded:
  bench/ingest.py measures that);
- index: building the search index from the store (every chunk, vector and the BM25 postings)
  and saving it; the lexical part alone; the cache file's size;
- first search: the first ``kb search`` after the writes (it rebuilds the index if the cached
  one is stale, which it should not be);
- warm: p50/p95 of ``Retriever.search`` (hybrid, k=5, the query's embedding included) over
  the 109 queries of eval/queries*.jsonl, in a fresh process that opened the search as
  ``kb search`` does (a notebook or a server keeping kb open), and that process's peak memory;
- cold: p50/p95 wall time of ``kb search QUERY`` as a fresh process (a person typing it),
  with the index cached and the model snapshot warm; its peak memory (VmHWM);
- bench memory: this process's peak RSS (it holds the synthesised passages and a Chroma client).

Timings are of whatever machine runs it; the README reports them with its load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.chunking import chunk_document, index_text  # noqa: E402
from kb.config import Settings  # noqa: E402
from kb.embeddings import CachedEmbedder, get_embedder  # noqa: E402
from kb.ingest import discover  # noqa: E402
from kb.readers import read_document  # noqa: E402
from kb.records import Chunk  # noqa: E402
from kb.text import sentences  # noqa: E402

SHARED = Path(os.environ.get("KB_SHARED_DIR") or ROOT.parent / "shared")
CACHE = Path(os.environ.get("KB_BENCH_CACHE") or Path.home() / ".cache" / "kb-bench")
WRITE_BATCH = 1000  # chunks per upsert call, as a big file's ingest writes them
NOISE = 0.02


def real_chunks(embedder_name: str) -> tuple[list[Chunk], object]:
    """Every chunk of the real material with its vector (embedded once, cached)."""
    import numpy as np

    paths = [ROOT / "sources"]
    paths += [p for d in ("corpora", "heldout_decks") for p in sorted((SHARED / d).glob("*.pdf"))]
    files, _, _ = discover([p for p in paths if p.exists()])
    chunks = [c for f in files for c in chunk_document(read_document(f), f.name)]
    emb = CachedEmbedder(get_embedder(embedder_name), CACHE / "embeddings.sqlite")
    vectors = np.asarray(emb.embed_documents([index_text(c) for c in chunks]), dtype=np.float32)
    return chunks, vectors


def synthesise(n: int, chunks: list[Chunk], vectors, seed: int = 7):
    """n passages and vectors made from the real ones (see the module docstring)."""
    import numpy as np

    rng = random.Random(seed)
    noise = np.random.default_rng(seed)
    sents = [sentences(c.text) or [c.text] for c in chunks]
    out: list[Chunk] = []
    vecs = np.empty((n, vectors.shape[1]), dtype=np.float32)
    m = len(chunks)
    for i in range(n):
        base, copy = chunks[i % m], i // m
        ss = sents[i % m]
        r = copy % len(ss)
        extra = rng.choice(sents[rng.randrange(m)])
        text = " ".join(ss[r:] + ss[:r] + [extra])
        out.append(Chunk(source=f"curso{copy:03d}/{base.source}", kind=base.kind, text=text,
                         locator=base.locator,
                         lang=base.lang, ordinal=base.ordinal, source_hash=f"{copy:04d}{base.source_hash[:12]}",
                         n_in_source=base.n_in_source, is_code=base.is_code))
        v = vectors[i % m] + noise.normal(0, NOISE, vectors.shape[1]).astype(np.float32)
        vecs[i] = v / np.linalg.norm(v)
    return out, vecs


def queries() -> list[str]:
    out = []
    for name in ("queries.jsonl", "queries_heldout.jsonl"):
        for line in (ROOT / "eval" / name).read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                out.append(json.loads(line)["query"])
    return out


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(path: Path) -> tuple[subprocess.Popen, str]:
    """``chroma run`` on a free local port; returns once it answers its heartbeat."""
    import urllib.request

    port = free_port()
    chroma = Path(sys.executable).with_name("chroma")
    proc = subprocess.Popen([str(chroma), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(f"{url}/api/v2/heartbeat", timeout=1).read()
            return proc, url
        except OSError:
            if proc.poll() is not None:
                raise SystemExit("chroma run exited at start") from None
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("chroma run did not answer in 60 s")


def cold_search(home: Path, settings_env: dict, qs: list[str]) -> tuple[list[float], float]:
    """Wall seconds of ``kb search`` as fresh processes, and their peak RSS (MB)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), KB_HOME=str(home), **settings_env)
    walls, peaks = [], []
    for q in qs:
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-c", _COLD, q], cwd=home.parent, env=env, capture_output=True, text=True)
        walls.append(time.perf_counter() - t)
        if r.returncode != 0:
            raise SystemExit(f"kb search failed:\n{r.stderr}")
        peaks += [int(x) / 1024 for x in re.findall(r"KB_BENCH_HWM (\d+)", r.stderr)]
    return walls, max(peaks, default=0.0)


# `kb search QUERY --json` as the console script runs it, then the process's own peak memory (VmHWM: the
# rusage of a child counts the parent's pages it was forked with)
_COLD = """import atexit, sys
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            print("KB_BENCH_HWM", line.split()[1], file=sys.stderr)
atexit.register(hwm)
sys.argv = ["kb", "search", sys.argv[1], "--json"]
from kb.cli import run
run()
"""


# warm searches as a program that keeps kb open does them (a notebook, a server): a fresh process opens
# the search the way `kb search` does, then times each query; prints the timings and its peak memory
_WARM = """import json, sys, time
from kb.config import Settings
from kb.search import open_search
qs = json.loads(sys.stdin.read())
retriever = open_search(Settings.from_env()).retriever
retriever.search(qs[0])
out = []
for q in qs:
    t = time.perf_counter()
    retriever.search(q, k=5)
    out.append(time.perf_counter() - t)
hwm = next(int(ln.split()[1]) for ln in open("/proc/self/status") if ln.startswith("VmHWM:"))
print(json.dumps({"warm": out, "hwm_kb": hwm}))
"""


def bench_store(label: str, settings: Settings, passages: list[Chunk], vecs, qs: list[str], cold_runs: int) -> dict:
    from kb.search import LexicalIndex, SearchIndex, lexical_tokens
    from kb.workspace import open_workspace

    ws = open_workspace(settings, create=True)
    store = ws.store
    t = time.perf_counter()
    for i in range(0, len(passages), WRITE_BATCH):
        store.upsert(passages[i : i + WRITE_BATCH], vecs[i : i + WRITE_BATCH], "2026-11-28T00:00:00+00:00")
    store.bump_revision()
    write_s = time.perf_counter() - t
    t = time.perf_counter()
    index = SearchIndex.for_store(store, settings.cache_dir)  # as `kb ingest` leaves it cached
    index_s = time.perf_counter() - t
    files = list(settings.cache_dir.glob(f"index-{settings.collection}-*.pkl"))
    size_mb = sum(f.stat().st_size for f in files) / 1e6
    t = time.perf_counter()
    LexicalIndex([c.id for c in index.chunks], [lexical_tokens(index_text(c)) for c in index.chunks])
    lexical_s = time.perf_counter() - t
    del index, ws, store
    env = {"KB_STORE_URL": settings.store_url} if settings.store_url else {}
    first, _ = cold_search(settings.home, env, qs[:1])  # builds the index only if the cached one is stale
    proc_env = dict(os.environ, PYTHONPATH=str(ROOT), KB_HOME=str(settings.home), **env)
    r = subprocess.run([sys.executable, "-c", _WARM], input=json.dumps(qs), cwd=settings.home.parent, env=proc_env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"warm search failed:\n{r.stderr}")
    got = json.loads(r.stdout.strip().splitlines()[-1])
    warm = got["warm"]
    cold, cold_rss = cold_search(settings.home, env, qs[1 : 1 + cold_runs])
    return {"store": label, "passages": len(passages), "write_cps": round(len(passages) / write_s),
            "index_build_s": round(index_s, 2), "lexical_build_s": round(lexical_s, 2),
            "index_file_mb": round(size_mb, 1), "first_search_s": round(first[0], 2),
            "warm_p50_ms": round(1000 * statistics.median(warm), 1), "warm_p95_ms": round(1000 * pct(warm, 95), 1),
            "warm_rss_mb": round(got["hwm_kb"] / 1024),
            "cold_p50_s": round(statistics.median(cold), 2), "cold_p95_s": round(pct(cold, 95), 2),
            "cold_rss_mb": round(cold_rss), "bench_rss_mb": round(rss_mb())}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=10_000, help="passages (default 10,000)")
    ap.add_argument("--embedder", default="use-m3")
    ap.add_argument("--no-server", action="store_true", help="skip the Chroma server")
    ap.add_argument("--no-disk", action="store_true", help="skip the on-disk store")
    ap.add_argument("--cold-runs", type=int, default=7, help="fresh `kb search` processes per store")
    ap.add_argument("--keep", type=Path, help="build the stores in this folder and keep them (to profile)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    t = time.perf_counter()
    chunks, vectors = real_chunks(args.embedder)
    passages, vecs = synthesise(args.n, chunks, vectors)
    print(f"{len(chunks)} real chunks -> {len(passages)} passages in {time.perf_counter() - t:.1f} s",
          file=sys.stderr)
    qs = queries()
    rows = []
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="kb-scale-"))
    server = None
    try:
        if not args.no_disk:
            rows.append(bench_store("disk", Settings(home=tmp / "disk" / ".kb", embedder=args.embedder), passages,
                                    vecs, qs, args.cold_runs))
        if not args.no_server:
            server, url = start_server(tmp / "server-data")
            home = tmp / "server" / ".kb"
            rows.append(bench_store("server", Settings(home=home, embedder=args.embedder, store_url=url), passages,
                                    vecs, qs, args.cold_runs))
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        for r in rows:
            print(json.dumps(r))
        return 0
    keys = list(rows[0])
    print("  ".join(f"{k:>{max(len(k), 6)}}" for k in keys))
    for r in rows:
        print("  ".join(f"{r[k]!s:>{max(len(k), 6)}}" for k in keys))
    return 0


if __name__ == "__main__":
    sys.exit(main())
