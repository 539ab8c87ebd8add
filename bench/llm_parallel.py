"""Parallel LLM requests and the reply cache, against a local fake OpenAI-compatible server that
answers every request in 1 s (``tests/openai_stub.py``, a real HTTP server on 127.0.0.1).

Runs ``kb quiz generate -n 8`` (a child process, as a user would) three times on the sample course:

1. ``KB_LLM_CONCURRENCY=1 --no-cache``: one request at a time (the sequential baseline);
2. ``KB_LLM_CONCURRENCY=4 --no-cache`` (the default concurrency);
3. the same command again, with the cache: it should send no request.

Two stub scripts: ``empty`` (every reply holds no question, so the writer walks its 8 batches — the
case issue 29 measured at 8 requests, 1 in flight, 13 s) and ``good`` (grounded questions built from
the passages of each request, as tests/llm/test_llm.py's stub writes them). For each run it prints the
command's wall time, the time requests were in flight (the quiz's ``generator.usage.wall_seconds``, or
the summary line when no quiz was written), when the first request reached the server, the requests
the server received and the most it had in flight at once. The run from the cache is what the command
costs without the LLM.

    python bench/llm_parallel.py                       # ingests sources/ into a temp folder first (~1 min)
    python bench/llm_parallel.py --workspace /tmp/kbws # one already ingested (sources/)
    python bench/llm_parallel.py --workspace /tmp/kbws --kb /path/to/other/kb  # another checkout's kb
    python bench/llm_parallel.py --workspace /tmp/kbws --kb OLD --kb . --repeat 3  # two, run in turn

A workspace's search index cache (``.kb/cache/index-*.pkl``) is what ``kb quiz generate`` reads its
passages from when it is current: comparing two checkouts on one workspace, let the newer one ingest
it (kb versions that write the index differently each replace the other's file).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# imported here: it takes ~0.4 s, which the first request of a run would otherwise wait for inside the stub
from tests.llm.test_llm import good_questions  # noqa: E402
from tests.openai_stub import Behaviour, OpenAIStub  # noqa: E402  (the tests' stub server)


def empty(body: dict) -> Behaviour:
    return Behaviour(json.dumps({"questions": []}), delay=1.0)


def good(body: dict) -> Behaviour:
    b = good_questions(body)
    b.delay = 1.0
    return b


class Arrivals:
    """A stub script that notes when each request reached the server."""

    def __init__(self, script) -> None:
        self.script = script
        self.times: list[float] = []

    def __call__(self, body: dict) -> Behaviour:
        self.times.append(time.perf_counter())
        return self.script(body)


def run(ws: Path, url: str, concurrency: int, no_cache: bool, out: str, kb: Path) -> tuple[float, int, float, float]:
    """(the command's wall seconds, its exit code, the seconds it had requests in flight, its start time)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KB_", "OPENAI_"))}
    env.update({"OPENAI_BASE_URL": url, "KB_LLM_MODEL": "stub-model", "OPENAI_API_KEY": "k",
                "KB_LLM_CONCURRENCY": str(concurrency), "PYTHONPATH": str(kb)})
    args = [sys.executable, "-m", "kb.cli", "quiz", "generate", "-n", "8", "--types", "short,cloze", "-o", out,
            "--force"] + (["--no-cache"] if no_cache else [])
    t0 = time.perf_counter()
    r = subprocess.run(args, cwd=ws, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    try:
        usage = json.loads((ws / out).read_text(encoding="utf-8"))["generator"]["usage"]
    except (OSError, ValueError, KeyError):  # no question passed: no quiz file
        m = re.search(r"of requests in ([\d.]+) s", r.stderr)
        usage = {"wall_seconds": float(m.group(1)) if m else 0.0}
    return wall, r.returncode, float(usage.get("wall_seconds", 0.0)), t0


RUNS = (("KB_LLM_CONCURRENCY=1 --no-cache", 1, True),
        ("KB_LLM_CONCURRENCY=4 --no-cache", 4, True),
        ("KB_LLM_CONCURRENCY=4, again (cache)", 4, False))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workspace", type=Path, help="folder holding sources/ ingested into .kb (default: a fresh one)")
    ap.add_argument("--kb", type=Path, action="append",
                    help="the kb checkout to run (default: this one); give it twice to compare two, run in turn")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each command (and checkout), in turn")
    args = ap.parse_args()
    ws = args.workspace
    kbs = [k.resolve() for k in args.kb or [ROOT]]
    names = {k: (k.name if len({x.name for x in kbs}) == len(kbs) else str(k)) for k in kbs}
    tmp = None
    if ws is None:
        tmp = Path(tempfile.mkdtemp(prefix="kb-llm-parallel-"))
        shutil.copytree(ROOT / "sources", tmp / "sources")
        subprocess.run([sys.executable, "-m", "kb.cli", "ingest", "sources"], cwd=tmp, check=True,
                       env={**os.environ, "PYTHONPATH": str(kbs[-1])}, capture_output=True)
        ws = tmp
    walls: dict[tuple[str, str, Path], list[float]] = {}
    try:
        print("load average (1, 5, 15 min) at the start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
        print(f"{'stub':6} {'run':36} {'kb':10} {'wall s':>7} {'requests s':>10} {'1st request s':>13} "
              f"{'requests':>8} {'max in flight':>13} exit")
        for name, script in (("empty", empty), ("good", good)):
            shutil.rmtree(ws / ".kb" / "cache" / "llm", ignore_errors=True)
            arrivals = Arrivals(script)
            with OpenAIStub(arrivals) as stub:
                for label, conc, no_cache in RUNS:
                    for _ in range(args.repeat):
                        for kb in kbs:
                            before = len(stub.requests)
                            stub.max_in_flight = 0
                            arrivals.times.clear()
                            (ws / "quizzes" / f"bench-{name}.json").unlink(missing_ok=True)
                            wall, rc, busy, t0 = run(ws, stub.url, conc, no_cache, f"quizzes/bench-{name}.json", kb)
                            walls.setdefault((name, label, kb), []).append(wall)
                            first = f"{arrivals.times[0] - t0:13.2f}" if arrivals.times else f"{'—':>13}"
                            print(f"{name:6} {label:36} {names[kb][:10]:10} {wall:7.1f} {busy:10.1f} {first} "
                                  f"{len(stub.requests) - before:8d} {stub.max_in_flight:13d} {rc}", flush=True)
        print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
        for name in ("empty", "good"):
            for kb in kbs:
                seq, par = (statistics.median(walls[(name, label, kb)]) for label, _, _ in RUNS[:2])
                print(f"{name:6} {names[kb][:10]:10} median command: {seq:.2f} s one at a time, {par:.2f} s four at "
                      f"a time: {100 * par / seq:.0f} %")
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
