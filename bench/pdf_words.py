"""Merged words in PDF text: pypdf's plain extraction vs the layout mode kb uses.

    python bench/pdf_words.py     # needs ../shared/corpora/001TFDist.pdf and ../shared/seeds/004_*.txt

The seed 004 is the same deck's text exported with correct spacing. A word of the PDF
text that is not in the seed's vocabulary but splits into two seed words
("tensorflowdistribuido" = "tensorflow" + "distribuido") is counted as a merged word.
"""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"


def main() -> int:
    import pypdf

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    pdf = SHARED / "corpora" / "001TFDist.pdf"
    seeds = list((SHARED / "seeds").glob("004_*.txt"))
    if not pdf.exists() or not seeds:
        print("needs ../shared/corpora/001TFDist.pdf and ../shared/seeds/004_*.txt", file=sys.stderr)
        return 2
    vocab = set(re.findall(r"\w+", seeds[0].read_text(encoding="utf-8").lower()))
    reader = pypdf.PdfReader(str(pdf))
    print(f"{'mode':8} {'words':>6} {'merged':>7} {'share':>7}  examples")
    for mode in ("plain", "layout"):
        toks = [t for p in reader.pages for t in re.findall(r"\w+", p.extract_text(extraction_mode=mode).lower())]
        merged = [t for t in toks if t not in vocab and len(t) > 5 and any(
            t[:i] in vocab and t[i:] in vocab and len(t[:i]) > 1 and len(t[i:]) > 1 for i in range(2, len(t) - 1))]
        print(f"{mode:8} {len(toks):>6} {len(merged):>7} {len(merged) / len(toks):>7.2%}  "
              f"{', '.join(sorted(set(merged))[:6])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
