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

from .config import CHUNK_MAX_CHARS, CHUNK_TARGET_CHARS
from .readers import Document
from .records import Block, Chunk, Locator
from .text import detect_language, fold, sentences


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


def chunk_document(
    doc: Document,
    source: str,
    target: int = CHUNK_TARGET_CHARS,
    max_chars: int = CHUNK_MAX_CHARS,
) -> list[Chunk]:
    """Turn a read document into chunks with locators, language and content-hash ids."""
    doc_lang = detect_language(" ".join(b.text for b in doc.blocks[:200]))
    seen: set[str] = set()
    packed: list[tuple[str, Locator, bool]] = []
    cur_key: tuple | None = None
    cur_text = ""
    cur_loc: Locator | None = None
    cur_code = False

    def flush() -> None:
        nonlocal cur_text, cur_loc
        if cur_text.strip() and cur_loc is not None:
            for piece in _split_long(cur_text.strip(), max_chars, target):
                packed.append((piece, cur_loc, cur_code))
        cur_text, cur_loc = "", None

    for b in doc.blocks:
        text = b.text.strip()
        if not text:
            continue
        norm = re.sub(r"\s+", " ", fold(text))
        if len(norm) > 30 and norm in seen:
            continue
        seen.add(norm)
        key = _group_key(b)
        fits = len(cur_text) + 1 + len(text) <= target
        if key != cur_key or not fits:
            flush()
            cur_key, cur_loc, cur_code, cur_text = key, b.locator, b.is_code, text
        else:
            cur_text = f"{cur_text}\n{text}"
            cur_loc = _merge_locators(cur_loc, b.locator) if cur_loc else b.locator
    flush()

    n = len(packed)
    chunks = []
    for i, (text, loc, is_code) in enumerate(packed):
        lang = detect_language(text, default=doc_lang) if len(text) > 200 else doc_lang
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
            )
        )
    return chunks


def index_text(chunk: Chunk) -> str:
    """The text that is embedded and indexed: the chunk plus its nearest heading, so a
    bullet under "Dependências de Controle" is found by a question about that heading."""
    head = chunk.locator.heading
    if head:
        leaf = head.split(" > ")[-1]
        if fold(leaf) not in fold(chunk.text[: len(leaf) + 40]):
            return f"{leaf}\n{chunk.text}"
    return chunk.text
