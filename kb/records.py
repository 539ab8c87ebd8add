"""Frozen records with content-hash ids. Stdlib only."""

from __future__ import annotations

import hashlib
import os
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Sequence

# a question's types and difficulties (kb.quiz and its file models in kb.quiz_schema both name them)
TYPES = ("short", "mcq", "cloze", "tf")
DIFFICULTIES = ("easy", "medium", "hard")


def content_hash(*parts: str, n: int = 16) -> str:
    """A short, stable hex id for the given parts (sha256, first ``n`` hex digits)."""
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8"))
        h.update(b"\x1f")  # unit separator: ("ab","c") and ("a","bc") differ
    return h.hexdigest()[:n]


def display_source(source: str, cwd: str | None = None, root: str | None = None) -> str:
    """How a stored source name is shown: relative to the working directory when inside it,
    absolute otherwise. ``root`` is the folder the store names sources relative to (the one
    holding the workspace); a relative name is taken from it."""
    path = source
    if not source.startswith("/") and root:
        path = os.path.normpath(os.path.join(root, source))
    if not path.startswith("/"):
        return source
    base = (cwd or os.getcwd()).rstrip("/") + "/"
    return path[len(base):] if path.startswith(base) else path


def source_matcher(wanted: Sequence[str], cwd: str | None = None, root: str | None = None) -> Callable[[str], bool]:
    """A test of whether a source, named as :func:`display_source` shows it, is one of the ``wanted``
    paths a person typed (``--source``). Paths are compared whole, after resolving them (``..``,
    ``./``, symbolic links, ``~``): each against the working directory ``cwd`` and, when relative,
    against ``root`` (the folder holding the workspace) too. Never by file name alone: a mistyped
    ``../x.pdf`` must not pick another ``x.pdf``."""
    base = cwd or os.getcwd()
    targets: set[str] = set()
    for w in wanted:
        w = os.path.expanduser(w.replace("\\", "/"))
        targets.add(os.path.realpath(os.path.join(base, w)))
        if root and not os.path.isabs(w):
            targets.add(os.path.realpath(os.path.join(root, w)))

    def match(source: str) -> bool:
        """True when ``source`` is one of the wanted paths."""
        return os.path.normpath(os.path.join(base, source)) in targets

    return match


@dataclass(frozen=True)
class Locator:
    """Where in a source a passage is: a PDF page, a heading path, or a time span."""

    page: int | None = None
    heading: str | None = None  # "Chapter > Section > Subsection"
    start: str | None = None  # transcript timestamps, "HH:MM:SS"
    end: str | None = None
    segment: str | None = None  # transcript segment / cue id when the source has one

    def describe(self) -> str:
        """Human-readable locator: ``p. 12 · Título``, ``00:36:35–00:39:00``, ``Cap > Sec``."""
        parts: list[str] = []
        if self.page is not None:
            parts.append(f"p. {self.page}")
        if self.start:
            parts.append(f"{self.start}–{self.end}" if self.end else self.start)
        if self.segment:
            parts.append(f"segment {self.segment}")
        if self.heading:
            parts.append(self.heading)
        return " · ".join(parts)

    def to_metadata(self) -> dict[str, Any]:
        """The locator's set fields as flat Chroma metadata, each key prefixed ``loc_``."""
        return {f"loc_{k}": v for k, v in asdict(self).items() if v is not None}

    @classmethod
    def from_metadata(cls, meta: dict[str, Any]) -> Locator:
        """The locator stored by :meth:`to_metadata` (other keys of ``meta`` are ignored)."""
        return cls(**{k[4:]: v for k, v in meta.items() if k.startswith("loc_")})


@dataclass(frozen=True)
class Block:
    """A piece of a source as its reader found it, before chunking."""

    text: str
    locator: Locator
    is_code: bool = False
    # phrases its author set in bold (Markdown ``**…**``): what the author marked as the point
    emphasis: tuple[str, ...] = ()


@dataclass(frozen=True)
class Chunk:
    """One retrievable passage of a source."""

    source: str  # at ingest: the store's name for the file (see ChromaStore.key_for); read back: as shown
    kind: str  # pdf | markdown | text | transcript | html
    text: str
    locator: Locator
    lang: str
    ordinal: int  # position of the chunk inside its source
    source_hash: str  # content hash of the whole source file
    n_in_source: int  # how many chunks the source produced (to detect half-written sources)
    is_code: bool = False
    id: str = field(default="")
    # the phrases of its text its author set in bold (see Block.emphasis); not part of its id
    emphasis: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(
                self, "id", content_hash(self.source, str(self.ordinal), self.text)
            )

    def citation(self) -> str:
        """``source · locator`` as shown under a hit or an answer (the source alone when it has no locator)."""
        loc = self.locator.describe()
        return f"{self.source} · {loc}" if loc else self.source

    def to_metadata(self, ingested_at: str) -> dict[str, Any]:
        """The chunk's Chroma metadata (source, kind, lang, position, hashes, locator), stamped ``ingested_at``."""
        meta: dict[str, Any] = {
            "source": self.source,
            "kind": self.kind,
            "lang": self.lang,
            "ordinal": self.ordinal,
            "source_hash": self.source_hash,
            "n_in_source": self.n_in_source,
            "is_code": self.is_code,
            "ingested_at": ingested_at,
        }
        if self.emphasis:  # Chroma metadata holds no lists: one phrase a line
            meta["emphasis"] = "\n".join(self.emphasis)
        meta.update(self.locator.to_metadata())
        return meta

    @classmethod
    def from_store(cls, id: str, text: str, meta: dict[str, Any], cwd: str | None = None,
                   root: str | None = None) -> Chunk:
        """The chunk a store row holds, its source name shown relative to ``cwd`` (see :func:`display_source`)."""
        return cls(
            id=id,
            source=display_source(meta["source"], cwd, root),
            kind=meta["kind"],
            text=text,
            locator=Locator.from_metadata(meta),
            lang=meta.get("lang", "?"),
            ordinal=int(meta.get("ordinal", 0)),
            source_hash=meta.get("source_hash", ""),
            n_in_source=int(meta.get("n_in_source", 0)),
            is_code=bool(meta.get("is_code", False)),
            emphasis=tuple(p for p in str(meta.get("emphasis") or "").split("\n") if p),
        )

    def to_json(self) -> dict[str, Any]:
        """The chunk as ``--json`` output prints it: id, source, locator, citation, language and text."""
        return {
            "id": self.id,
            "source": self.source,
            "kind": self.kind,
            "locator": {k: v for k, v in asdict(self.locator).items() if v is not None},
            "citation": self.citation(),
            "lang": self.lang,
            "text": self.text,
        }


@dataclass(frozen=True)
class Hit:
    """A chunk returned by a search, with its fused score and rank (1-based)."""

    chunk: Chunk
    score: float
    rank: int

    def to_json(self) -> dict[str, Any]:
        """The chunk's JSON (see :meth:`Chunk.to_json`) with the hit's rank and score (6 decimals)."""
        d = self.chunk.to_json()
        d.update({"rank": self.rank, "score": round(self.score, 6)})
        return d
