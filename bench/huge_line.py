"""How reading and chunking a file that is one huge line scales with its size (it must be linear).

    python bench/huge_line.py            # 1, 2, 4 and 8 MB; prints seconds and seconds per MB

Embedding is left out (it is linear by construction: one batch of 256 chunks after another,
with the progress bar counting chunks); this measures the reader and the chunker, where a
quadratic step (re-slicing the rest of the line for every chunk) would show as seconds per MB
that grow with the size. Two shapes: words separated by spaces, and one 'word' without spaces.
"""

from __future__ import annotations

import random
import string
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kb.chunking import chunk_document  # noqa: E402
from kb.readers import read_document  # noqa: E402

WORDS = ["dados", "paralelismo", "modelo", "gpu", "memória", "rede", "treino", "lote", "réplica", "gradiente"]


def make(path: Path, mb: int, spaced: bool) -> None:
    rnd = random.Random(mb)
    n = mb * 1024 * 1024
    if spaced:
        out, size = [], 0
        while size < n:
            w = rnd.choice(WORDS)
            out.append(w)
            size += len(w.encode()) + 1
        path.write_text(" ".join(out), encoding="utf-8")
    else:
        path.write_text("".join(rnd.choice(string.ascii_letters) for _ in range(n)), encoding="utf-8")


def main() -> None:
    print(f"{'shape':<10}{'MB':>4}{'chunks':>9}{'seconds':>9}{'s/MB':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for spaced in (True, False):
            for mb in (1, 2, 4, 8):
                f = Path(tmp) / f"line{mb}.txt"
                make(f, mb, spaced)
                t = time.perf_counter()
                chunks = chunk_document(read_document(f, max_mb=20), f.name)
                s = time.perf_counter() - t
                print(f"{'words' if spaced else 'no spaces':<10}{mb:>4}{len(chunks):>9}{s:>9.2f}{s / mb:>7.2f}")


if __name__ == "__main__":
    main()
