"""PDF slides and books: pages through PDFium (pypdf as fallback), a title from font sizes,
title-only pages as section headings, repeated and build-step pages dropped."""

from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..i18n import N_, Message
from ..records import Block, Locator
from ..text import can_be_heading, fold, is_noise_line, strip_bullet, words
from .slides import _TITLE_MAX_CHARS, _TITLE_MAX_LINES, _TITLE_MAX_WORDS, split_slide

_BULLETS = "•◦▪▫●○■□☐☑✓✔➢➤►▶‣⁃-*·"


# Jaccard overlap of a page's words with the previous page's: at or above _REPEAT_OVERLAP the page
# repeats the previous one; a previous page whose words are all on this one and overlap at least
# _BUILD_STEP_OVERLAP was a build step (the same slide with fewer bullets revealed).
# Both set by hand with the first PDF reader (a33589a), not measured.
_REPEAT_OVERLAP = 0.9
_BUILD_STEP_OVERLAP = 0.6
# A page whose body has fewer words than this is a title-only or figure page: it adds no text
# (and may name the section after it). Set by hand, not measured.
_MIN_PAGE_WORDS = 4


@dataclass
class PdfPage:
    """One page as an extractor sees it: text as lines (indent kept as leading spaces), the title
    its font sizes give (None when they say nothing: one size, or no larger line on top) and how
    many images it draws."""

    text: str | None  # None: the page could not be read
    title: str | None = None
    images: int = 0


# A title line is set at least this many times the size of the page's body text (the size most of
# its characters have). Slide titles measured on the three decks in ../shared/corpora: 40-44 pt over
# 20-28 pt bodies (ratio >= 1.4); 1.15 leaves room for a smaller title style. Set by hand.
_TITLE_SIZE_RATIO = 1.15
# The lines of one title differ in size by at most this share (a subtitle or a first bullet set
# larger than the body is no part of it). Set by hand.
_TITLE_SIZE_SPREAD = 0.1
# A vertical gap wider than this share of the line's size above is a blank line (a paragraph or
# box break), as pypdf's layout mode writes one. Set by hand on ../shared/corpora, not measured.
_BLANK_GAP = 0.9
# Indent unit: the width of a space on the page (the median of its spaces), so text indented with
# spaces ("  • sub", "    code") keeps its spaces (PDFium reads a run of spaces as one) and a
# slide's sub-bullet is indented deeper than its bullet; a page without spaces uses a quarter of
# the body size (a space is 0.22-0.28 em in Helvetica, Arial, Calibri, Times).
_INDENT_EM = 0.25
_PDFIUM_LINE = re.compile(r"[^\r\n]+")
_SPACE = re.compile(r"(?<=\S) (?=\S)")  # a space between words (PDFium's own are no font's)
_SPACE_SAMPLE = 64  # spaces measured per page for the indent unit; set by hand


def pdf_pages(data: bytes, path: Path, notes: list[str], engine: str = "pdfium") -> list[PdfPage]:
    """The pages of a PDF through ``engine`` ("pdfium": PDFium via pypdfium2, 20-30x faster than
    pypdf's layout mode with fewer glued words, see bench/pdf_extract.py; "pypdf": pypdf's layout
    mode). A file PDFium cannot parse is read with pypdf (noted); InputError for a file that is
    not a PDF, encrypted or damaged."""
    if not data.lstrip()[:5].startswith(b"%PDF"):
        raise InputError("{path}: not a PDF (no %PDF header)",
                         "re-export or re-download the file, or remove it",
                         path=path)
    if engine == "pdfium":
        pages = _pdfium_pages(data, path, notes)
        if pages is not None:
            return pages
        notes.append(Message("PDFium could not parse the file; read with pypdf's layout mode"))
    return _pypdf_pages(data, path, notes)


def _encrypted(path: Path) -> InputError:
    return InputError("{path}: PDF is encrypted with a password",
                      "save an unencrypted copy (e.g. qpdf --decrypt --password=... in.pdf out.pdf)",
                      path=path)


def _pdfium_pages(data: bytes, path: Path, notes: list[str]) -> list[PdfPage] | None:
    """Pages read by PDFium; None when it cannot parse the file (pypdf may). A page PDFium
    fails on is read with pypdf's layout mode."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    try:
        doc = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as e:
        if getattr(e, "err_code", None) == pdfium_c.FPDF_ERR_PASSWORD:
            raise _encrypted(path) from e
        return None
    try:
        pages: list[PdfPage] = []
        retry: list[int] = []
        for i in range(len(doc)):
            try:
                page = doc[i]
                try:
                    pages.append(_pdfium_page(page, pdfium_c))
                finally:
                    page.close()
            except pdfium.PdfiumError:
                pages.append(PdfPage(None))
                retry.append(i)
    finally:
        doc.close()
    if retry:  # rare: let pypdf try the pages PDFium could not read
        try:
            fallback = _pypdf_pages(data, path, notes)
        except InputError:
            fallback = []
        for i in retry:
            if i < len(fallback):
                pages[i] = fallback[i]
    return pages


_Line = tuple[float, float, float, float, str]  # left, top, bottom, font size (pt), text


def _pdfium_page(page, pdfium_c) -> PdfPage:
    """A page's lines in PDFium's order, each indented by its left edge; the title is the run
    of lines on top set larger than the body (:func:`_title_first`)."""
    tp = page.get_textpage()
    try:
        lines, spaces = _pdfium_lines(tp, pdfium_c)
        images = _pdfium_images(page.raw, pdfium_c)
    finally:
        tp.close()
    if not lines:
        return PdfPage("", images=images)
    sizes: Counter[float] = Counter()
    for *_, size, t in lines:
        sizes[size] += len(t)
    body = sizes.most_common(1)[0][0]
    lines, n_title = _title_first(lines, body)
    unit = spaces[len(spaces) // 2] if spaces and spaces[len(spaces) // 2] > 0 else body * _INDENT_EM
    unit = max(1.0, unit)
    margin = min(ln[0] for ln in lines)
    out: list[str] = []
    for k, (left, line_top, _bottom, _size, t) in enumerate(lines):
        if k and lines[k - 1][2] - line_top > _BLANK_GAP * lines[k - 1][3]:
            out.append("")
        out.append(" " * round((left - margin) / unit) + t)
    if n_title:
        title = re.sub(r"(\w)- (\w)", r"\1-\2", " ".join(" ".join(ln[4] for ln in lines[:n_title]).split()))
        return PdfPage("\n".join(out[n_title:]).lstrip("\n"), title=title, images=images)
    return PdfPage("\n".join(out), images=images)


_FORM_DEPTH = 15  # Form XObjects looked into, nested: pypdfium2's get_objects() default


def _pdfium_images(page, pdfium_c) -> int:
    """Image objects on a page, those inside Form XObjects included (as ``get_objects(filter=
    IMAGE)`` counts them), by the raw API: that helper made a Python object of every object on
    the page, a seventh of reading a deck."""
    image, form = pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_FORM
    get_type = pdfium_c.FPDFPageObj_GetType

    def count(parent, n: int, get, level: int) -> int:
        found = 0
        for i in range(max(0, n)):
            obj = get(parent, i)
            kind = get_type(obj) if obj else None
            if kind == image:
                found += 1
            elif kind == form and level < _FORM_DEPTH - 1:
                found += count(obj, pdfium_c.FPDFFormObj_CountObjects(obj), pdfium_c.FPDFFormObj_GetObject, level + 1)
        return found

    return count(page, pdfium_c.FPDFPage_CountObjects(page), pdfium_c.FPDFPage_GetObject, 0)


def _pdfium_lines(tp, pdfium_c) -> tuple[list[_Line], list[float]]:
    """The text page's lines with their place and font size, and the widths of its spaces (sorted)."""
    import ctypes

    text = tp.get_text_range()
    matrix = pdfium_c.FS_MATRIX()
    lines: list[_Line] = []
    for m in _PDFIUM_LINE.finditer(text):
        raw = m.group()
        j = m.start() + len(raw) - len(raw.lstrip())
        if j >= m.end():
            continue
        left, _bottom, _right, top = tp.get_charbox(j, loose=True)
        # the bottom of its last character: PDFium joins a line ending on a soft hyphen with the next
        bottom = tp.get_charbox(m.start() + len(raw.rstrip()) - 1, loose=True)[1]
        size = pdfium_c.FPDFText_GetFontSize(tp.raw, j)
        if pdfium_c.FPDFText_GetMatrix(tp.raw, j, ctypes.byref(matrix)):
            size *= abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5  # a font scaled by its matrix
        if size <= 0:
            size = top - bottom
        # U+FFFE: PDFium's mark for a hyphen it judged soft ("pre-entrenados")
        lines.append((left, top, bottom, round(size, 1), raw.strip().replace("\ufffe", "-")))
    spaces: list[float] = []
    for m in _SPACE.finditer(text):  # a sample is enough for the median: each space costs two calls
        if not pdfium_c.FPDFText_IsGenerated(tp.raw, m.start()):
            box = tp.get_charbox(m.start())
            spaces.append(box[2] - box[0])
            if len(spaces) >= _SPACE_SAMPLE:
                break
    return lines, sorted(spaces)


def _title_first(lines: list[_Line], body: float) -> tuple[list[_Line], int]:
    """The lines with the title first, and how many lines the title takes (0: the sizes say nothing,
    or the large text is no title: :func:`split_slide` judges). The title is the run of lines on
    top in one size larger than the body's, up to a bullet; when drawn after the body (a text box
    added later) but standing highest on the page, it is moved first."""
    big = [i for i, ln in enumerate(lines) if ln[3] >= body * _TITLE_SIZE_RATIO]
    top = max(big, key=lambda i: lines[i][1], default=0)
    if top > 0 and lines[top][1] >= max(ln[1] for ln in lines) - 1:
        run = [top]
        while run[-1] + 1 in big and len(run) < _TITLE_MAX_LINES:
            run.append(run[-1] + 1)
        lines = [lines[i] for i in run] + [ln for i, ln in enumerate(lines) if i not in run]
        big = list(range(len(run)))
    n = 0
    while (n < min(len(lines), _TITLE_MAX_LINES) and n in big
           and abs(lines[n][3] - lines[0][3]) <= _TITLE_SIZE_SPREAD * lines[0][3]
           and not strip_bullet(lines[n][4])[0]):
        n += 1
    title = " ".join(ln[4] for ln in lines[:n])
    if n and (len(title) > _TITLE_MAX_CHARS or strip_bullet(title)[0] or is_noise_line(title)
              or not can_be_heading(title) or len(words(title)) > _TITLE_MAX_WORDS):
        n = 0  # large text that is no title (a big number, a quote)
    return lines, n


def _pypdf_pages(data: bytes, path: Path, notes: list[str]) -> list[PdfPage]:
    """Pages read by pypdf's layout mode, which keeps the spaces that its plain extraction loses
    between differently-styled words; a page it fails on is read in plain mode (noted)."""
    import io

    import pypdf
    from pypdf.errors import PdfReadError

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # "Ignoring wrong pointing object" noise
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            ok: int
            try:
                ok = reader.decrypt("")
            except Exception:  # unsupported algorithm, missing crypto library
                ok = 0
            if not ok:
                raise _encrypted(path)
        raw_pages = list(reader.pages)
    except InputError:
        raise
    except (PdfReadError, Exception) as e:  # pypdf raises many types on damaged files
        raise InputError("{path}: damaged PDF ({kind}: {error})",
                         "re-export the PDF or remove it",
                         path=path, kind=type(e).__name__, error=e) from e
    failed: list[int] = []
    plain_pages: list[int] = []
    pages = [PdfPage(_page_text(p, n, plain_pages, failed), images=_image_count(p))
             for n, p in enumerate(raw_pages, start=1)]
    if plain_pages:
        notes.append(Message("layout extraction failed on page(s) {pages}; read with plain extraction (words of "
                             "differently styled text may be glued)", pages=_pages(plain_pages)))
    return pages


def _page_text(page, number: int, plain_pages: list[int], failed: list[int]) -> str | None:
    """The page's text in layout mode, else plain (noted in plain_pages); None when unreadable
    (noted in failed)."""
    try:
        return page.extract_text(extraction_mode="layout")
    except Exception:
        try:
            raw = page.extract_text()
            plain_pages.append(number)
            return raw
        except Exception:
            failed.append(number)
            return None


def _repeats_previous(ws: set[str], prev_words: set[str], blocks: list[Block], prev_page: int) -> bool:
    """True when the page repeats the previous one; drops the previous page's blocks when it was
    a build step of this one."""
    if not (prev_words and blocks):
        return False
    overlap = len(ws & prev_words) / max(1, len(ws | prev_words))
    if ws <= prev_words or overlap >= _REPEAT_OVERLAP:
        return True
    if prev_words <= ws and overlap >= _BUILD_STEP_OVERLAP:
        while blocks and blocks[-1].locator.page == prev_page:
            blocks.pop()  # the previous page was a build step of this one
    return False


def read_pdf_bytes(data: bytes, path: Path, notes: list[str], engine: str = "pdfium") -> list[Block]:
    """One block per kept page. Title-only pages become the section heading of the pages
    after them; a page that repeats the previous one (or is a build step of the next one)
    is dropped. Text comes from :func:`pdf_pages` (PDFium; pypdf's layout mode with
    ``engine="pypdf"`` or when PDFium cannot parse the file); a slide's title is the text set
    larger than its body, else what :func:`split_slide` judges from the first lines."""
    pages = pdf_pages(data, path, notes, engine)

    blocks: list[Block] = []
    section = ""  # last title-only page
    last_title = ""
    prev_words: set[str] = set()
    prev_page = 0
    failed: list[int] = []
    # Pictures on a page beyond the logos every page carries: a title-only page with one is a
    # figure or a screenshot of code under that title, not a section divider.
    counts = sorted(p.images for p in pages)
    logo_images = counts[len(counts) // 2] if counts else 0
    index: list[str] = []  # entries of the deck's table of contents, when it has one
    for number, page in enumerate(pages, start=1):
        if page.text is None:
            failed.append(number)
            continue
        title, body = split_slide(page.text, title=page.title)
        text = "\n".join(t for t, _ in body)
        if len(words(text)) < _MIN_PAGE_WORDS:
            if (title and fold(title) not in (fold(last_title), fold(section)) and _is_divider(title)
                    and page.images <= logo_images and (not index or _in_index(title, index))):
                section = title  # a title or section-divider slide: it names what follows
            continue  # a figure page under the previous slide's title adds no text
        if not index and fold(title) in _INDEX_TITLES:
            index = [fold(strip_bullet(ln)[1]) for ln in text.splitlines() if ln.strip()]
        ws = set(w.lower() for w in words(f"{title} {text}"))
        if _repeats_previous(ws, prev_words, blocks, prev_page):
            continue  # repeat of the previous page
        prev_words, prev_page = ws, number
        last_title = title or last_title
        heading = (f"{section} > {title}" if section and title and fold(section) != fold(title)
                   else title or section) or None
        for part, is_code in body:
            blocks.append(Block(text=part, locator=Locator(page=number, heading=heading), is_code=is_code))
    if failed:
        notes.append(Message(N_("{n} page could not be read and was skipped: {pages}") if len(failed) == 1 else
                             N_("{n} pages could not be read and were skipped: {pages}"), n=len(failed),
                             pages=_pages(failed)))
    return blocks


def _image_count(page) -> int:
    """How many images a page draws (its /XObject images; 0 when unreadable)."""
    try:
        res = page.get("/Resources")
        res = res.get_object() if res is not None else {}
        xobjects = res.get("/XObject")
        if not xobjects:
            return 0
        xobjects = xobjects.get_object()
        return sum(1 for k in xobjects if xobjects[k].get_object().get("/Subtype") == "/Image")
    except Exception:
        return 0


_INDEX_TITLES = frozenset("indice index agenda contenidos conteudo conteudos sumario contents outline temario".split())


def _in_index(title: str, index: list[str]) -> bool:
    t = fold(title)
    return any(e and (e in t or t in e) for e in index)


def _is_divider(title: str) -> bool:
    """A title-only page names the pages after it, unless it points at a lab or exercise
    ("Lab 1: 02_load.ipynb", "Ejercicio de ...:") or is a picture under a title."""
    return not (re.search(r"\.\w{2,5}\b", title) or title.rstrip().endswith(":")
                or re.match(r"(?i)(lab|laboratorio|ejercicio|exerc[ií]cio|ejemplo|exemplo|demo|actividad|atividade"
                            r"|activity)\b", title))


def _pages(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers[:10])) + (f" and {len(numbers) - 10} more" if len(numbers) > 10 else "")
