"""Readers turn one source file into :class:`~kb.records.Block` s with locators.

Each reader knows one shape of course material: PDF slides and books (PDFium; pypdf as fallback), Markdown
and plain text (headings or slide titles kept as a heading path), transcripts (WebVTT,
SRT and the Markdown segment format with ``*Início:*``/``*Fim:*`` timestamps) and saved
web pages (readable text only). Bad files raise :class:`~kb.errors.InputError` naming
the file and the fix; the caller decides whether to go on with the other files.

This package's ``__init__`` holds the entry points (:func:`read_document`, :class:`Document`,
:data:`EXTENSIONS`) and picks a reader; each reader lives in its own module (``pdf``, ``slides``
for slide text and plain text, ``markdown``, ``transcripts``, ``html``) and never imports this one.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..config import DEFAULT_MAX_MB
from ..errors import InputError
from ..i18n import Message
from ..records import Block
from .html import read_html
from .markdown import read_markdown
from .pdf import PdfPage, pdf_pages, read_pdf_bytes
from .slides import looks_like_code, read_plain, split_slide
from .transcripts import _SEGMENT_START, _SRT_TIME, read_cues, read_segments

__all__ = [
    "DEFAULT_MAX_MB",
    "EXTENSIONS",
    "Document",
    "PdfPage",
    "bytes_hash",
    "decode_text",
    "file_hash",
    "looks_like_code",
    "pdf_pages",
    "read_cues",
    "read_document",
    "read_html",
    "read_markdown",
    "read_pdf_bytes",
    "read_plain",
    "read_segments",
    "read_text_source",
    "split_slide",
]

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
        raise InputError("{path}: unsupported file type '{ext}'", "kb reads {extensions}; convert it or leave it out",
                         path=path, ext=ext or "(none)", extensions=", ".join(sorted(EXTENSIONS)))
    try:
        size = path.stat().st_size
    except OSError as e:
        raise InputError("{path}: cannot read ({error})",
                         "check the path and its permissions",
                         path=path, error=e.strerror) from e
    if size == 0:
        raise InputError("{path}: file is empty",
                         "add content or remove the file",
                         path=path)
    if size > max_mb * 1024 * 1024:
        raise InputError("{path}: file is {size_mb:.1f} MB, over the {max_mb:g} MB limit",
                         "split it into smaller files or raise the limit with --max-mb {enough}",
                         path=path, size_mb=size / 1024 / 1024, max_mb=max_mb, enough=int(size / 1024 / 1024) + 1)
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
        raise InputError("{path}: no readable text found",
                         "for a scanned PDF run OCR first (e.g. ocrmypdf); otherwise check the file",
                         path=path)
    return Document(path=path, kind=kind, blocks=blocks, source_hash=source_hash, notes=notes)


def decode_text(data: bytes, path: Path, notes: list[str]) -> str:
    """UTF-8 (with or without BOM), else Windows-1252/Latin-1 with a note. NUL bytes mean binary."""
    if b"\x00" in data[:8192]:
        raise InputError("{path}: looks like a binary file, not text",
                         "export it as UTF-8 text or remove it",
                         path=path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
    try:
        text = data.decode("cp1252")
        notes.append(Message("not UTF-8 (from line {line}); read as Windows-1252/Latin-1 — check accents, save as "
                             "UTF-8", line=line))
    except UnicodeDecodeError:
        text = data.decode("latin-1")
        notes.append(Message("not UTF-8 (from line {line}); read as Latin-1 — check accents, save as UTF-8",
                             line=line))
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
