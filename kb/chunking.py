"""Chunking: pack a document's blocks into passages of about ``target`` characters.

Rules, in order of priority:
- a chunk never spans two pages, two headings or two transcript segments (its citation
  must stay exact); consecutive subtitle cues are merged and keep the first start and
  the last end time;
- code stays in chunks of its own (flagged ``is_code``; generation skips them);
- a block longer than ``max_chars`` is split at sentence boundaries, then at words;
- a block that repeats an earlier block of the same source is dropped (repeated slides).
"""

from __future__ import annotations

import re
from dataclasses import replace

from .config import CHUNK_MAX_CHARS, CHUNK_OVERLAP_CHARS, CHUNK_TARGET_CHARS
from .readers import Document
from .records import Block, Chunk, Locator
from .text import detect_language, fold, language_of, language_scores, sentences

# Hand-set with the first chunker (a33589a; no measurement recorded): blocks this short (titles,
# "Ejemplo:") may repeat and are kept; a chunk this short takes its document's language, as
# detection on a few words is unreliable.
_MIN_REPEAT_CHARS = 30
_MIN_LANG_CHARS = 200
_LANG_SAMPLE_BLOCKS = 200  # a document's language is detected on its first blocks; set by hand, not measured
# A heading part that appears within the chunk's first len(part) + _HEADING_IN_TEXT_SLACK characters
# is not repeated above it in the indexed text; set by hand, not measured.
_HEADING_IN_TEXT_SLACK = 40


def _group_key(b: Block) -> tuple:
    loc = b.locator
    if loc.start and loc.segment is None:
        return ("cue",)  # subtitle cues: consecutive ones merge
    return (loc.page, loc.heading, loc.segment, b.is_code)


def _split_long(text: str, max_chars: int, target: int) -> list[str]:
    if len(text) <= max_chars:
        return [text]
    pieces: list[str] = []
    buf = ""
    units = sentences(text)
    if len(units) <= 1:
        units = text.split()
    for u in units:
        while len(u) > max_chars:  # one giant "word" or sentence
            cut = u.rfind(" ", 0, target)
            cut = cut if cut > 0 else target
            if buf:
                pieces.append(buf)
                buf = ""
            pieces.append(u[:cut].strip())
            u = u[cut:].strip()
        if buf and len(buf) + 1 + len(u) > target:
            pieces.append(buf)
            buf = u
        else:
            buf = f"{buf} {u}".strip()
    if buf:
        pieces.append(buf)
    return pieces


def _merge_locators(a: Locator, b: Locator) -> Locator:
    return replace(a, end=b.end or a.end, segment=a.segment if a.segment == b.segment else None)


def _split_code(text: str, max_chars: int) -> list[str]:
    """Code longer than ``max_chars`` is cut between lines, never inside one."""
    if len(text) <= max_chars:
        return [text]
    pieces: list[str] = []
    buf: list[str] = []
    size = 0
    for line in text.split("\n"):
        if buf and size + len(line) + 1 > max_chars:
            pieces.append("\n".join(buf).strip("\n"))
            buf, size = [], 0
        buf.append(line)
        size += len(line) + 1
    if buf and "\n".join(buf).strip():
        pieces.append("\n".join(buf).strip("\n"))
    return [p for p in pieces if p.strip()]


# a line that opens a bullet or a numbered item; any other line may continue the one above it
_MARKER = re.compile(r"^\s*(?:[•◦▪●○■□➢➤►▶‣⁃·]|[-*–](?=\s)|\d{1,2}[.)](?=\s))")


def _logical_lines(text: str) -> list[str]:
    """The text's lines with a wrapped bullet's continuation lines kept under it (joined by
    "\n", as the page shows them): a line continues the one above when it opens no bullet and
    starts in lower case or a bracket, or when the line above stops mid-phrase (a comma, an
    opening bracket, "="). A window that starts on "clamp(round(x / scale) + zero_point)" has
    lost the bullet it ends."""
    out: list[str] = []
    for line in text.split("\n"):
        if not line.strip():
            continue
        s = line.strip()
        prev = out[-1].rstrip() if out else ""
        cont = bool(prev) and not _MARKER.match(line) and (
            s[0].islower() or s[0] in "([{" or prev.endswith((",", "(", "[", "{", "="))
            or prev.count("(") > prev.count(")"))
        if cont:
            out[-1] = f"{out[-1]}\n{line}"
        else:
            out.append(line)
    return out


def _windows(text: str, target: int, max_chars: int, overlap: int) -> list[str]:
    """Overlapping windows of whole units (a slide's bullets, a paragraph's sentences):
    each window holds units up to ``target`` characters and repeats up to ``overlap``
    characters of whole units from the end of the window before it, so a question about
    two neighbouring bullets finds one passage that holds both."""
    if len(text) <= target:
        return [text]
    units: list[str] = []
    for line in _logical_lines(text):
        units.extend(_split_long(line, max_chars, target) if len(line) > target else [line])
        if len(units) == 1 and len(units[0]) > target:
            units = _split_long(units[0], max_chars, target)
    if len(units) == 1:
        return _split_long(text, max_chars, target)
    out: list[str] = []
    start = 0
    while start < len(units):
        end, size = start, 0
        while end < len(units) and (end == start or size + 1 + len(units[end]) <= target):
            size += len(units[end]) + 1
            end += 1
        out.append("\n".join(units[start:end]))
        if end >= len(units):
            break
        back, kept = end, 0  # step back over whole units worth at most `overlap` characters
        while back - 1 > start and kept + len(units[back - 1]) <= overlap:
            back -= 1
            kept += len(units[back])
        start = back
    return out


# how much more evidence a passage needs for another language than its document's: one slide of a
# Portuguese deck ("Lookback L: quantos passos … (x, y) …") was read as Spanish on three "y"
# variables against one "uma", and its question was asked in Spanish
_LANG_SWITCH_MARGIN = 3


def _passage_language(text: str, doc_lang: str) -> str:
    """A passage's language: its document's, unless the passage clearly says another."""
    if len(text) <= _MIN_LANG_CHARS:
        return doc_lang
    scores = language_scores(text)  # once: detect_language() would score the text again
    best = language_of(scores, default=doc_lang)
    return best if best == doc_lang or scores[best] - scores.get(doc_lang, 0) >= _LANG_SWITCH_MARGIN else doc_lang


def chunk_document(
    doc: Document,
    source: str,
    target: int = CHUNK_TARGET_CHARS,
    max_chars: int = CHUNK_MAX_CHARS,
    overlap: int = CHUNK_OVERLAP_CHARS,
) -> list[Chunk]:
    """Turn a read document into chunks with locators, language and content-hash ids.

    Blocks under one heading of one page (or one transcript segment) are packed together;
    when they are longer than ``target`` they become overlapping windows of whole lines
    and sentences (see :func:`_windows`). Subtitle cues are packed without overlap so that
    each chunk's time span stays exact."""
    doc_lang = detect_language(" ".join(b.text for b in doc.blocks[:_LANG_SAMPLE_BLOCKS]))
    seen: set[str] = set()
    groups: list[tuple[str, Locator, bool, tuple, list[Block]]] = []
    cur_key: tuple | None = None
    cur_text = ""
    cur_loc: Locator | None = None
    cur_code = False
    cur_blocks: list[Block] = []  # the blocks of the open group whose author set phrases in bold

    def flush() -> None:
        """Close the group being packed (when it holds text) and start an empty one."""
        nonlocal cur_text, cur_loc, cur_blocks
        if cur_text.strip() and cur_loc is not None:
            groups.append((cur_text.strip(), cur_loc, cur_code, cur_key or (), cur_blocks))
        cur_text, cur_loc, cur_blocks = "", None, []

    for b in doc.blocks:
        text = b.text.strip()
        if not text:
            continue
        norm = re.sub(r"\s+", " ", fold(text))
        if len(norm) > _MIN_REPEAT_CHARS and norm in seen:
            continue  # a longer block repeated verbatim is kept once
        seen.add(norm)
        key = _group_key(b)
        cue = key == ("cue",)
        fits = len(cur_text) + 1 + len(text) <= target
        if key != cur_key or (cue and not fits):
            flush()
            cur_key, cur_loc, cur_code, cur_text = key, b.locator, b.is_code, text
        else:
            cur_text = f"{cur_text}\n{text}"
            cur_loc = _merge_locators(cur_loc, b.locator) if cur_loc else b.locator
        if b.emphasis:
            cur_blocks.append(b)
    flush()

    packed: list[tuple[str, Locator, bool, tuple[str, ...]]] = []
    for text, loc, is_code, key, bold in groups:
        if is_code:
            pieces = _split_code(text, max_chars)
        elif key == ("cue",):
            pieces = _split_long(text, max_chars, target)
        else:
            pieces = _windows(text, target, max_chars, overlap)
        packed.extend((p, loc, is_code, _emphasis_in(p, bold)) for p in pieces)

    n = len(packed)
    chunks = []
    for i, (text, loc, is_code, emph) in enumerate(packed):
        lang = _passage_language(text, doc_lang)
        chunks.append(
            Chunk(
                source=source,
                kind=doc.kind,
                text=text,
                locator=loc,
                lang=lang,
                ordinal=i,
                source_hash=doc.source_hash,
                n_in_source=n,
                is_code=is_code,
                emphasis=emph,
            )
        )
    return chunks


def _emphasis_in(piece: str, blocks: list[Block]) -> tuple[str, ...]:
    """The bold phrases this piece holds whole (spacing ignored), once each: a block's phrases count
    only in the pieces that hold a line of that block (a word bold in one answer is not the point
    of the next one that uses it)."""
    lines = {" ".join(ln.split()) for ln in piece.split("\n") if ln.strip()}
    flat = " ".join(piece.split())
    out: list[str] = []
    for b in blocks:
        if lines & {" ".join(ln.split()) for ln in b.text.split("\n")}:
            out += [p for p in b.emphasis if " ".join(p.split()) in flat]
    return tuple(dict.fromkeys(out))


def index_text(chunk: Chunk) -> str:
    """The text that is embedded and indexed: the chunk under its heading path, so a bullet
    under "Guardar y cargar modelos en GPU" is found by a question about that section."""
    head = chunk.locator.heading
    if head:
        path = " > ".join(p for p in head.split(" > ")
                          if fold(p) not in fold(chunk.text[: len(p) + _HEADING_IN_TEXT_SLACK]))
        if path:
            return f"{path}\n{chunk.text}"
    return chunk.text
