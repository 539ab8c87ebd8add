"""Wall time of `kb --help` and every subcommand's `--help`, cold processes.

    python bench/help.py [--runs 5]

Each help screen is run --runs times in a fresh interpreter (``python -m kb.cli``); the
median is reported in seconds. The target is 0.3 s: help must never import torch,
sentence-transformers, chromadb or openai (tests/cli/test_cli.py checks the imports; this
script checks the time a person waits).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 0.3


def commands() -> list[list[str]]:
    """Every command path of the CLI, from typer's own command tree."""
    sys.path.insert(0, str(ROOT))
    import typer.main

    from kb.cli import app

    out: list[list[str]] = [[]]

    def walk(group, prefix: list[str]) -> None:
        for name, cmd in getattr(group, "commands", {}).items():
            out.append([*prefix, name])
            walk(cmd, [*prefix, name])

    walk(typer.main.get_command(app), [])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    worst = 0.0
    for path in commands():
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "kb.cli", *path, "--help"], cwd=ROOT, check=True,
                           capture_output=True)
            times.append(time.perf_counter() - t0)
        med = statistics.median(times)
        worst = max(worst, med)
        print(f"{' '.join(['kb', *path, '--help']):40s} {med:6.3f} s")
    print(f"slowest median {worst:.3f} s (target {TARGET_S} s): {'ok' if worst <= TARGET_S else 'OVER'}")
    sys.exit(0 if worst <= TARGET_S else 1)


if __name__ == "__main__":
    main()
