"""Ingest service: read sources, chunk, embed (cached), write to the store, incrementally.

- An unchanged file (same content hash, all its chunks present) is skipped.
- A changed file's new chunks are written first, then its stale chunks are removed, so a
  crash or Ctrl-C in between leaves the old or the new version findable, never nothing;
  a half-written file is detected on the next run (chunk count or mixed hashes) and redone.
- Files deleted from a folder that is being ingested are pruned (``prune=False`` keeps them).
- A bad file is reported with its fix and the other files go on.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

from .chunking import chunk_document, index_text
from .embeddings import Embedder
from .errors import InputError, KbError
from .readers import DEFAULT_MAX_MB, EXTENSIONS, Document, read_document
from .records import Chunk
from .store import ChromaStore


@dataclass
class FileResult:
    source: str
    status: str  # added | updated | unchanged | removed | failed
    kind: str = ""
    chunks: int = 0
    message: str = ""
    hint: str = ""

    def to_json(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v not in ("", None)}


@dataclass
class IngestReport:
    files: list[FileResult] = field(default_factory=list)
    embedded: int = 0  # chunks that went through the model (cache misses)
    cached: int = 0  # chunks whose vectors came from the cache
    interrupted: bool = False

    @property
    def failed(self) -> list[FileResult]:
        return [f for f in self.files if f.status == "failed"]

    def count(self, status: str) -> int:
        return sum(1 for f in self.files if f.status == status)

    def to_json(self) -> dict:
        return {
            "files": [f.to_json() for f in self.files],
            "summary": {s: self.count(s) for s in ("added", "updated", "unchanged", "removed", "failed")},
            "chunks_embedded": self.embedded,
            "chunks_from_cache": self.cached,
            "interrupted": self.interrupted,
        }


class Progress:
    """What ingest tells a caller while it works; the CLI renders it as a rich progress bar."""

    def start(self, total_files: int) -> None: ...
    def file_done(self, result: FileResult) -> None: ...


def source_key(path: Path, base: Path | None = None) -> str:
    """How a file is named in the store: relative to the working directory when inside it."""
    base = base or Path.cwd()
    try:
        return path.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return path.resolve().as_posix()


def discover(paths: Sequence[Path]) -> tuple[list[Path], list[FileResult], list[Path]]:
    """Expand folders into supported files. Returns (files, failures, folders scanned)."""
    files: list[Path] = []
    failures: list[FileResult] = []
    folders: list[Path] = []
    for p in paths:
        if not p.exists():
            failures.append(FileResult(str(p), "failed", message=f"{p}: no such file or folder",
                                       hint="check the path (kb ingest takes files and folders)"))
        elif p.is_dir():
            folders.append(p)
            for f in sorted(p.rglob("*")):
                rel = f.relative_to(p).parts
                if f.is_file() and f.suffix.lower() in EXTENSIONS and not any(x.startswith(".") for x in rel):
                    files.append(f)
        else:
            files.append(p)
    seen: set[Path] = set()
    unique = [f for f in files if not (f.resolve() in seen or seen.add(f.resolve()))]
    return unique, failures, folders


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def ingest(
    paths: Sequence[Path],
    store: ChromaStore,
    embedder: Embedder,
    *,
    prune: bool = True,
    max_mb: float = DEFAULT_MAX_MB,
    progress: Progress | None = None,
    reader: Callable[[Path, float], Document] = read_document,
) -> IngestReport:
    """Bring the store in step with ``paths``. Never raises for a bad file: it is reported."""
    progress = progress or Progress()
    report = IngestReport()
    files, failures, folders = discover(paths)
    report.files.extend(failures)
    progress.start(len(files))
    stamp = _now()
    changed = False
    try:
        for path in files:
            result = _ingest_one(path, store, embedder, max_mb, stamp, report, reader)
            changed |= result.status in ("added", "updated")
            report.files.append(result)
            progress.file_done(result)
        if prune and folders:
            for result in _prune(store, folders, {source_key(f) for f in files}):
                changed = True
                report.files.append(result)
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        if changed:
            store.bump_revision()
    return report


def _ingest_one(path: Path, store: ChromaStore, embedder: Embedder, max_mb: float, stamp: str,
                report: IngestReport, reader: Callable[[Path, float], Document]) -> FileResult:
    key = source_key(path)
    try:
        doc = reader(path, max_mb)
        chunks = chunk_document(doc, key)
    except KbError as e:
        return FileResult(key, "failed", message=e.message, hint=e.hint)
    except Exception as e:  # a reader bug must not stop the other files
        return FileResult(key, "failed", message=f"{path}: cannot read ({type(e).__name__}: {e})",
                          hint="report this with kb --traceback ingest ...")
    state = store.source_state(key)
    if state and state.complete and state.source_hash == doc.source_hash and state.expected == len(chunks):
        return FileResult(key, "unchanged", kind=doc.kind, chunks=len(chunks))
    cache_hits_before = getattr(embedder, "hits", 0)  # CachedEmbedder counts its hits
    vectors, reused = _embed(embedder, store, chunks)
    hits = reused + getattr(embedder, "hits", 0) - cache_hits_before
    report.cached += hits
    report.embedded += len(chunks) - hits
    store.upsert(chunks, vectors, stamp)
    new_ids = {c.id for c in chunks}
    if state:
        store.delete([i for i in state.ids if i not in new_ids])
    note = "; ".join(doc.notes)
    return FileResult(key, "updated" if state else "added", kind=doc.kind, chunks=len(chunks), message=note)


def _embed(embedder: Embedder, store: ChromaStore, chunks: list[Chunk]):
    """Vectors for chunks, reusing those the store already holds for the same chunk id."""
    import numpy as np

    have = store.get_vectors([c.id for c in chunks])
    todo = [c for c in chunks if c.id not in have]
    fresh = embedder.embed_documents([index_text(c) for c in todo]) if todo else np.zeros((0, 1))
    by_id = dict(have)
    by_id.update({c.id: fresh[i] for i, c in enumerate(todo)})
    return np.stack([by_id[c.id] for c in chunks]).astype(np.float32), len(have)


def _prune(store: ChromaStore, folders: Iterable[Path], present: set[str]) -> list[FileResult]:
    """Remove sources that lived under an ingested folder and are gone from disk."""
    roots = [source_key(f) for f in folders]
    gone: dict[str, list[str]] = {}
    for id_, meta in store.all_metadata():
        src = meta["source"]
        if src in present:
            continue
        under = any(r in (".", "") or src == r or src.startswith(r.rstrip("/") + "/") for r in roots)
        if under and not Path(src).exists():
            gone.setdefault(src, []).append(id_)
    results = []
    for src, ids in sorted(gone.items()):
        store.delete(ids)
        results.append(FileResult(src, "removed", chunks=len(ids), message="file no longer exists"))
    return results

