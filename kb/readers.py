"""Readers turn one source file into :class:`~kb.records.Block` s with locators.

Each reader knows one shape of course material: PDF slides and books (PDFium; pypdf as fallback), Markdown
and plain text (headings or slide titles kept as a heading path), transcripts (WebVTT,
SRT and the Markdown segment format with ``*Início:*``/``*Fim:*`` timestamps) and saved
web pages (readable text only). Bad files raise :class:`~kb.errors.InputError` naming
the file and the fix; the caller decides whether to go on with the other files.
"""

from __future__ import annotations

import hashlib
import html
import logging
import re
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from .config import DEFAULT_MAX_MB
from .errors import InputError
from .records import Block, Locator
from .text import (
    STOPWORDS,
    can_be_heading,
    clean_inline,
    fold,
    is_noise_line,
    looks_like_code_line,
    rejoin_lines,
    strip_bullet,
    words,
)

EXTENSIONS = {
    ".pdf": "pdf",
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".text": "text",
    ".vtt": "transcript",
    ".srt": "transcript",
    ".html": "html",
    ".htm": "html",
}


@dataclass
class Document:
    """A source file as read: its kind, blocks, a hash of its bytes and any notes."""

    path: Path
    kind: str
    blocks: list[Block]
    source_hash: str
    notes: list[str] = field(default_factory=list)


def bytes_hash(data: bytes) -> str:
    """The source hash the store records: first 16 hex digits of the bytes' sha256."""
    return hashlib.sha256(data).hexdigest()[:16]


def file_hash(path: Path) -> str | None:
    """:func:`bytes_hash` of a file (None when it cannot be read)."""
    try:
        return bytes_hash(path.read_bytes())
    except OSError:
        return None


def read_document(path: Path, max_mb: float = DEFAULT_MAX_MB) -> Document:
    """Read one file into blocks. Raises :class:`InputError` with a fix for bad files."""
    ext = path.suffix.lower()
    if ext not in EXTENSIONS:
        raise InputError(
            f"{path}: unsupported file type '{ext or '(none)'}'",
            "kb reads " + ", ".join(sorted(EXTENSIONS)) + "; convert it or leave it out",
        )
    try:
        size = path.stat().st_size
    except OSError as e:
        raise InputError(f"{path}: cannot read ({e.strerror})", "check the path and its permissions") from e
    if size == 0:
        raise InputError(f"{path}: file is empty", "add content or remove the file")
    if size > max_mb * 1024 * 1024:
        raise InputError(
            f"{path}: file is {size / 1024 / 1024:.1f} MB, over the {max_mb:g} MB limit",
            f"split it into smaller files or raise the limit with --max-mb {int(size / 1024 / 1024) + 1}",
        )
    data = path.read_bytes()
    source_hash = bytes_hash(data)
    notes: list[str] = []
    if ext == ".pdf":
        blocks = read_pdf_bytes(data, path, notes)
        kind = "pdf"
    else:
        text = decode_text(data, path, notes)
        kind, blocks = read_text_source(text, ext, path)
    if not any(b.text.strip() for b in blocks):
        raise InputError(
            f"{path}: no readable text found",
            "for a scanned PDF run OCR first (e.g. ocrmypdf); otherwise check the file",
        )
    return Document(path=path, kind=kind, blocks=blocks, source_hash=source_hash, notes=notes)


def decode_text(data: bytes, path: Path, notes: list[str]) -> str:
    """UTF-8 (with or without BOM), else Windows-1252/Latin-1 with a note. NUL bytes mean binary."""
    if b"\x00" in data[:8192]:
        raise InputError(f"{path}: looks like a binary file, not text", "export it as UTF-8 text or remove it")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
    try:
        text = data.decode("cp1252")
        notes.append(f"not UTF-8 (from line {line}); read as Windows-1252/Latin-1 — check accents, save as UTF-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
        notes.append(f"not UTF-8 (from line {line}); read as Latin-1 — check accents, save as UTF-8")
    return text


def read_text_source(text: str, ext: str, path: Path) -> tuple[str, list[Block]]:
    """Pick the reader for a text file by extension and content."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if ext == ".vtt" or (ext in (".txt", ".text") and text.lstrip().startswith("WEBVTT")):
        return "transcript", read_cues(text, path)
    if ext == ".srt" or (ext in (".txt", ".text") and _SRT_TIME.search(text[:500])):
        return "transcript", read_cues(text, path)
    if ext in (".html", ".htm"):
        return "html", read_html(text)
    if _SEGMENT_START.search(text):
        return "transcript", read_segments(text)
    unfenced = re.sub(r"(?ms)^```.*?^```", "", text)
    if ext in (".md", ".markdown") or re.search(r"(?m)^#{1,6} \S", unfenced):
        return "markdown", read_markdown(text)
    return "text", read_plain(text)


# ---------------------------------------------------------------- PDF

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
# A slide title: a first line of at most _TITLE_MAX_WORDS words, joined with up to two wrapped
# lines of at most _TITLE_LINE_MAX_WORDS words each (a line of at most _TITLE_SHORT_WORDS words
# without end punctuation, above a bullet, counts as wrapped), _TITLE_MAX_CHARS characters in all.
# Set by hand, not measured.
_TITLE_MAX_WORDS = 14
_TITLE_LINE_MAX_WORDS = 8
_TITLE_SHORT_WORDS = 4
_TITLE_MAX_LINES = 3
_TITLE_MAX_CHARS = 110


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
        raise InputError(f"{path}: not a PDF (no %PDF header)", "re-export or re-download the file, or remove it")
    if engine == "pdfium":
        pages = _pdfium_pages(data, path, notes)
        if pages is not None:
            return pages
        notes.append("PDFium could not parse the file; read with pypdf's layout mode")
    return _pypdf_pages(data, path, notes)


def _encrypted(path: Path) -> InputError:
    return InputError(f"{path}: PDF is encrypted with a password",
                      "save an unencrypted copy (e.g. qpdf --decrypt --password=... in.pdf out.pdf)")


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
        images = sum(1 for _ in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,)))
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
        raise InputError(f"{path}: damaged PDF ({type(e).__name__}: {e})", "re-export the PDF or remove it") from e
    failed: list[int] = []
    plain_pages: list[int] = []
    pages = [PdfPage(_page_text(p, n, plain_pages, failed), images=_image_count(p))
             for n, p in enumerate(raw_pages, start=1)]
    if plain_pages:
        notes.append(f"layout extraction failed on page(s) {_pages(plain_pages)}; read with plain extraction "
                     "(words of differently styled text may be glued)")
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
        notes.append(f"{len(failed)} page(s) could not be read and were skipped: {_pages(failed)}")
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


def _line(raw: str) -> tuple[int, str]:
    expanded = raw.expandtabs(4)
    return len(expanded) - len(expanded.lstrip()), clean_inline(expanded)


def split_slide(raw: str, title: str | None = None) -> tuple[str, list[tuple[str, bool]]]:
    """A page of layout text → (title, [(text, is_code), ...]).

    The title is the page's first line, joined with the next one or two when the title was
    wrapped ("Implementación de Data Augmentation" / "en PyTorch"); URLs, footnotes and
    source credits are dropped and never become the title. Bullets and sentences wrapped
    over several lines are rejoined (:func:`kb.text.rejoin_lines`); code stays a block with
    its line breaks. ``title``: the title the page's font sizes gave (``raw`` is then the body
    only), used as it is."""
    lines: list[tuple[int, str]] = []
    dropped_url = False
    for ln in raw.splitlines():
        indent, text = _line(ln)
        if not text:
            lines.append((0, ""))
            continue
        if is_noise_line(text) or re.fullmatch(r"\d{1,3}", text):
            dropped_url = True
            continue
        if dropped_url and " " not in text and re.search(r"[/#%=]|^[\w\-.]+$", text) and not looks_like_code_line(text):
            continue  # the wrapped tail of a URL dropped just before
        dropped_url = False
        lines.append((indent, text))
    while lines and not lines[0][1]:
        lines.pop(0)
    if title is not None:
        return title, _body_parts(lines)
    title_parts: list[str] = []
    i = 0
    if lines and not strip_bullet(lines[0][1])[0] and len(words(lines[0][1])) <= _TITLE_MAX_WORDS and (
            can_be_heading(lines[0][1]) or _identifier_title(lines[0][1], next((t for _, t in lines[1:] if t), ""))):
        title_parts.append(lines[0][1])
        i = 1
        while i < len(lines) and len(title_parts) < _TITLE_MAX_LINES:
            text = lines[i][1]
            if (not text or strip_bullet(text)[0] or not can_be_heading(text)
                    or len(words(text)) > _TITLE_LINE_MAX_WORDS):
                break
            nxt = lines[i + 1][1] if i + 1 < len(lines) else ""
            last = fold(title_parts[-1].split()[-1]) if title_parts[-1].split() else ""
            wrapped = (text[:1].islower() or last in _TITLE_OPEN
                       or (len(words(text)) <= _TITLE_SHORT_WORDS and not text.rstrip().endswith((".", "!", "?", ";"))
                           and (not nxt or bool(strip_bullet(nxt)[0]))))
            if not wrapped or len(" ".join(title_parts)) + len(text) > _TITLE_MAX_CHARS:
                break
            title_parts.append(text)
            i += 1
    title = " ".join(" ".join(title_parts).split())
    title = re.sub(r"(\w)- (\w)", r"\1-\2", title)
    return title, _body_parts(lines[i:])


def _identifier_title(line: str, nxt: str) -> bool:
    """A slide titled with a bare identifier ("@tf.function", "torch.hub") above bullets."""
    return bool(re.fullmatch(r"@?[A-Za-z_][\w.]*(?:\(\))?", line.strip())) and bool(strip_bullet(nxt)[0])


_TITLE_OPEN = frozenset(
    "de del la las el los en y e a al con para por sobre da do das dos em no na com o os as ou".split())


# words a wrapped bullet's line may stop on, mid-phrase, before its continuation
_MID_PHRASE = frozenset("de del la el los las en y e o a al con para por da do das dos em no na com os as ou vs vs. "
                        "versus".split())


def _continues(prose: list[tuple[int, str]], indent: int) -> bool:
    """The line is the wrapped rest of the bullet above, however much it looks like code: that
    bullet stops mid-phrase ("con q =", "pin_memory() y .to(device,", "Function vs", an open bracket) and the
    line is not indented less than it ("• Cuantización afín: x ~ scale * (q - zero_point), con q
    =" / "clamp(round(x / scale) + zero_point)")."""
    last = next(((ind, t) for ind, t in reversed(prose) if t), None)
    if last is None or indent < last[0]:
        return False
    t = last[1].rstrip()
    return t.endswith((",", "=", "(", "[", "{", "+", "-", "*", "/")) or t.count("(") > t.count(")") \
        or fold(t.split()[-1]) in _MID_PHRASE


def _body_parts(lines: list[tuple[int, str]]) -> list[tuple[str, bool]]:
    """Split body lines into prose (rejoined into items) and code blocks."""
    parts: list[tuple[str, bool]] = []
    prose: list[tuple[int, str]] = []
    code: list[tuple[int, str]] = []

    def flush_prose() -> None:
        """Append the prose lines gathered so far as one part (rejoined, sub-bullets indented), then reset."""
        items = rejoin_lines(prose)
        base = min((ind for m, _, ind in items if m), default=0)
        text = "\n".join(("  " if m and ind > base + 1 else "") + _render_item(m, t) for m, t, ind in items if t)
        if text.strip():
            parts.append((text, False))
        prose.clear()

    def flush_code() -> None:
        """Append the code lines gathered so far as one code part (indent kept relative to its least), then reset."""
        while code and not code[-1][1]:
            code.pop()
        if code:
            base = min(ind for ind, t in code if t)
            parts.append(("\n".join(" " * max(0, ind - base) + re.sub(r" {2,}", " ", t) if t else ""
                                    for ind, t in code), True))
        code.clear()

    for indent, text in lines:
        in_code = bool(code)
        if in_code:
            prev = next((t for _, t in reversed(code) if t), "")
            base = min(ind for ind, t in code if t)
            if not text:
                code.append((indent, text))
                continue
            if not strip_bullet(text)[0] and (looks_like_code_line(text) or prev.rstrip().endswith(tuple("([{,:\\"))
                                              or indent > base or text.lstrip().startswith("#")):
                code.append((indent, text))
                continue
            flush_code()
        if text and not strip_bullet(text)[0] and (looks_like_code_line(text) or _pasted_command(text, indent, prose)) \
                and not _prose_like(text) and not _prose_assignment(text) and not _continues(prose, indent):
            flush_prose()
            code.append((indent, text))
            continue
        prose.append((indent, text))
    flush_prose()
    flush_code()
    return parts


# A line that looks like code is prose when it has at least _PROSE_MIN_WORDS words and more than
# _PROSE_STOPWORD_SHARE of them are stop-words. Set by hand, not measured.
_PROSE_MIN_WORDS = 6
_PROSE_STOPWORD_SHARE = 0.3


# a shell command: a program, up to three arguments, then a flag ("kubectl get nodes -o …", "torchrun
# --nnodes=2:4 …")
_SHELL_COMMAND = re.compile(r"^[a-z][\w.-]*(?:\s+[^\s-]\S*){0,3}\s+--?[A-Za-z][\w-]*(?:[=\s]|$)")


def _pasted_command(text: str, indent: int, prose: list[tuple[int, str]]) -> bool:
    """A shell command pasted under a bullet, not the bullet's wrapped rest: a command indented deeper
    than the bullet's text, or any line continued with a backslash. Read as the bullet's rest,
    "Conferir quantas GPUs cada nó oferece kubectl get nodes -o …" became a cloze on a column name
    (split U); a wrapped line that opens on a flag ("herda --cpus-per-task do sbatch; …") stays prose."""
    if re.search(r"\s\\$", text):
        return True
    last = next(((ind, t) for ind, t in reversed(prose) if t), None)
    column = last[0] + (2 if last and strip_bullet(last[1])[0] else 0) if last else 0
    return bool(_SHELL_COMMAND.match(text)) and indent > column


def _prose_like(text: str) -> bool:
    """A line that matched a code pattern but reads as prose ("Por ejemplo: x = 1" is code,
    "El resultado = la suma de los pesos" is not)."""
    ws = words(text)
    return len(ws) >= _PROSE_MIN_WORDS and sum(w.lower() in STOPWORDS for w in ws) / len(ws) > _PROSE_STOPWORD_SHARE


# "baja = afinado final": words after the "=" with no operator between them are no Python (a slide's
# "X = what it does", wrapped onto its own line), unless a keyword joins them ("f = lambda x: x"); a
# one-letter word is a formula's ("B = a x b", "Y = X W")
_WORDS_ASSIGNED = re.compile(r"^\s*[\w.]+\s*=\s*(?P<a>[^\W\d]\w+)\s+(?P<b>[^\W\d]\w+)(?!\w|=)")
_PY_KEYWORDS = frozenset("lambda not if else and or in is for await yield async from".split())


def _prose_assignment(text: str) -> bool:
    """An assignment whose right side is words ("cola muy / baja = afinado final"), not code."""
    m = _WORDS_ASSIGNED.match(text)
    # (a shell line: "HOROVOD_GPU_OPERATIONS=NCCL HOROVOD_WITH_PYTORCH=1 pip install … --no-cache-dir")
    return m is not None and m.group("a") not in _PY_KEYWORDS and m.group("b") not in _PY_KEYWORDS \
        and not re.search(r"\s--?[A-Za-z]", text)


def _render_item(marker: str, text: str) -> str:
    if not marker:
        return text
    if marker[0].isdigit():
        return f"{marker} {text}"
    return f"• {text}"


_CODE_LINE = re.compile(
    r"^\s*(import |from \S+ import|def |class |return\b|print\(|for .* in .*:|if .*:|with .*:|@\w|#|\$ |"
    r"[\w.\[\]]+\s*=\s*\S|[\w.]+\(.*\)\s*$|[)\]}]\s*$)"
)


_CODE_SHARE = 0.6  # a block is code when at least this share of its lines look like code; set by hand, not measured


def looks_like_code(text: str) -> bool:
    """True when most lines look like source code (assignments, calls, imports)."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return False
    code = sum(1 for ln in lines if _CODE_LINE.match(ln))
    return code / len(lines) >= _CODE_SHARE


# ---------------------------------------------------------------- Markdown and plain text


def _paragraphs_with_fences(text: str) -> list[tuple[str, bool]]:
    """Split on blank lines, keeping ``` fenced code blocks whole. Returns (text, is_code)."""
    out: list[tuple[str, bool]] = []
    buf: list[str] = []
    in_fence = False
    for line in text.split("\n"):
        if line.strip().startswith("```"):
            if in_fence:
                buf.append(line)
                out.append(("\n".join(buf).strip(), True))
                buf, in_fence = [], False
            else:
                if buf:
                    out.append(("\n".join(buf).strip(), False))
                buf, in_fence = [line], True
            continue
        if in_fence:
            buf.append(line)
        elif not line.strip():
            if buf:
                out.append(("\n".join(buf).strip(), False))
                buf = []
        else:
            buf.append(line)
    if buf:
        out.append(("\n".join(buf).strip(), in_fence))
    return [(t, c) for t, c in out if t]


_FRONT_MATTER = re.compile(r"\A(?:---|\+\+\+)[ \t]*\n(.*?)\n(?:---|\+\+\+|\.\.\.)[ \t]*(?:\n|\Z)", re.S)


def _front_matter(text: str) -> tuple[str | None, str]:
    """(front matter title or None, the text without its front matter)."""
    m = _FRONT_MATTER.match(text)
    if not (m and re.search(r"(?m)^\w[\w-]*\s*[:=]", m.group(1))):
        return None, text
    t = re.search(r"(?mi)^title\s*[:=]\s*['\"]?(.*?)['\"]?\s*$", m.group(1))
    return (clean_inline(t.group(1)) if t and t.group(1).strip() else None), text[m.end():]


class _MarkdownBlocks:
    """Walks markdown-it's tokens into blocks, keeping the heading path and the lines of the
    open block; lists, tables and blockquotes (``depth`` > 0) form one block each."""

    def __init__(self, tokens: list, fm_title: str | None) -> None:
        self.tokens = tokens
        self.fm_title = fm_title
        self.blocks: list[Block] = []
        self.path: list[tuple[int, str]] = []
        self.lines: list[str] = []
        self.depth = 0  # nesting of lists/tables/blockquotes: their parts form one block
        self.list_level = 0
        self.row: list[str] = []
        self.ordered: list[int] = []  # per open list: the next item number, 0 for a bullet list
        self.emphasis: list[str] = []  # the bold phrases of the open block

    def read(self) -> list[Block]:
        """Walk every token and return the blocks, each under its heading path."""
        i = 0
        while i < len(self.tokens):
            if self.tokens[i].type == "heading_open":
                self._heading(i)
                i += 3  # heading_open, inline, heading_close
                continue
            self._token(i)
            i += 1
        self._flush()
        return self.blocks

    def _heading_path(self) -> str | None:
        return " > ".join(t for _, t in self.path) or self.fm_title

    def _flush(self) -> None:
        body = "\n".join(ln for ln in self.lines if ln.strip()).strip()
        if body:
            self.blocks.append(Block(text=body, locator=Locator(heading=self._heading_path()), is_code=False,
                                     emphasis=tuple(dict.fromkeys(self.emphasis))))
        self.lines.clear()
        self.emphasis.clear()

    def _open_group(self) -> None:
        if self.depth == 0:
            self._flush()
        self.depth += 1

    def _close_group(self) -> None:
        self.depth -= 1
        if self.depth == 0:
            self._flush()

    def _add_line(self, line: str) -> None:
        self.lines.append(line)
        if self.depth == 0:
            self._flush()

    def _heading(self, i: int) -> None:
        self._flush()
        level = int(self.tokens[i].tag[1])
        title = _inline_text(self.tokens[i + 1]) if i + 1 < len(self.tokens) else ""
        if title:
            self.path = [(lv, t) for lv, t in self.path if lv < level] + [(level, title)]

    def _token(self, i: int) -> None:
        tok = self.tokens[i]
        kind = tok.type
        if kind in ("fence", "code_block"):
            self._flush()
            code = tok.content.rstrip("\n")
            if code.strip():
                self.blocks.append(Block(text=code, locator=Locator(heading=self._heading_path()), is_code=True))
        elif kind in ("bullet_list_open", "ordered_list_open"):
            self._open_group()
            self.list_level += 1
            self.ordered.append(int(tok.attrs.get("start", 1) or 1) if kind == "ordered_list_open" else 0)
        elif kind in ("bullet_list_close", "ordered_list_close"):
            self.list_level -= 1
            self.ordered.pop()
            self._close_group()
        elif kind in ("table_open", "blockquote_open"):
            self._open_group()
        elif kind in ("table_close", "blockquote_close"):
            self._close_group()
        elif kind in ("tr_open", "th_open", "td_open", "tr_close"):
            self._table(i)
        elif kind == "inline" and self.tokens[i - 1].type == "paragraph_open":
            self._paragraph(i)
        elif kind == "html_block":
            raw_html = re.sub(r"<[^>]+>", " ", tok.content)
            if raw_html.strip():
                self._add_line(clean_inline(html.unescape(" ".join(raw_html.split()))))

    def _table(self, i: int) -> None:
        kind = self.tokens[i].type
        if kind == "tr_open":
            self.row = []
        elif kind in ("th_open", "td_open"):
            cell = self.tokens[i + 1]
            self.row.append(_inline_text(cell) if cell.type == "inline" else "")
            self.emphasis += _strong_phrases(cell) if cell.type == "inline" else []
        elif any(c for c in self.row):  # tr_close
            self.lines.append(" | ".join(self.row))

    def _paragraph(self, i: int) -> None:
        para = _inline_text(self.tokens[i])
        self.emphasis += _strong_phrases(self.tokens[i])
        if self.list_level and self.tokens[i - 2].type == "list_item_open":
            if self.ordered[-1]:
                para = f"{self.ordered[-1]}. {para}"
                self.ordered[-1] += 1
            else:
                para = f"• {para}"
            para = "  " * (self.list_level - 1) + para
        self._add_line(para)


def read_markdown(text: str) -> list[Block]:
    """Blocks per paragraph, list, table or code block with the heading path
    (``# A`` > ``## B`` > ``### C``), parsed by markdown-it (CommonMark + tables): underlined
    (``===``/``---``) headings, ``~~~`` and ``` fences, ``snake_case`` in headings and
    wrapped lines are read as a person reads them. Front matter is not text; its ``title``
    heads the text before the first heading."""
    from markdown_it import MarkdownIt

    fm_title, text = _front_matter(text)
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    return _MarkdownBlocks(tokens, fm_title).read()


def _inline_text(tok) -> str:
    """What a reader sees of an inline token: text and code spans, link text, line breaks
    as spaces; emphasis marks, images and inline HTML dropped."""
    out: list[str] = []
    for child in tok.children or []:
        if child.type in ("text", "code_inline"):
            out.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append(" ")
        elif child.type == "image":
            out.append(child.content or "")
    return clean_inline(" ".join("".join(out).split()))


def _strong_phrases(tok) -> list[str]:
    """The phrases an inline token sets in bold (``**…**``, ``__…__``), as :func:`_inline_text`
    writes them: in a book summary's answers they are what its author marked as the point
    ("os valores … são armazenados em **contêineres gerenciados pelo próprio cluster**")."""
    out: list[str] = []
    buf: list[str] = []
    depth = 0
    for child in tok.children or []:
        if child.type == "strong_open":
            depth += 1
            buf = buf if depth > 1 else []
        elif child.type == "strong_close" and depth:
            depth -= 1
            phrase = clean_inline(" ".join("".join(buf).split())) if not depth else ""
            if phrase:
                out.append(phrase)
        elif depth and child.type in ("text", "code_inline"):
            buf.append(child.content)
        elif depth and child.type in ("softbreak", "hardbreak"):
            buf.append(" ")
    return out


def _strip_md(s: str) -> str:
    return re.sub(r"[*_`]+", "", s).strip()


# Plain text: a title is one line of at most _PLAIN_TITLE_MAX_CHARS characters and
# _PLAIN_TITLE_MAX_WORDS words; a line shorter than _BOILER_MAX_CHARS seen _BOILER_REPEATS times or
# more is page furniture (footer, institute name) and dropped. Set by hand, not measured.
_PLAIN_TITLE_MAX_CHARS = 70
_PLAIN_TITLE_MAX_WORDS = 9
_BOILER_MAX_CHARS = 80
_BOILER_REPEATS = 3


def _is_title(para: str) -> bool:
    """A slide or section title: one short line without sentence punctuation, and never a
    URL, a footnote, a source credit or a line of code."""
    if "\n" in para or len(para) > _PLAIN_TITLE_MAX_CHARS:
        return False
    w = words(para)
    return (0 < len(w) <= _PLAIN_TITLE_MAX_WORDS and not para.rstrip().endswith((".", ";", ",", ":", "?", "!"))
            and not strip_bullet(para)[0] and can_be_heading(para))


def _table_row(line: str) -> str:
    """A tab-separated line is a table row: its cells are joined with " | " ("GPU | Memória")."""
    cells = [c.strip() for c in line.strip().split("\t")]
    return " | ".join(c for c in cells if c) if len([c for c in cells if c]) > 1 else line


def read_plain(text: str) -> list[Block]:
    """Slide text or a saved page: paragraphs, with short title lines as headings. Lines that
    repeat three or more times (footers, page numbers, institute names), bare URLs, footnotes
    and source credits are dropped; lines wrapped inside a sentence or bullet are rejoined."""
    paras = _paragraphs_with_fences(text)
    counts = Counter(p for p, c in paras if not c and len(p) < _BOILER_MAX_CHARS)
    boiler = {p for p, n in counts.items() if n >= _BOILER_REPEATS}
    blocks: list[Block] = []
    heading: str | None = None
    for para, is_code in paras:
        if not is_code:
            kept = [(len(ln) - len(ln.lstrip()), clean_inline(_table_row(ln))) for ln in para.split("\n")
                    if ln.strip() not in boiler and not is_noise_line(ln)]
            kept = [(ind, ln) for ind, ln in kept if ln and not re.fullmatch(r"[\d\s]+", ln)]
            if not kept:
                continue
            if len(kept) == 1 and _is_title(kept[0][1]):
                heading = kept[0][1].strip()
                continue
            if looks_like_code("\n".join(ln for _, ln in kept)):
                blocks.append(Block(text="\n".join(ln for _, ln in kept), locator=Locator(heading=heading),
                                    is_code=True))
                continue
            items = rejoin_lines(kept)
            base = min((ind for m, _, ind in items if m), default=0)
            para = "\n".join(("  " if m and ind > base else "") + _render_item(m, t) for m, t, ind in items if t)
            if not para.strip():
                continue
        blocks.append(Block(text=para, locator=Locator(heading=heading), is_code=is_code))
    return blocks


# ---------------------------------------------------------------- transcripts

_SEGMENT_START = re.compile(r"\*In[ií]cio:\*\s*\d")
_FIELD = re.compile(r"^\s*-\s*\*([^*:]+):\*\s*(.*)$")


def read_segments(text: str) -> list[Block]:
    """The Markdown segment format: ``- *Corpus ID:* 7036``, ``- *Início:* 00:36:35``,
    ``- *Fim:* 00:39:00``, ``- *Transcrição:* ...``. Only the transcribed speech is kept;
    each block carries its segment's timestamps."""
    blocks: list[Block] = []
    cur: dict[str, str] = {}

    def flush() -> None:
        """Close the current segment: a block of its speech with its timestamps, when it has both."""
        speech = cur.get("transcrição") or cur.get("transcricao") or cur.get("texto") or ""
        if speech.strip() and cur.get("início", cur.get("inicio")):
            loc = Locator(
                start=_hms(cur.get("início", cur.get("inicio", ""))),
                end=_hms(cur.get("fim", "")) or None,
                segment=cur.get("corpus id") or None,
            )
            blocks.append(Block(text=html.unescape(speech.strip()), locator=loc))
        cur.clear()

    for line in text.split("\n"):
        m = _FIELD.match(line)
        if not m:
            continue
        key, value = m.group(1).strip().lower(), m.group(2).strip()
        if key == "corpus id" or (key in ("início", "inicio") and "início" in cur):
            flush()
        cur[key] = value
    flush()
    return blocks


_SRT_TIME = re.compile(r"(\d{1,2}:)?\d{1,2}:\d{2}[.,]\d{1,3}\s*-->\s*(\d{1,2}:)?\d{1,2}:\d{2}[.,]\d{1,3}")


def _hms(ts: str) -> str:
    """``00:36:35``, ``1:02:03.500`` or ``02:03,5`` → ``HH:MM:SS``."""
    ts = ts.strip().replace(",", ".")
    m = re.match(r"(?:(\d+):)?(\d{1,2}):(\d{2})", ts)
    if not m:
        return ts
    h, mi, s = int(m.group(1) or 0), int(m.group(2)), int(m.group(3))
    return f"{h:02d}:{mi:02d}:{s:02d}"


def read_cues(text: str, path: Path) -> list[Block]:
    """WebVTT or SRT cues: one block per cue with its start/end (HH:MM:SS)."""
    blocks: list[Block] = []
    for cue in re.split(r"\n\s*\n", text):
        lines = [ln for ln in cue.strip().split("\n") if ln.strip()]
        for i, ln in enumerate(lines):
            m = _SRT_TIME.search(ln)
            if m:
                start, end = [s.strip() for s in ln.split("-->")[:2]]
                end = end.split()[0]
                speech = html.unescape(" ".join(re.sub(r"<[^>]+>", "", x) for x in lines[i + 1 :]).strip())
                if speech:  # cue numbers mean nothing to a student: the times are the citation
                    blocks.append(Block(text=speech, locator=Locator(start=_hms(start), end=_hms(end))))
                break
    if not blocks:
        raise InputError(f"{path}: no timed cues found",
                         "check that it is a WebVTT/SRT file ('00:00:01.000 --> 00:00:04.000')")
    return blocks


# ---------------------------------------------------------------- HTML

_SKIP = {"script", "style", "nav", "header", "footer", "aside", "noscript", "svg", "form", "button", "template",
         "iframe"}
_DROP = {"script", "style", "noscript", "svg", "template", "iframe", "button", "form"}  # nothing in them is text
_BLOCK = {"p", "div", "li", "ul", "ol", "section", "article", "main", "br", "table", "blockquote", "dd", "dt",
          "figcaption", "pre", "caption"}
_VOID = {"br", "img", "hr", "meta", "link", "input", "source", "wbr", "col", "area", "base", "embed", "param", "track"}


class _Readable(HTMLParser):
    """Headings, paragraphs, list items, table rows (cells joined by " | ") and code. Page
    chrome (navigation, header, footer, asides) is skipped, except the headings in it: a
    page's ``<h1>`` often sits inside its ``<header>``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skip = 0  # depth inside page chrome
        self.drop = 0  # depth inside scripts, styles...
        self.items: list[tuple[str, int, str, bool]] = []  # (kind, level, text, is_code)
        self.buf: list[str] = []
        self.heading_level = 0
        self.pre = 0
        self.title = ""
        self.in_title = False
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.table_rows: list[str] = []
        self.tables = 0

    def _flush(self) -> None:
        text = "".join(self.buf)
        text = text.strip("\n") if self.pre else clean_inline(" ".join(text.split()))
        if text.strip():
            kind = "h" if self.heading_level else "p"
            self.items.append((kind, self.heading_level, text, bool(self.pre)))
        self.buf = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        """Open a tag: enter skipped or dropped chrome, a heading, a table part or preformatted text."""
        if tag in _DROP:
            if tag not in _VOID:
                self.drop += 1
            return
        if tag in _SKIP:
            self.skip += 1
        elif tag == "title":
            self.in_title = True
        elif re.fullmatch(r"h[1-6]", tag):
            self._flush()
            self.heading_level = int(tag[1])
        elif tag == "table":
            self._flush()
            self.tables += 1
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = []
        elif tag in _BLOCK and self.cell is None:
            self._flush()
            if tag == "pre":
                self.pre += 1
        elif tag == "br" and self.cell is not None:
            self.cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        """Close a tag: leave what :meth:`handle_starttag` entered, ending the block or table row it held."""
        if tag in _DROP:
            self.drop = max(0, self.drop - 1)
        elif tag in _SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag == "title":
            self.in_title = False
        elif re.fullmatch(r"h[1-6]", tag):
            self._flush()
            self.heading_level = 0
        elif tag in ("td", "th", "tr", "table"):
            self._end_table_part(tag)
        elif tag in _BLOCK and self.cell is None:
            self._flush()
            if tag == "pre":
                self.pre = max(0, self.pre - 1)

    def _end_table_part(self, tag: str) -> None:
        """A cell ends into its row, a row into the table's lines, the outermost table into one item."""
        if tag in ("td", "th"):
            if self.cell is not None and self.row is not None:
                self.row.append(clean_inline(" ".join("".join(self.cell).split())))
            self.cell = None
        elif tag == "tr":
            if self.row and any(self.row):
                self.table_rows.append(" | ".join(self.row))
            self.row = None
        else:  # table
            self.tables = max(0, self.tables - 1)
            if not self.tables and self.table_rows:
                if not self.skip:
                    self.items.append(("p", 0, "\n".join(self.table_rows), False))
                self.table_rows = []

    def handle_data(self, data: str) -> None:
        """Collect text into the page title, the open table cell or the current block; text in dropped
        tags is lost, and in page chrome only a heading's text is kept."""
        if self.drop:
            return
        if self.in_title:
            self.title += data
        elif self.cell is not None:
            self.cell.append(data)
        elif not self.skip or self.heading_level:
            self.buf.append(data)


def read_html(text: str) -> list[Block]:
    """Readable text of a saved page: headings, paragraphs, list items and code; no
    scripts, styles, navigation, headers or footers."""
    p = _Readable()
    p.feed(text)
    p.close()
    p._flush()
    blocks: list[Block] = []
    path: list[tuple[int, str]] = []
    title = " ".join(p.title.split())
    for kind, level, para, is_code in p.items:
        if kind == "h":
            path = [(lv, t) for lv, t in path if lv < level] + [(level, para)]
            continue
        heading = " > ".join(t for _, t in path) or title or None
        blocks.append(Block(text=para, locator=Locator(heading=heading), is_code=is_code))
    return blocks
