"""Ingest service: read sources, chunk, embed (cached), write to the store, incrementally.

- An unchanged file (same content hash, all its chunks present) is skipped.
- A changed file's new chunks are written first, then its stale chunks are removed, so a
  crash or Ctrl-C in between leaves the old or the new version findable, never nothing;
  a half-written file is detected on the next run (chunk count or mixed hashes) and redone.
- A source is its resolved absolute path (shown relative to the working directory when
  inside it), so the same folder given from anywhere is the same course. Names stored by an
  older kb (relative to wherever it ran) are matched by path suffix and migrated, never
  duplicated, and never pruned.
- Files deleted from a folder given on *this* command line are pruned (``prune=False`` keeps
  them); a folder that yields no files at all (empty, unmounted) is never pruned unless
  ``prune_empty`` — it is reported as a failure instead.
- A bad file or unreadable path is reported with its fix and the other files go on.
- :func:`rebuild` fills a new collection beside the current one and swaps it in only when
  complete; a failed or interrupted rebuild leaves the current store as it was.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Sequence

from .chunking import chunk_document, index_text
from .config import CHUNKING_VERSION
from .embeddings import Embedder
from .errors import InputError, KbError
from .i18n import N_, Message
from .readers import DEFAULT_MAX_MB, EXTENSIONS, Document, file_hash, read_document
from .records import Chunk
from .store import ChromaStore, SourceState


@dataclass
class FileResult:
    """What ingest did with one path: its status, kind and chunk count, and for a failure the message and fix."""
    source: str
    status: str  # added | updated | unchanged | removed | failed
    kind: str = ""
    chunks: int = 0
    message: str = ""
    hint: str = ""

    error: KbError | None = field(default=None, compare=False, repr=False)  # a failure's, for its translation

    def to_json(self) -> dict:
        """The result as a JSON object, empty fields left out (a failure's message and hint in English)."""
        return {k: v for k, v in self.__dict__.items() if v not in ("", None) and k != "error"}


def _failed(source: str, error: KbError) -> FileResult:
    """A failed file: ``error``'s message and hint (English, for --json) and the error, which the
    terminal shows in the interface language."""
    return FileResult(source, "failed", message=error.message, hint=error.hint, error=error)


@dataclass
class IngestReport:
    """Everything one ``kb ingest`` did: a result per path, chunks embedded or reused, and how a rebuild
    or an interruption ended."""
    files: list[FileResult] = field(default_factory=list)
    embedded: int = 0  # chunks that went through the model (cache misses)
    cached: int = 0  # chunks whose vectors came from the cache
    interrupted: bool = False
    carried: int = 0  # rebuild: chunks of other sources carried over into the new collection
    rebuild: str = ""  # "" (not a rebuild) | "applied" | "not applied: <why>"

    @property
    def failed(self) -> list[FileResult]:
        """The paths that failed; non-empty means a partial failure (exit 1)."""
        return [f for f in self.files if f.status == "failed"]

    def count(self, status: str) -> int:
        """How many paths ended with ``status`` (added, updated, unchanged, removed or failed)."""
        return sum(1 for f in self.files if f.status == status)

    def to_json(self) -> dict:
        """The report as ``kb ingest --json`` prints it: per-file results, counts by status, chunk counts."""
        return {
            "files": [f.to_json() for f in self.files],
            "summary": {s: self.count(s) for s in ("added", "updated", "unchanged", "removed", "failed")},
            "chunks_embedded": self.embedded,
            "chunks_from_cache": self.cached,
            "interrupted": self.interrupted,
            **({"rebuild": self.rebuild, "chunks_carried": self.carried} if self.rebuild else {}),
        }


class Progress:
    """What ingest tells a caller while it works; the CLI renders it as a rich progress bar."""

    def start(self, total_files: int) -> None:
        """Ingest is about to handle ``total_files`` files (after discovery)."""

    def file_done(self, result: FileResult) -> None:
        """One file is done, whatever its status."""

    def embedding(self, source: str, done: int, total: int) -> None:
        """Within one big file (thousands of chunks): how many are embedded so far."""


def source_key(path: Path, store: ChromaStore | None = None) -> str:
    """A source's identity: its resolved absolute path (symlinks followed), as the store names
    it (:meth:`ChromaStore.key_for`: relative to the folder holding the workspace when inside it)."""
    return store.key_for(path) if store is not None else path.resolve().as_posix()


def _hidden(name: str) -> bool:
    return name.startswith(".")


def discover(paths: Sequence[Path]) -> tuple[list[Path], list[FileResult], list[Path]]:
    """Expand folders into supported files. Returns (files, failures, folders scanned).

    An unreadable path or sub-folder is a failure for itself only; symlinked folders are
    followed once (a symlink loop is not walked twice)."""
    files: list[Path] = []
    failures: list[FileResult] = []
    folders: list[Path] = []
    for p in paths:
        try:
            if not p.exists() and not p.is_symlink():
                failures.append(_failed(str(p), InputError("{path}: no such file or folder",
                                                           "check the path (kb ingest takes files and folders)",
                                                           path=p)))
            elif not p.exists():
                failures.append(_failed(str(p), InputError(
                    "{path}: a broken symbolic link (or a link loop)",
                    "point the link at the course folder, or give the folder itself", path=p)))
            elif p.is_dir():
                folders.append(p)
                files.extend(_walk(p, failures))
            else:
                files.append(p)
        except OSError as e:
            failures.append(_failed(str(p), InputError("{path}: cannot read ({error})",
                                                       "check its permissions (ls -l), or leave it out",
                                                       path=p, error=e.strerror or e)))
    seen: set[str] = set()
    unique = []
    for f in files:
        try:
            key = f.resolve().as_posix()
        except (OSError, RuntimeError) as e:  # RuntimeError: symlink loop on 3.11
            failures.append(_failed(str(f), InputError("{path}: cannot resolve the path ({error})",
                                                       "fix or remove the symbolic link", path=f, error=e)))
            continue
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique, failures, folders


def _walk(root: Path, failures: list[FileResult]) -> list[Path]:
    out: list[Path] = []
    visited: set[tuple[int, int]] = set()

    def onerror(e: OSError) -> None:
        """Record a sub-folder ``os.walk`` cannot read as a failure of its own; the walk goes on."""
        where = e.filename or root
        failures.append(_failed(str(where), InputError(
            "{path}: cannot read the folder ({error})",
            "check its permissions (chmod u+rx), or move it out of the course folder", path=where,
            error=e.strerror or e)))

    for folder, dirs, names in os.walk(root, onerror=onerror, followlinks=True):
        try:
            st = os.stat(folder)
        except OSError:
            dirs[:] = []
            continue
        if (st.st_dev, st.st_ino) in visited:  # a symlink loop, or a folder linked twice
            dirs[:] = []
            continue
        visited.add((st.st_dev, st.st_ino))
        dirs[:] = sorted(d for d in dirs if not _hidden(d))
        for name in sorted(names):
            f = Path(folder) / name
            if not _hidden(name) and f.suffix.lower() in EXTENSIONS:
                try:
                    if f.is_file():
                        out.append(f)
                    elif not f.exists():
                        failures.append(_failed(str(f), InputError("{path}: a broken symbolic link",
                                                                           "fix or remove the link", path=f)))
                except OSError as e:
                    failures.append(_failed(str(f), InputError("{path}: cannot read ({error})",
                                                                   "check its permissions, or leave it out",
                                                                   path=f, error=e.strerror or e)))
    return out


def _under(src: str, root: str) -> bool:
    return src == root or src.startswith(root.rstrip("/") + "/")


def _moved_from(full: str, orphans: dict[str, str], digest: str | None) -> str | None:
    """The stored name this file was known by before it moved: among sources whose file is
    gone, one named by a path suffix of ``full`` (e.g. relative to another folder, as an older
    kb stored them), else the only one with the same bytes (same file name preferred)."""
    cands = [n for n in orphans if n and not n.startswith("/") and full.endswith("/" + n.lstrip("./"))]
    if len(cands) > 1:
        cands = [n for n in cands if orphans[n] == digest]
    if len(cands) == 1:
        return cands[0]
    same = [n for n in orphans if digest and orphans[n] == digest]
    if len(same) > 1:
        same = [n for n in same if n.rsplit("/", 1)[-1] == full.rsplit("/", 1)[-1]]
    return same[0] if len(same) == 1 else None


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def _unchanged_or_todo(files: Sequence[Path], store: ChromaStore, stored: dict[str, str], force: Sequence[str],
                       report: IngestReport, progress: Progress) -> list[tuple[Path, str, SourceState | None, str]]:
    """Report the files whose bytes are unchanged (recognised by hash, without parsing) and return the
    others as (path, key, stored state or None, the name it was stored under if it moved)."""
    keys = {source_key(f, store) for f in files}
    # stored sources whose file is gone: candidates for a file that moved. On a Chroma server
    # (no root) absolute names may be another machine's files: only old relative names qualify.
    orphans = {n: h for n, h in stored.items() if n not in keys and (store.root or not n.startswith("/"))
               and not os.path.lexists(store.absolute(n))}
    todo: list[tuple[Path, str, SourceState | None, str]] = []
    for path in files:  # unchanged files are recognised by their bytes' hash, without parsing
        key = source_key(path, store)
        digest = file_hash(path) if key in stored or orphans else None  # a new file is hashed by its reader
        state = store.source_state(key, raw=True) if key in stored else None
        old_name = ""
        if state is None and orphans:
            old_name = _moved_from(store.absolute(key), orphans, digest) or ""
            if old_name:
                orphans.pop(old_name)
                state = store.source_state(old_name, raw=True)
        if state and not old_name and key not in force and state.complete and state.source_hash == digest:
            result = FileResult(store.display(key), "unchanged", kind=state.kind, chunks=len(state.ids))
            report.files.append(result)
            progress.file_done(result)
        else:
            todo.append((path, key, state, old_name))
    return todo


def _prune_folders(store: ChromaStore, files: Sequence[Path], folders: Sequence[Path], stored: dict[str, str], *,
                   prune: bool, prune_empty: bool) -> Iterator[tuple[FileResult, bool]]:
    """Remove the stored sources of files gone from the given folders (not with ``prune`` False); a
    folder with no files at all keeps its sources unless ``prune_empty``. Yields each result with
    whether it changed the store, as it happens (an interrupt leaves a consistent count)."""
    present = {store.absolute(source_key(f, store)) for f in files}
    for root in folders:
        rkey = root.resolve().as_posix()
        empty = not any(_under(k, rkey) for k in present)
        if empty and not prune_empty:
            held = sorted({s for s in stored if _under(store.absolute(s), rkey)})
            if held:
                what = N_("{path}: no supported files found; its {n} stored source was kept") if len(held) == 1 \
                    else N_("{path}: no supported files found; its {n} stored sources were kept")
            else:
                what = N_("{path}: no supported files found; nothing was stored from it")
            yield _failed(str(root), InputError(
                what, "check that the folder is the course folder and is mounted; to remove its sources from the "
                "knowledge base on purpose, run again with --prune-empty", path=root, n=len(held))), False
            continue
        if prune:
            for result in _prune(store, rkey, present, stored):
                yield result, True


def ingest(
    paths: Sequence[Path],
    store: ChromaStore,
    embedder: Embedder,
    *,
    prune: bool = True,
    prune_empty: bool = False,
    max_mb: float = DEFAULT_MAX_MB,
    progress: Progress | None = None,
    reader: Callable[[Path, float], Document] = read_document,
    force: Sequence[str] = (),
) -> IngestReport:
    """Bring the store in step with ``paths``. Never raises for a bad file: it is reported.

    Files are read, chunked and embedded one after the other in this thread; a writer thread
    stores them, several files to a Chroma write (:data:`_WRITE_CHUNKS`, and what is gathered
    before the last file), while the next ones are embedded. On Ctrl-C what was embedded is
    written before ingest returns.
    ``force``: source keys re-read even when unchanged.
    """
    progress = progress or Progress()
    report = IngestReport()
    files, failures, folders = discover(paths)
    report.files.extend(failures)
    progress.start(len(files))
    stamp = _now()
    changed = False
    stored = store.stored_sources()
    todo = _unchanged_or_todo(files, store, stored, force, report, progress)
    try:
        with ThreadPoolExecutor(1, thread_name_prefix="kb-write") as pool:
            writes = _Writes(store, pool, stamp)
            try:
                for i, (path, key, state, old_name) in enumerate(todo):
                    if i and i == len(todo) - 1:
                        writes.flush()  # written while the last file embeds: only its own write is left after
                    doc, chunks, failure = read_and_chunk(path, key, max_mb, reader)
                    if failure:
                        result = failure
                    else:
                        assert doc is not None
                        vectors = _embed(embedder, store, chunks, report, progress, store.display(key),
                                         stored=state is not None)
                        writes.add(chunks, vectors, state)
                        changed = True
                        notes = list(doc.notes)
                        if old_name:
                            notes.append(Message("was stored as '{old}' (moved, or named by an older kb); renamed",
                                                 old=store.display(old_name)))
                        joined = "; ".join(f"{{n{i}}}" for i in range(len(notes)))  # each note in the language
                        said = Message(joined, **{f"n{i}": note for i, note in enumerate(notes)}) if notes else ""
                        result = FileResult(store.display(key), "updated" if state else "added", kind=doc.kind,
                                            chunks=len(chunks), message=said)
                    report.files.append(result)
                    progress.file_done(result)
            finally:
                writes.close()  # the files embedded so far are stored, on Ctrl-C too
        for result, removed in _prune_folders(store, files, folders, stored, prune=prune, prune_empty=prune_empty):
            changed = changed or removed
            report.files.append(result)
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        if changed:
            store.bump_revision()
    return report


def rebuild(
    paths: Sequence[Path],
    aside: ChromaStore,
    embedder: Embedder,
    *,
    prune: bool = True,
    prune_empty: bool = False,
    max_mb: float = DEFAULT_MAX_MB,
    progress: Progress | None = None,
    reader: Callable[[Path, float], Document] = read_document,
) -> IngestReport:
    """Rebuild the sources under ``paths`` into ``aside`` (a fresh collection beside the
    current one, see :func:`kb.store.open_store`), carry every other source over, and swap
    it in only when nothing failed. Otherwise ``aside`` is dropped and the current store is
    untouched. Other sources keep their vectors when the embedder is the same; with another
    embedder their stored text is embedded again."""
    current = aside.current()
    report = IngestReport()
    if current is not None and current.info.get("chunking") not in (None, CHUNKING_VERSION):
        # another chunker made the stored chunks: carrying them would mix two chunkings, so
        # every stored source still on disk is read again (those gone from disk are carried)
        again = {current.absolute(n) for n in current.stored_sources()}
        paths = [*paths, *(Path(p) for p in sorted(again) if os.path.isfile(p))]
    try:
        files, _, folders = discover(paths)
        fresh = {source_key(f, aside) for f in files}
        roots = [r.resolve().as_posix() for r in folders]
        if current is not None:
            report.carried = _carry(current, aside, embedder, fresh, roots, keep_missing=not prune)
        report = _merge_carried(report, ingest(paths, aside, embedder, prune=prune, prune_empty=prune_empty,
                                               max_mb=max_mb, progress=progress, reader=reader))
    except KeyboardInterrupt:
        report.interrupted = True
    except BaseException:
        aside.discard()
        raise
    why = ("interrupted" if report.interrupted else
           f"{len(report.failed)} path(s) failed" if report.failed else
           "nothing to ingest" if not any(f.status in ("added", "updated") for f in report.files) else "")
    if why:
        aside.discard()
        report.rebuild = f"not applied: {why}"
    else:
        aside.replace()
        report.rebuild = "applied"
    return report


def _merge_carried(first: IngestReport, second: IngestReport) -> IngestReport:
    second.carried = first.carried
    second.interrupted = second.interrupted or first.interrupted
    return second


_CARRY_BATCH = 500  # records per write when carrying sources into a rebuild; set by hand, not measured


def _carry(current: ChromaStore, aside: ChromaStore, embedder: Embedder, fresh: set[str], roots: list[str],
           *, keep_missing: bool) -> int:
    """Copy the chunks of sources not being rebuilt from ``current`` into ``aside``."""
    import numpy as np

    same = current.info.get("embedder") == getattr(embedder, "id", None)
    batch: list = []
    n = 0

    def flush() -> None:
        """Write the batch into ``aside``, re-embedding its text first when the embedder changed
        or the old index lost the vector (the cache skips known passages)."""
        nonlocal batch
        redo = [k for k, r in enumerate(batch) if not same or r[3] is None]
        if redo:
            chunks = [Chunk.from_store(*batch[k][:3]) for k in redo]
            vecs = embedder.embed_documents([index_text(c) for c in chunks])
            for k, v in zip(redo, vecs, strict=True):
                batch[k] = (*batch[k][:3], np.asarray(v, dtype=np.float32))
        aside.add_records(batch)
        batch = []

    for rec in current.all_records():
        src = rec[2]["source"]
        if src in fresh:
            continue
        full = current.absolute(src)
        if any(_under(full, r) for r in roots) and not (keep_missing and not os.path.lexists(full)):
            continue  # under a rebuilt folder: rebuilt from disk (or gone from it)
        batch.append(rec)
        n += 1
        if len(batch) >= _CARRY_BATCH:
            flush()
    if batch:
        flush()
    return n


# Chunks per Chroma write at ingest. Each write costs a commit that Chroma waits on holding the GIL
# (the encoder's tokenizer stops meanwhile): the sample course's 178 chunks took 0.13-0.39 s as one
# write, 0.7-0.8 s as writes of 16 (bench/ingest.py's machine, loaded). One write per file paid it
# for every file; now files are gathered up to this many chunks (the store's own batch size).
_WRITE_CHUNKS = 500


class _Writes:
    """Ingest's writes: files gathered up to :data:`_WRITE_CHUNKS` chunks, each gathering written
    by the writer thread while the caller embeds the next files (one write in flight)."""

    def __init__(self, store: ChromaStore, pool: ThreadPoolExecutor, stamp: str) -> None:
        self.store, self.pool, self.stamp = store, pool, stamp
        self.files: list[tuple[list[Chunk], object, SourceState | None]] = []
        self.n = 0
        self.pending: Future | None = None

    def add(self, chunks: list[Chunk], vectors, state: SourceState | None) -> None:
        """One file's chunks and vectors (and what the store held of it), written with the next write."""
        self.files.append((chunks, vectors, state))
        self.n += len(chunks)
        if self.n >= _WRITE_CHUNKS:
            self.flush()

    def flush(self) -> None:
        """Hand what was gathered to the writer thread, after the write in flight is done."""
        if self.pending is not None:
            self.pending.result()  # raises that write's error; the writes stay in file order
            self.pending = None
        if self.files:
            self.pending = self.pool.submit(_write, self.store, self.files, self.stamp)
            self.files, self.n = [], 0

    def close(self) -> None:
        """Write what is left and wait for it."""
        self.flush()
        if self.pending is not None:
            self.pending.result()
            self.pending = None


def _write(store: ChromaStore, files: list, stamp: str) -> None:
    """The new chunks of every file first (one upsert), then their stale chunks go: a crash in
    between leaves each file findable."""
    import numpy as np

    store.upsert([c for chunks, _, _ in files for c in chunks], np.concatenate([v for _, v, _ in files]), stamp)
    new_ids = {c.id for chunks, _, _ in files for c in chunks}
    stale = [i for _, _, state in files if state for i in state.ids if i not in new_ids]
    if stale:
        store.delete(stale)


def read_and_chunk(path: Path, key: str, max_mb: float,
                   reader: Callable[[Path, float], Document] = read_document):
    """(document, chunks, None) or (None, [], failed FileResult)."""
    try:
        key.encode("utf-8")
    except UnicodeEncodeError:  # a name in another encoding (Latin-1 from an old zip, a Windows share)
        from .text import visible

        shown = visible(key)  # the odd bytes as \xNN: the name can be printed and found
        return None, [], _failed(shown, InputError(
            "{path}: the file name is not UTF-8, and a name kb cannot store",
            "rename the file (e.g. convmv -f latin1 -t utf8 --notest FILE), then run kb ingest again", path=shown))
    try:
        if path.suffix.lower() != ".pdf":
            check_text(path)
        doc = reader(path, max_mb)
        return doc, chunk_document(doc, key), None
    except KbError as e:
        return None, [], _failed(key, e)
    except (KeyboardInterrupt, SystemExit):
        raise
    except OSError as e:  # the file itself (permissions, a disk error), not a bug of kb's
        import errno

        denied = e.errno in (errno.EACCES, errno.EPERM)
        fix = N_("give read permission (chmod u+r '{path}') or move it out of the course folder") if denied else \
            N_("check the file and the disk it is on, then run kb ingest again")
        return None, [], _failed(key, InputError("{path}: cannot read ({error})", fix, path=path,
                                                 error=e.strerror or e))
    except Exception as e:  # a reader bug must not stop the other files
        return None, [], _failed(key, InputError("{path}: cannot read ({kind}: {error})",
                                                 "report this with kb --traceback ingest ...", path=path,
                                                 kind=type(e).__name__, error=e))


_SNIFF = 65536  # bytes looked at to tell text from binary
# A "text" file is refused above these shares of its characters. Set by hand between what text
# and random bytes give (reasoned, not measured on a corpus): text in any language has almost no
# control characters and a legacy 8-bit text a few percent of accented letters; random bytes are
# ~12 % controls and ~50 % high bytes.
_MAX_CONTROL_SHARE = 0.02
_MAX_HIGH_SHARE_8BIT = 0.3  # bytes >= 0x80 when the file is not valid UTF-8
_CONTROL_CHAR = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f]")  # C0 but tab, newline, \v, \f, \r; DEL; C1


def check_text(path: Path) -> None:
    """Refuse a file of a text type (.txt, .md, …) whose bytes are not text, judged by
    character statistics rather than NUL bytes alone: random bytes or a renamed binary
    would otherwise become hundreds of garbage chunks. UTF-16 with a BOM is left to the
    reader (which names the fix)."""
    from .errors import InputError
    from .i18n import N_

    try:
        with open(path, "rb") as f:
            data = f.read(_SNIFF)
    except OSError:
        return  # the reader reports it with its own message
    if not data or data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return
    if len(data) == _SNIFF:  # do not judge a multi-byte character cut in half
        data = data[: max(1, len(data) - 4)]
    try:
        text = data.decode("utf-8-sig")
        utf8 = True
    except UnicodeDecodeError:
        text = data.decode("latin-1")
        utf8 = False
    n = len(text)
    control = len(_CONTROL_CHAR.findall(text))  # counted in C: a loop over 64 KB was a sixth of reading a text
    high = n - len(text.encode("ascii", "ignore"))  # characters >= 0x80
    if control / n > _MAX_CONTROL_SHARE or (not utf8 and high / n > _MAX_HIGH_SHARE_8BIT):
        raise InputError(N_("{path}: does not look like text ({share:.0%} control characters, valid UTF-8) — a "
                            "binary file with a text extension?") if utf8 else
                         N_("{path}: does not look like text ({share:.0%} control characters, not UTF-8) — a "
                            "binary file with a text extension?"),
                         "export it as UTF-8 text, or remove it from the course folder", path=path, share=control / n)


_EMBED_BATCH = 256  # chunks per embedder call in a big file, so progress moves; set by hand, not measured


def _embed(embedder: Embedder, store: ChromaStore, chunks: list[Chunk], report: IngestReport,
           progress: Progress | None = None, label: str = "", *, stored: bool = True):
    """Vectors for chunks, reusing those the store already holds for the same chunk id and
    those in the embedder's cache; counts what went through the model. ``stored`` False: the
    store holds nothing of this source, so none of its ids (they hash the source) is asked for."""
    import numpy as np

    have = store.get_vectors([c.id for c in chunks]) if stored else {}
    todo = [c for c in chunks if c.id not in have]
    hits_before = getattr(embedder, "hits", 0)  # CachedEmbedder counts its hits
    if len(todo) > _EMBED_BATCH:
        parts = []
        for i in range(0, len(todo), _EMBED_BATCH):
            parts.append(embedder.embed_documents([index_text(c) for c in todo[i : i + _EMBED_BATCH]]))
            if progress is not None:
                progress.embedding(label, min(i + _EMBED_BATCH, len(todo)), len(todo))
        fresh = np.concatenate(parts)
    else:
        fresh = embedder.embed_documents([index_text(c) for c in todo]) if todo else np.zeros((0, 1))
    hits = len(have) + getattr(embedder, "hits", 0) - hits_before
    report.cached += hits
    report.embedded += len(chunks) - hits
    by_id = dict(have)
    by_id.update({c.id: fresh[i] for i, c in enumerate(todo)})
    return np.stack([by_id[c.id] for c in chunks]).astype(np.float32)


def _prune(store: ChromaStore, root: str, present: set[str], stored: dict[str, str]) -> list[FileResult]:
    """Remove sources stored under ``root`` (an absolute folder given on this command line)
    that are gone from disk; ``present`` holds the absolute paths found there now, ``stored`` the
    sources the store held when this ingest began (it adds only files in ``present``). Only the
    gone sources are read back: reading every chunk's metadata again cost a pass over the whole
    store on every ingest."""
    results = []
    for src in sorted(stored):
        full = store.absolute(src)
        if full in present or not _under(full, root) or os.path.lexists(full):
            continue
        state = store.source_state(src, raw=True)
        if state is None:  # a moved file's old name: its chunks went with the write of its new one
            continue
        store.delete(state.ids)
        results.append(FileResult(store.display(src), "removed", chunks=len(state.ids),
                                  message=Message("file no longer exists")))
    return results
