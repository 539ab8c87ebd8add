"""The setting a stem opens on, per deck (issue 26): rounds 8-10's FIX/DROP reasons that name it, and what
``kb.writing.subject`` makes of each rated deck, the sample course and the three real decks.

    python eval/deck_subjects.py            # the subject and setting of the r8-r10 decks, sources/, corpora
    python eval/deck_subjects.py --reasons  # how many r8-r10 FIX/DROP reasons name the stem's setting (-v: each)

A reason *names the setting* when the stem opens on "En X," / "Em X," and the reason quotes that "En X" or calls
it a prefix, scope, opener, framing or setting; a stem with no setting counts apart when its reason says it
lacks context or never says the subject. (A keyword rule: a few of its hits only quote the setting in a rewrite.)
The decks are rendered from ``eval/heldout_decks/NAME.txt`` as ``eval/deck_pdf.py`` renders them.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ROUNDS = (8, 9, 10)
_LEAD = re.compile(r"^(?:Completa el espacio en blanco: |Complete a lacuna: |¿Verdadero o falso\? |"
                   r"Verdadeiro ou falso\? )?(?:¿\s*)?(En|Em|No|Na)\s+([^,¿?«»:;]{1,80}?),\s")
_SETTING_WORDS = re.compile(r"prefix|scope|opener|framed|wrong framework|setting|deck[- ]title", re.I)
_LACKS = re.compile(r"lacks? (?:any )?context|no context|context[- ]free|never says|without context|"
                    r"names no subject", re.I)


def reasons(verbose: bool) -> None:
    total, named, missing = Counter(), Counter(), Counter()
    for r in ROUNDS:
        for row in csv.DictReader(open(ROOT / "eval" / f"real_heldout_r{r}" / "ratings.csv", encoding="utf-8")):
            if row["verdict"] not in ("FIX", "DROP"):
                continue
            total[r] += 1
            m, why = _LEAD.match(row["prompt"]), row["reason"]
            if m and (f"{m[1]} {m[2]}".lower() in why.lower() or _SETTING_WORDS.search(why)):
                named[r] += 1
                if verbose:
                    print(f"  r{r} {row['deck']}: {m[1]} {m[2]} | {why[:110]}")
            elif not m and _LACKS.search(why):
                missing[r] += 1
                if verbose:
                    print(f"  r{r} {row['deck']}: (none) {row['prompt'][:50]} | {why[:110]}")
    for r in ROUNDS:
        print(f"r{r}: {total[r]} FIX/DROP, {named[r]} name the stem's setting, {missing[r]} say a stem without one "
              "lacks context")
    print(f"all: {sum(total.values())} FIX/DROP, {sum(named.values())} setting, {sum(missing.values())} missing")


def subjects() -> None:
    import importlib.util

    from kb.ingest import read_and_chunk
    from kb.outline import build_outline
    from kb.writing.generate import CourseTerms
    from kb.writing.subject import deck_setting, deck_subject

    spec = importlib.util.spec_from_file_location("deck_pdf", ROOT / "eval" / "deck_pdf.py")
    assert spec and spec.loader
    deck_pdf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(deck_pdf)

    def show(tag: str, path: Path, key: str) -> None:
        _, chunks, failed = read_and_chunk(path, key, 50)
        if failed is not None or not chunks:
            print(f"{tag:5} {path.name}: not read")
            return
        course = CourseTerms(chunks, None)
        course.outlines = {key: build_outline(chunks, key, bookmarks=None if path.suffix == ".pdf" else [])}
        print(f"{tag:5} {path.name[:28]:28} subject {deck_subject(course, key)!r:42} setting "
              f"{deck_setting(course, key)!r}")

    with tempfile.TemporaryDirectory() as tmp:
        for r in ROUNDS:
            names = json.load(open(ROOT / "eval" / f"heldout_key_ideas_r{r}.json", encoding="utf-8"))
            for name in (n for n in names if not n.startswith("_")):
                pdf = Path(tmp) / name
                deck_pdf.render(ROOT / "eval" / "heldout_decks" / f"{Path(name).stem}.txt", pdf)
                show(f"r{r}", pdf, f"decks/{name}")
    for path in sorted((ROOT / "sources").iterdir()):
        show("src", path, f"sources/{path.name}")
    corpora = ROOT.parent / "shared" / "corpora"
    for name in ("03Datos.pdf", "05modelos.pdf", "001TFDist.pdf"):
        for base in (corpora, Path("/work/shared/corpora")):
            if (base / name).exists():
                show("corp", base / name, f"corpora/{name}")
                break


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reasons", action="store_true", help="count the r8-r10 FIX/DROP reasons on the setting")
    ap.add_argument("-v", action="store_true", help="with --reasons: each reason counted")
    args = ap.parse_args()
    reasons(args.v) if args.reasons else subjects()


if __name__ == "__main__":
    main()
