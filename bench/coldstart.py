"""Cold-process latency: `kb search`, `kb ask --offline` and the first question of `kb study`.

    python bench/coldstart.py [--runs 5] [--baseline /path/to/other/checkout]

A temporary workspace gets the sample course (sources/) and a 5-question offline quiz. Each
command then runs as a fresh process (a person typing it), with a different question each
run so nothing is answered from a cache of queries. The model snapshot (~/.cache/kb) and the
BM25 index cache are warmed once first, as after the first command on a machine. Reported:
median and worst wall time, plus what a bare process costs (Python + imports), for context.
With --baseline, the same commands run alternately from another checkout of kb (its own
workspace, same questions), so both are measured under the same machine load.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

QUESTIONS = [
    "como limitar a memória da GPU?",
    "¿qué es una estrategia espejo en TensorFlow?",
    "what is a parameter server?",
    "para que serve o all-reduce?",
    "¿cómo se reparten los datos entre los trabajadores?",
    "o que é paralelismo de modelo?",
    "how are gradients combined across replicas?",
]


CODE = ROOT  # which checkout of kb the commands run (see --baseline)


def _env(tmp: Path) -> dict:
    env = dict(os.environ, KB_HOME=str(tmp / ".kb"), PYTHONPATH=str(CODE), COLUMNS="120")
    env.pop("KB_LLM_MODEL", None)
    return env


def _kb(args: list[str], tmp: Path, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kb.cli", *args], cwd=tmp, env=_env(tmp), capture_output=True,
                          text=True, **kw)


def _timed(args: list[str], tmp: Path) -> float:
    t = time.perf_counter()
    r = _kb(args, tmp)
    wall = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit(f"kb {' '.join(args)} failed:\n{r.stderr}")
    return wall


def _first_question(tmp: Path, quiz: Path) -> float:
    """Seconds until `kb study` has printed its first question (read from its stdout)."""
    env = _env(tmp) | {"PYTHONUNBUFFERED": "1"}
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "kb.cli", "study", str(quiz), "--offline", "--new", "5"], cwd=tmp,
                         env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert p.stdout is not None
    seen = b""
    while True:
        b = p.stdout.read1(4096) if hasattr(p.stdout, "read1") else p.stdout.read(1)
        if not b:
            break
        seen += b
        if b"?" in seen or b"___" in seen or b"1/" in seen:
            wall = time.perf_counter() - t
            break
    else:  # pragma: no cover
        wall = float("nan")
    try:
        p.communicate(b":q\n", timeout=60)
    except Exception:
        p.kill()
    return wall


def _report(name: str, times: list[float]) -> None:
    print(f"{name:34} median {statistics.median(times):5.2f} s   worst {max(times):5.2f} s   ({len(times)} runs)")


def _prepare(code: Path) -> tuple[Path, Path]:
    global CODE
    CODE = code
    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-cold-"))
    shutil.copytree(ROOT / "sources", tmp / "sources")
    r = _kb(["ingest", "sources"], tmp)
    assert r.returncode == 0, r.stderr
    r = _kb(["quiz", "generate", "-n", "5", "--offline", "-o", "quizzes/bench.json"], tmp)
    assert r.returncode == 0, r.stderr
    _timed(["search", "warm up the caches", "--json"], tmp)
    return tmp, tmp / "quizzes" / "bench.json"


def main() -> None:
    global CODE
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--baseline", type=Path, help="another checkout of kb to measure alternately")
    args = ap.parse_args()
    setups = {"this checkout": ROOT}
    if args.baseline:
        setups["baseline"] = args.baseline.resolve()
    prepared = {name: _prepare(code) for name, code in setups.items()}
    try:
        CODE = ROOT
        tmp = prepared["this checkout"][0]
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare = time.perf_counter() - t
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import kb.cli"], check=True, env=_env(tmp))
        cli_import = time.perf_counter() - t
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import chromadb"], check=True, env=_env(tmp))
        chroma = time.perf_counter() - t
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "from kb.embeddings import get_embedder; get_embedder('use-m3')"
                        ".embed_queries(['x'])"], check=True, env=_env(tmp))
        use = time.perf_counter() - t
        print(f"bare python {bare:.2f} s · import kb.cli {cli_import:.2f} s · import chromadb {chroma:.2f} s · "
              f"USE-m3 load + first query {use:.2f} s (each a whole process, this checkout)")
        times: dict[tuple[str, str], list[float]] = {}
        for i in range(args.runs):
            for name, code in setups.items():  # alternate: both see the same machine load
                CODE = code
                tmp, quiz = prepared[name]
                times.setdefault((name, "kb search (cold, hybrid)"), []).append(
                    _timed(["search", QUESTIONS[i % len(QUESTIONS)], "--json"], tmp))
                times.setdefault((name, "kb ask --offline (cold)"), []).append(
                    _timed(["ask", QUESTIONS[(i + 3) % len(QUESTIONS)], "--offline", "--json"], tmp))
                times.setdefault((name, "kb study: first question (cold)"), []).append(_first_question(tmp, quiz))
        for name in setups:
            print(f"-- {name}")
            for (n, what), ts in times.items():
                if n == name:
                    _report(what, ts)
    finally:
        for tmp, _ in prepared.values():
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
