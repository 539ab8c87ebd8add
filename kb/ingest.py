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
import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from .chunking import chunk_document, index_text
from .embeddings import Embedder
from .errors import KbError
from .readers import DEFAULT_MAX_MB, EXTENSIONS, Document, file_hash, read_document
from .records import Chunk
from .store import ChromaStore, SourceState


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
    """Bring the store in step with ``paths``. Never raises for a bad file: it is reported.

    Three stages overlap: files are read in a worker process (PDF layout extraction is the
    slow part), the main process embeds, and a writer thread stores the previous file.
    """
    progress = progress or Progress()
    report = IngestReport()
    files, failures, folders = discover(paths)
    report.files.extend(failures)
    progress.start(len(files))
    stamp = _now()
    changed = False
    todo: list[tuple[Path, str, SourceState | None]] = []
    for path in files:  # unchanged files are recognised by their bytes' hash, without parsing
        key = source_key(path)
        state = store.source_state(key)
        if state and state.complete and state.source_hash == file_hash(path):
            result = FileResult(key, "unchanged", kind=state.kind, chunks=len(state.ids))
            report.files.append(result)
            progress.file_done(result)
        else:
            todo.append((path, key, state))
    try:
        with _reading(todo, max_mb, reader) as docs, ThreadPoolExecutor(1, thread_name_prefix="kb-write") as writer:
            pending: Future | None = None
            for (path, key, state), (doc, chunks, failure) in zip(todo, docs):
                if failure:
                    result = failure
                else:
                    assert doc is not None
                    vectors = _embed(embedder, store, chunks, report)
                    if pending:
                        pending.result()  # one write in flight, in file order
                    pending = writer.submit(_write, store, chunks, vectors, state, stamp)
                    changed = True
                    result = FileResult(key, "updated" if state else "added", kind=doc.kind, chunks=len(chunks),
                                        message="; ".join(doc.notes))
                report.files.append(result)
                progress.file_done(result)
            if pending:
                pending.result()
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


def _write(store: ChromaStore, chunks: list[Chunk], vectors, state: SourceState | None, stamp: str) -> None:
    """New chunks first, then the stale ones go: a crash in between leaves a findable file."""
    store.upsert(chunks, vectors, stamp)
    if state:
        new_ids = {c.id for c in chunks}
        store.delete([i for i in state.ids if i not in new_ids])


def read_and_chunk(path: Path, key: str, max_mb: float,
                   reader: Callable[[Path, float], Document] = read_document):
    """(document, chunks, None) or (None, [], failed FileResult). Runs in a worker process."""
    try:
        doc = reader(path, max_mb)
        return doc, chunk_document(doc, key), None
    except KbError as e:
        return None, [], FileResult(key, "failed", message=e.message, hint=e.hint)
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as e:  # a reader bug must not stop the other files
        return None, [], FileResult(key, "failed", message=f"{path}: cannot read ({type(e).__name__}: {e})",
                                    hint="report this with kb --traceback ingest ...")


@contextmanager
def _reading(todo: list, max_mb: float, reader: Callable[[Path, float], Document]) -> Iterator[Iterator]:
    """Yield read results in order; with 2+ files to read, a PDF among them and 2+ cores,
    read ahead in a worker process while the caller embeds."""
    use_pool = (
        reader is read_document
        and len(todo) >= 2
        and (os.cpu_count() or 1) > 1
        and any(p.suffix.lower() == ".pdf" for p, _, _ in todo)
    )
    if not use_pool:
        yield (read_and_chunk(p, k, max_mb, reader) for p, k, _ in todo)
        return
    # spawn, not fork: the parent holds Chroma's native threads
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(read_and_chunk, p, k, max_mb) for p, k, _ in todo]
        try:
            yield (f.result() for f in futures)
        finally:
            for f in futures:
                f.cancel()


def _embed(embedder: Embedder, store: ChromaStore, chunks: list[Chunk], report: IngestReport):
    """Vectors for chunks, reusing those the store already holds for the same chunk id and
    those in the embedder's cache; counts what went through the model."""
    import numpy as np

    have = store.get_vectors([c.id for c in chunks])
    todo = [c for c in chunks if c.id not in have]
    hits_before = getattr(embedder, "hits", 0)  # CachedEmbedder counts its hits
    fresh = embedder.embed_documents([index_text(c) for c in todo]) if todo else np.zeros((0, 1))
    hits = len(have) + getattr(embedder, "hits", 0) - hits_before
    report.cached += hits
    report.embedded += len(chunks) - hits
    by_id = dict(have)
    by_id.update({c.id: fresh[i] for i, c in enumerate(todo)})
    return np.stack([by_id[c.id] for c in chunks]).astype(np.float32)


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

