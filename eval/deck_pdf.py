"""Render a slide deck written as text into a real PDF, one page a slide, the way slides wrap.

    python eval/deck_pdf.py eval/heldout_decks/amp_es.txt -o /tmp/amp_es.pdf

The text format (eval/heldout_decks/*.txt): ``=== Title`` opens a slide, ``• `` a bullet, two
spaces and ``• `` a sub-bullet, four spaces a code line. Bullets are wrapped at ~70 characters
with their continuation indented under the text, as a slide tool lays them out, so that kb reads
them the way it reads an exported deck (tests/pdfgen.py writes the PDF: Helvetica, Latin-1).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.pdfgen import make_pdf  # noqa: E402

WIDTH = 70  # characters a line of a 14 pt slide holds here


def slides(text: str) -> list[list[str]]:
    """The deck's pages: each slide's title, then its lines wrapped as on a slide."""
    pages: list[list[str]] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if line.startswith("=== "):
            pages.append([line[4:].strip(), ""])
        elif not pages or not line.strip():
            continue
        elif line.startswith("    "):  # code: as written
            pages[-1].append(line)
        else:
            indent = len(line) - len(line.lstrip())
            body = line.strip()
            marker = "• " if body.startswith("•") else ""
            body = body.lstrip("• ").strip()
            lead = " " * indent + marker
            pages[-1] += textwrap.wrap(body, WIDTH - len(lead), initial_indent=lead,
                                       subsequent_indent=" " * len(lead)) or [lead]
    return pages


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("deck", type=Path)
    ap.add_argument("-o", "--out", type=Path, required=True)
    args = ap.parse_args()
    print(f"{args.out}: {render(args.deck, args.out)} pages")
    return 0


def render(deck: Path, out: Path) -> int:
    """Write the deck's text as a PDF at ``out``, one page a slide; returns the number of pages."""
    pages = slides(deck.read_text(encoding="utf-8"))
    # "•" is not Latin-1; WinAnsi, the font's encoding, has it at 0x95 (pypdf reads it back as "•")
    make_pdf(out, [[ln.replace("•", "\x95") for ln in page] for page in pages])
    return len(pages)


if __name__ == "__main__":
    raise SystemExit(main())
