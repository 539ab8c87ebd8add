"""Transcripts: WebVTT and SRT cues, and the Markdown segment format with ``*Início:*``/``*Fim:*``
timestamps."""

from __future__ import annotations

import html
import re
from pathlib import Path

from ..errors import InputError
from ..records import Block, Locator

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
        raise InputError("{path}: no timed cues found",
                         "check that it is a WebVTT/SRT file ('00:00:01.000 --> 00:00:04.000')",
                         path=path)
    return blocks
