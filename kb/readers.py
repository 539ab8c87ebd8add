"""Readers turn one source file into :class:`~kb.records.Block` s with locators.

Each reader knows one shape of course material: PDF slides and books (pypdf), Markdown
and plain text (headings or slide titles kept as a heading path), transcripts (WebVTT,
SRT and the Markdown segment format with ``*Início:*``/``*Fim:*`` timestamps) and saved
web pages (readable text only). Bad files raise :class:`~kb.errors.InputError` naming
the file and the fix; the caller decides whether to go on with the other files.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from .errors import InputError
from .records import Block, Locator
from .text import normalize_space, words

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
DEFAULT_MAX_MB = 20.0


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


def read_pdf_bytes(data: bytes, path: Path, notes: list[str]) -> list[Block]:
    """One block per kept page. Title-only pages become the section heading of the pages
    after them; a page that repeats the previous one (or is a build step of the next one)
    is dropped. Text comes from pypdf's layout mode, which keeps the spaces that plain
    extraction loses between differently-styled words ("TensorFlowdistribuido")."""
    import io

    import pypdf
    from pypdf.errors import PdfReadError

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # "Ignoring wrong pointing object" noise
    if not data.lstrip()[:5].startswith(b"%PDF"):
        raise InputError(f"{path}: not a PDF (no %PDF header)", "re-export or re-download the file, or remove it")
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            try:
                ok = reader.decrypt("")
            except Exception:  # unsupported algorithm, missing crypto library
                ok = 0
            if not ok:
                raise InputError(
                    f"{path}: PDF is encrypted with a password",
                    "save an unencrypted copy (e.g. qpdf --decrypt --password=... in.pdf out.pdf)",
                )
        pages = list(reader.pages)
    except InputError:
        raise
    except (PdfReadError, Exception) as e:  # pypdf raises many types on damaged files
        raise InputError(f"{path}: damaged PDF ({type(e).__name__}: {e})", "re-export the PDF or remove it") from e

    blocks: list[Block] = []
    section = ""  # last title-only page
    prev_words: set[str] = set()
    failed = 0
    for number, page in enumerate(pages, start=1):
        try:
            raw = page.extract_text(extraction_mode="layout")
        except Exception:
            try:
                raw = page.extract_text()
            except Exception:
                failed += 1
                continue
        text = normalize_space(raw)
        if not text:
            continue
        lines = text.split("\n")
        title = lines[0].strip(_BULLETS + " ")
        body = "\n".join(lines[1:]).strip()
        if len(words(body)) < 4:
            # a title or section-divider slide: it names what follows
            section = " ".join(text.split())[:120]
            continue
        ws = set(w.lower() for w in words(text))
        if prev_words and blocks:
            overlap = len(ws & prev_words) / max(1, len(ws | prev_words))
            if ws <= prev_words or overlap >= 0.9:
                continue  # repeat of the previous page
            if prev_words <= ws and overlap >= 0.6:
                blocks.pop()  # the previous page was a build step of this one
        prev_words = ws
        heading = f"{section} > {title}" if section and section != title else title
        blocks.append(Block(text=body, locator=Locator(page=number, heading=heading), is_code=looks_like_code(body)))
    if failed:
        notes.append(f"{failed} page(s) could not be read and were skipped")
    return blocks


_CODE_LINE = re.compile(
    r"^\s*(import |from \S+ import|def |class |return\b|print\(|for .* in .*:|if .*:|with .*:|@\w|#|\$ |"
    r"[\w.\[\]]+\s*=\s*\S|[\w.]+\(.*\)\s*$|[)\]}]\s*$)"
)


def looks_like_code(text: str) -> bool:
    """True when most lines look like source code (assignments, calls, imports)."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return False
    code = sum(1 for ln in lines if _CODE_LINE.match(ln))
    return code / len(lines) >= 0.6


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


_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def read_markdown(text: str) -> list[Block]:
    """Blocks per paragraph with the heading path (``# A`` > ``## B`` > ``### C``)."""
    blocks: list[Block] = []
    path: list[tuple[int, str]] = []
    for para, is_code in _paragraphs_with_fences(text):
        first, _, rest = para.partition("\n")
        m = _HEADING.match(first) if not is_code else None
        if m:
            level, title = len(m.group(1)), _strip_md(m.group(2))
            path = [(lv, t) for lv, t in path if lv < level] + [(level, title)]
            para = rest.strip()
            if not para:
                continue
        heading = " > ".join(t for _, t in path) or None
        blocks.append(Block(text=para, locator=Locator(heading=heading), is_code=is_code))
    return blocks


def _strip_md(s: str) -> str:
    return re.sub(r"[*_`]+", "", s).strip()


def _is_title(para: str) -> bool:
    """A slide or section title: one short line without sentence punctuation."""
    if "\n" in para or len(para) > 70:
        return False
    w = words(para)
    return 0 < len(w) <= 9 and not para.rstrip().endswith((".", ";", ",", ":", "?", "!")) and not para.lstrip().startswith(tuple(_BULLETS))


def read_plain(text: str) -> list[Block]:
    """Slide text or a saved page: paragraphs, with short title lines as headings. Lines that
    repeat three or more times (footers, page numbers, institute names) are dropped."""
    paras = _paragraphs_with_fences(text)
    counts = Counter(p for p, c in paras if not c and len(p) < 80)
    boiler = {p for p, n in counts.items() if n >= 3}
    blocks: list[Block] = []
    heading: str | None = None
    for para, is_code in paras:
        if not is_code:
            para = "\n".join(ln for ln in para.split("\n") if ln.strip() not in boiler).strip()
            if not para or re.fullmatch(r"[\d\s]+", para):
                continue
            if _is_title(para):
                heading = para.strip()
                continue
        blocks.append(Block(text=para, locator=Locator(heading=heading), is_code=is_code or looks_like_code(para)))
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
        speech = cur.get("transcrição") or cur.get("transcricao") or cur.get("texto") or ""
        if speech.strip() and cur.get("início", cur.get("inicio")):
            loc = Locator(
                start=_hms(cur.get("início", cur.get("inicio", ""))),
                end=_hms(cur.get("fim", "")) or None,
                segment=cur.get("corpus id") or None,
            )
            blocks.append(Block(text=speech.strip(), locator=loc))
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
                speech = " ".join(re.sub(r"<[^>]+>", "", x) for x in lines[i + 1 :]).strip()
                if speech:  # cue numbers mean nothing to a student: the times are the citation
                    blocks.append(Block(text=speech, locator=Locator(start=_hms(start), end=_hms(end))))
                break
    if not blocks:
        raise InputError(f"{path}: no timed cues found", "check that it is a WebVTT/SRT file ('00:00:01.000 --> 00:00:04.000')")
    return blocks


# ---------------------------------------------------------------- HTML

_SKIP = {"script", "style", "nav", "header", "footer", "aside", "noscript", "svg", "form", "button", "template", "iframe"}
_BLOCK = {"p", "div", "li", "ul", "ol", "section", "article", "main", "br", "tr", "table", "blockquote", "dd", "dt", "figcaption", "pre"}


class _Readable(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.items: list[tuple[str, int, str, bool]] = []  # (kind, level, text, is_code)
        self.buf: list[str] = []
        self.heading_level = 0
        self.pre = 0
        self.title = ""
        self.in_title = False

    def _flush(self) -> None:
        text = "".join(self.buf)
        text = text.strip() if self.pre else " ".join(text.split())
        if text:
            kind = "h" if self.heading_level else "p"
            self.items.append((kind, self.heading_level, text, bool(self.pre)))
        self.buf = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in _SKIP:
            self.skip += 1
        elif tag == "title":
            self.in_title = True
        elif re.fullmatch(r"h[1-6]", tag):
            self._flush()
            self.heading_level = int(tag[1])
        elif tag in _BLOCK:
            self._flush()
            if tag == "pre":
                self.pre += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag == "title":
            self.in_title = False
        elif re.fullmatch(r"h[1-6]", tag):
            self._flush()
            self.heading_level = 0
        elif tag in _BLOCK:
            self._flush()
            if tag == "pre":
                self.pre = max(0, self.pre - 1)

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title += data
        elif not self.skip:
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
