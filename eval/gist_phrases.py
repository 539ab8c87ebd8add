"""Do a short answer's concepts hold what raters asked to add? (issue 26, gist30.) For each rated short answer whose
FIX reason quotes a phrase ('…', "…", «…») that the model answer already says (80 % of the phrase's content words
in the answer), the share of those phrases one of kb.writing.answer_points' concepts holds (80 % of its content
words in that one concept), with the concepts recomputed from the rated answer by the checkout on PYTHONPATH; and
the length of the phrases raters proposed (words), what GIST_WORDS / CLAIM_WORDS are set from.

    python eval/gist_phrases.py            # rounds 10–16 (r10–13 apart from r14–16, where the rules were written)
    python eval/gist_phrases.py 17         # one round (r17: report only, never tune on it)
"""

from __future__ import annotations

import csv
import re
import statistics
import sys
from pathlib import Path

from kb.grading.signals import _has_stem, content_stems
from kb.text import detect_language, words
from kb.writing.answer_points import point_concepts

ROOT = Path(__file__).resolve().parent
_QUOTE = re.compile(r"'([^']{3,200})'|\"([^\"]{3,200})\"|«([^»]{3,200})»|‘([^’]{3,200})’|“([^”]{3,200})”")
_ASKS = re.compile(r"(?i)add|concept|split|replac|use |with|such as|e\.g|keep|name")  # what leads a proposed concept


def _held(phrase: str, text: str) -> bool:
    ps = content_stems(phrase)
    bag = set(content_stems(text))
    return bool(ps) and sum(_has_stem(s, bag) for s in ps) >= 0.8 * len(ps)


def phrases(rnd: int) -> list[tuple[dict[str, str], str]]:
    """(rated row, phrase) for each phrase a short answer's FIX reason proposes, once per answer and phrase."""
    out, seen = [], set()
    with open(ROOT / f"real_heldout_r{rnd}" / "ratings.csv", encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            if row["type"] != "short" or row["verdict"] != "FIX" or "concept" not in row["reason"].lower():
                continue
            for m in _QUOTE.finditer(row["reason"]):
                p = next(g for g in m.groups() if g)
                lead = row["reason"][max(0, m.start() - 60):m.start()]
                if "?" in p or "¿" in p or not _ASKS.search(lead) or (row["answer"], p) in seen:
                    continue
                seen.add((row["answer"], p))
                out.append((row, p))
    return out


def _lang(row: dict[str, str]) -> str:
    tail = row["deck"].rsplit("_", 1)[-1]
    return tail if tail in ("es", "pt", "en") else detect_language(row["answer"])


def report(rounds: list[int]) -> None:
    sizes, in_answer, held, n_concepts, concept_words = [], 0, 0, 0, []
    for r in rounds:
        for row, p in phrases(r):
            sizes.append(len(words(p)))
            if not _held(p, row["answer"]):
                continue
            in_answer += 1
            cs = point_concepts(row["answer"], row["prompt"], _lang(row))
            n_concepts += len(cs)
            concept_words += [len(words(c)) for c in cs]
            held += any(_held(p, c) for c in cs)
    sizes.sort()
    name = f"r{rounds[0]}" + (f"-{rounds[-1]}" if len(rounds) > 1 else "")
    print(f"{name}: {len(sizes)} proposed phrases, words median {statistics.median(sizes)}, "
          f"p75 {sizes[int(0.75 * len(sizes))]}, p90 {sizes[int(0.9 * len(sizes))]}; "
          f"{in_answer} already in the answer, held by a concept {held} ({held / (in_answer or 1):.0%}); "
          f"concept words median {statistics.median(concept_words or [0])}")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        report([int(sys.argv[1])])
    else:
        report([10, 11, 12, 13])
        report([14, 15, 16])
