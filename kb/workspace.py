"""Open the pieces a command needs — store, embedder, retriever — from settings.

When no embedder is named, the one recorded in the store is used, so a knowledge base
built with ``--embedder st:...`` is searched with the same model without repeating it.
A command that only reads passages opens it with :func:`open_reader`: from the search index
cached under ``cache/`` when it is current, without starting Chroma.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .config import Settings
from .embeddings import CachedEmbedder, Embedder, get_embedder
from .errors import MissingStoreError
from .search import IndexedStore, Retriever
from .store import ChromaStore, open_store


@dataclass
class Workspace:
    """An open knowledge base: settings, its store and the name of the embedder to use with it
    (the embedder and retriever are loaded on first use)."""
    settings: Settings
    store: ChromaStore
    embedder_name: str

    @cached_property
    def embedder(self) -> Embedder:
        """The embedder, wrapped in the vector cache under ``cache/embeddings.sqlite``; loads the model
        (BackendError when it cannot)."""
        return _cached_embedder(self.settings, self.embedder_name)

    @cached_property
    def retriever(self):
        """The hybrid retriever over this store (its index cached under ``cache/``)."""
        return Retriever(self.store, self.embedder, self.settings.cache_dir)


def _cached_embedder(settings: Settings, name: str) -> Embedder:
    return CachedEmbedder(get_embedder(name), settings.cache_dir / "embeddings.sqlite")


@dataclass
class CachedWorkspace:
    """The knowledge base opened for reading from its current cached search index: what a
    :class:`Workspace` gives a command that only reads passages (a store's reading side, the
    embedder, the retriever), without chromadb. See :func:`open_reader`."""
    settings: Settings
    store: IndexedStore
    embedder_name: str

    @cached_property
    def embedder(self) -> Embedder:
        """The store's embedder, as :attr:`Workspace.embedder`."""
        return _cached_embedder(self.settings, self.embedder_name)

    @cached_property
    def retriever(self) -> Retriever:
        """The hybrid retriever over the cached index (no Chroma client)."""
        return Retriever(None, self.embedder, self.settings.cache_dir, index=self.store.index)


def open_reader(settings: Settings) -> Workspace | CachedWorkspace:
    """Open the knowledge base for a command that only reads it (search, ask, quiz generation): an
    on-disk store whose cached index is current (``kb ingest`` leaves one; any write since makes it
    stale) is read from that index alone — chromadb is not imported, ~0.5-0.75 s saved; otherwise (no
    or a stale index, a Chroma server) the workspace is opened as usual, with its checks and errors."""
    if not settings.store_url:
        store = IndexedStore.cached(settings.home, settings.collection, settings.cache_dir)
        if store is not None and store.index.embedder_id:
            return CachedWorkspace(settings, store, store.index.embedder_id)
    return open_workspace(settings)


def open_workspace(settings: Settings, embedder: str | None = None, *, create: bool = False,
                   rebuild: bool = False) -> Workspace:
    """Open the knowledge base. ``embedder=None`` means: the store's own, else the default.
    ``create`` makes an empty one if there is none; ``rebuild`` opens a fresh collection beside
    it (see :func:`kb.ingest.rebuild`, which swaps it in when complete)."""
    if embedder:
        get_embedder(embedder)  # an unknown or unloadable embedder is the first thing to report
    store = None
    if not rebuild:
        try:
            store = open_store(settings)
        except MissingStoreError:
            if not create:
                raise
    if store is not None:
        name = embedder or store.info["embedder"] or settings.embedder
        store.check_built_by(name)
        return Workspace(settings, store, name)
    name = embedder
    if rebuild and not name:  # rebuilding some sources keeps the store's own embedder
        try:
            name = open_store(settings, check=False).info["embedder"]
        except MissingStoreError:
            pass
    name = name or settings.embedder
    store = open_store(settings, name, get_embedder(name).dim, create=True, rebuild=rebuild)
    return Workspace(settings, store, name)


@dataclass
class SearchSession:
    """What ``kb search`` and ``kb ask`` need: a retriever and the embedder behind it."""

    retriever: Retriever
    embedder: Embedder


def open_search(settings: Settings) -> SearchSession:
    """Open search for a workspace the fast way when possible (see :func:`open_reader`): an on-disk
    store whose cached index is current is searched from that index alone (no Chroma client)."""
    ws = open_reader(settings)
    return SearchSession(ws.retriever, ws.embedder)
