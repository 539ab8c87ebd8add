"""The KEEP rate of rated questions by their form (kb.writing.form_prior.form_of: type x stem form), per span of rounds.

    python eval/form_keep.py              # rounds 10-13 vs 14-16
    python eval/form_keep.py 8-13 14-16

Every rater's verdict on a question is one sample (ratings.csv: rater,question_id,verdict,…,type,prompt,…)."""

from __future__ import annotations

import csv
import sys
from collections import Counter
from functools import cache
from pathlib import Path

from kb.writing.form_prior import form_of

EVAL = Path(__file__).resolve().parent


def rounds(span: str) -> list[int]:
    lo, _, hi = span.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


@cache
def deck_text(deck: str) -> str:
    """A rated deck's text (eval/heldout_decks/DECK.txt; "" for a deck kept elsewhere): what tells a code name the deck
    writes as code ("n_fft=400") from a formula's symbol (form_prior.form_of: ``cloze:symbol``), and the terms it names
    across its slides from a slide's labels (``mcq:unnamed``)."""
    f = EVAL / "heldout_decks" / f"{deck.removesuffix('.pdf')}.txt"
    return f.read_text(encoding="utf-8") if deck and f.exists() else ""


def rated(rs: list[int]) -> list[dict[str, str]]:
    """Every rating row of the rounds ``rs``, with its form and round."""
    out = []
    for r in rs:
        f = EVAL / f"real_heldout_r{r}" / "ratings.csv"
        if not f.exists():
            continue
        for row in csv.DictReader(open(f, encoding="utf-8")):
            choices = [c for c in row.get("choices", "").split(" | ") if c.strip()]
            row["form"] = form_of(row["type"], row["prompt"], row["answer"], len(choices),
                                  deck_text(row.get("deck", "")), choices)
            row["round"] = str(r)
            out.append(row)
    return out


def table(rows: list[dict[str, str]]) -> dict[str, tuple[int, float, float]]:
    """form -> (n, KEEP share, DROP share)."""
    n = Counter(r["form"] for r in rows)
    keep = Counter(r["form"] for r in rows if r["verdict"] == "KEEP")
    drop = Counter(r["form"] for r in rows if r["verdict"] == "DROP")
    return {f: (n[f], keep[f] / n[f], drop[f] / n[f]) for f in n}


def main(spans: list[str]) -> None:
    tabs = [table(rated(rounds(s))) for s in spans]
    forms = sorted(set().union(*tabs), key=lambda f: (not f.startswith("short"), f))
    print("form".ljust(16) + "".join(f"| rounds {s}: n, KEEP, DROP".ljust(34) for s in spans))
    for f in forms:
        cells = [f"| {t[f][0]:4d} {t[f][1]:6.0%} {t[f][2]:6.0%}".ljust(34) if f in t else "| -".ljust(34) for t in tabs]
        print(f.ljust(16) + "".join(cells))
    for s, t in zip(spans, tabs, strict=True):
        n = sum(v[0] for v in t.values())
        print(f"rounds {s}: {n} ratings, KEEP {sum(v[0] * v[1] for v in t.values()) / max(1, n):.0%}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["10-13", "14-16"])
