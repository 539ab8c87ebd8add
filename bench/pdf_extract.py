"""PDF text: PDFium (pypdfium2, what kb reads with) against pypdf's layout mode (what it read with before).

    python bench/pdf_extract.py              # ../shared/corpora, ../shared/heldout_decks, the tests' PDFs
    python bench/pdf_extract.py --json       # one JSON object per file and engine

For every PDF, both engines go through the same reader (kb.readers.read_pdf_bytes with
engine="pdfium" or "pypdf": the same title, repeat and build-step rules) and are scored on:

- seconds: reading the file into blocks (best of 3 runs, one process, on whatever load the
  machine has);
- glued: words of the blocks' prose (not code) that no dictionary knows but that split into two words it
  knows well ("flexibilidadde" = "flexibilidad" + "de"): wordfreq's es/pt/en lists, a word is
  "known" at Zipf >= 1 and each half at Zipf >= 3 (or 2 for a half of 6+ letters); identifiers
  in CamelCase (DataLoader) are not counted;
- broken: prose lines that start in lower case: the wrapped rest of a sentence or bullet that
  was not joined to it (fewer is better);
- titles: pages whose heading is the slide's real title, where the file says it: PowerPoint's
  "Diapositiva N: Title" bookmarks (03Datos, 05modelos) or the deck's source text (the decks the
  tests render from eval/heldout_decks/*.txt); "-" when the file does not say;
- whole: the same decks' bullets found whole on one line (wrapped lines rejoined);
- order: for 001TFDist, the share of the exported text's word bigrams (../shared/seeds/004_*)
  that the blocks hold in the same order (difflib matching blocks over the word sequence).

../shared/heldout_decks is only measured here, nothing is tuned on it.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.readers import read_pdf_bytes  # noqa: E402
from kb.text import fold, strip_bullet  # noqa: E402

SHARED = Path(os.environ.get("KB_SHARED_DIR") or ROOT.parent / "shared")
ENGINES = ("pypdf", "pdfium")
_TOKEN = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ]+")


def _known(word: str, at: float) -> bool:
    from wordfreq import zipf_frequency

    return max(zipf_frequency(word, lang) for lang in ("es", "pt", "en")) >= at


def glued_words(text: str) -> list[str]:
    """Tokens that are no word but two well-known words run together."""
    out = []
    for tok in _TOKEN.findall(text):
        low = tok.lower()
        if len(low) < 6 or (tok[0].isupper() and not tok.isupper() and any(c.isupper() for c in tok[1:])):
            continue  # an identifier (ClusterResolver, DataLoader), not two words glued by the extractor
        if _known(low, 1.0):
            continue
        for i in range(2, len(low) - 1):
            a, b = low[:i], low[i:]
            if all(_known(p, 2.0 if len(p) >= 6 else 3.0) for p in (a, b)) and min(len(a), len(b)) >= 2:
                out.append(tok)
                break
    return out


def broken_lines(blocks) -> int:
    """Prose lines starting in lower case: a wrapped rest left on its own line."""
    return sum(1 for b in blocks if not b.is_code for ln in b.text.split("\n")[1:]
               if ln.strip()[:1].islower() and not strip_bullet(ln)[0])


def outline_titles(data: bytes) -> dict[int, str]:
    """Page number -> title from PowerPoint's "Diapositiva N: Title" / "Slide N: Title" bookmarks."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(data)
    try:
        out = {}
        for b in doc.get_toc():
            m = re.match(r"(?:Diapositiva|Slide|Diapositivo)\s+\d+:\s*(.+)", b.get_title() or "")
            dest = b.get_dest()
            if m and dest is not None and dest.get_index() is not None:
                out[dest.get_index() + 1] = m.group(1).strip()
        return out
    finally:
        doc.close()


def deck_truth(txt: Path) -> tuple[dict[int, str], list[str]]:
    """A rendered deck's titles by page and its bullets (eval/heldout_decks format)."""
    titles: dict[int, str] = {}
    bullets: list[str] = []
    for raw in txt.read_text(encoding="utf-8").splitlines():
        if raw.startswith("=== "):
            titles[len(titles) + 1] = raw[4:].strip()
        elif raw.strip().startswith("•") and not raw.startswith("    "):
            bullets.append(" ".join(raw.strip().lstrip("• ").split()))
    return titles, bullets


def score(path: Path, data: bytes, engine: str, titles: dict[int, str], bullets: list[str],
          seed_words: list[str] | None) -> dict:
    best = float("inf")
    blocks: list = []
    for _ in range(3):
        t = time.perf_counter()
        blocks = read_pdf_bytes(data, path, [], engine)
        best = min(best, time.perf_counter() - t)
    text = "\n".join(b.text for b in blocks)
    prose = "\n".join(b.text for b in blocks if not b.is_code)
    row: dict = {"file": path.name, "engine": engine, "seconds": round(best, 3), "blocks": len(blocks),
                 "glued": len(glued_words(prose)), "broken": broken_lines(blocks)}
    heading = {b.locator.page: (b.locator.heading or "").split(" > ")[-1] for b in blocks}
    judged = [p for p in titles if p in heading]
    row["titles"] = (f"{sum(fold(heading[p]) == fold(titles[p]) for p in judged)}/{len(judged)}"
                     if judged else "-")
    if bullets:
        lines = {" ".join(strip_bullet(ln)[1].split()) for b in blocks for ln in b.text.split("\n")}
        row["whole"] = f"{sum(b in lines for b in bullets)}/{len(bullets)}"
    else:
        row["whole"] = "-"
    if seed_words:
        got = [w.lower() for w in _TOKEN.findall(text)]
        sm = difflib.SequenceMatcher(None, seed_words, got, autojunk=False)
        row["order"] = round(sum(m.size - 1 for m in sm.get_matching_blocks() if m.size > 1)
                             / max(1, len(seed_words) - 1), 3)
    else:
        row["order"] = "-"
    row["glued_examples"] = sorted(set(glued_words(prose)))[:6]
    return row


def test_pdfs(tmp: Path) -> list[tuple[Path, dict[int, str], list[str]]]:
    """The PDFs the tests write: tests/pdfgen's slides and every eval/heldout_decks deck rendered."""
    import importlib.util

    from tests.pdfgen import make_pdf
    from tests.readers.test_readers import SLIDES

    out = [(make_pdf(tmp / "tests_slides.pdf", SLIDES), {2: "Estrategia espelhada", 4: "Servidor de parametros"},
            [])]
    spec = importlib.util.spec_from_file_location("deck_pdf", ROOT / "eval" / "deck_pdf.py")
    assert spec and spec.loader
    deck_pdf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(deck_pdf)
    for txt in sorted((ROOT / "eval" / "heldout_decks").glob("*.txt")):
        pdf = tmp / f"{txt.stem}.pdf"
        deck_pdf.render(txt, pdf)
        out.append((pdf, *deck_truth(txt)))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    seeds = list((SHARED / "seeds").glob("004_*.txt"))
    seed_words = [w.lower() for w in _TOKEN.findall(seeds[0].read_text(encoding="utf-8"))] if seeds else None
    rows = []
    with tempfile.TemporaryDirectory(prefix="kb-pdf-bench-") as tmp:
        files: list[tuple[Path, dict[int, str], list[str]]] = []
        for folder in ("corpora", "heldout_decks"):
            for pdf in sorted((SHARED / folder).glob("*.pdf")):
                files.append((pdf, outline_titles(pdf.read_bytes()), []))
        files += test_pdfs(Path(tmp))
        for pdf, titles, bullets in files:
            data = pdf.read_bytes()
            for engine in ENGINES:
                row = score(pdf, data, engine, titles, bullets, seed_words if pdf.name == "001TFDist.pdf" else None)
                row["rendered"] = bool(bullets)
                rows.append(row)
    if args.json:
        for r in rows:
            print(json.dumps(r, ensure_ascii=False))
        return 0
    print(f"{'file':32} {'engine':7} {'seconds':>8} {'blocks':>6} {'glued':>5} {'broken':>6} {'titles':>7} "
          f"{'whole':>7} {'order':>6}  glued examples")
    for r in rows:  # the shared decks and tests_slides, one by one
        if r["rendered"]:
            continue
        print(f"{r['file'][:32]:32} {r['engine']:7} {r['seconds']:>8.3f} {r['blocks']:>6} {r['glued']:>5} "
              f"{r['broken']:>6} {r['titles']:>7} {r['whole']:>7} {r['order']:>6}  {', '.join(r['glued_examples'])}")
    rendered = [r for r in rows if r["rendered"]]
    for engine in ENGINES:  # the 78 rendered decks, summed
        rs = [r for r in rendered if r["engine"] == engine]

        def frac(key: str, rs: list = rs) -> str:
            return f"{sum(int(r[key].split('/')[0]) for r in rs)}/{sum(int(r[key].split('/')[1]) for r in rs)}"

        print(f"{f'{len(rs)} rendered decks (tests)':32} {engine:7} {sum(r['seconds'] for r in rs):>8.3f} "
              f"{sum(r['blocks'] for r in rs):>6} {sum(r['glued'] for r in rs):>5} {sum(r['broken'] for r in rs):>6} "
              f"{frac('titles'):>7} {frac('whole'):>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
