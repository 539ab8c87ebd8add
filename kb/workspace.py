"""Open the pieces a command needs — store, embedder, retriever — from settings.

When no embedder is named, the one recorded in the store is used, so a knowledge base
built with ``--embedder st:...`` is searched with the same model without repeating it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .config import Settings
from .embeddings import CachedEmbedder, Embedder, get_embedder
from .errors import MissingStoreError
from .search import Retriever, cached_index
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
        return CachedEmbedder(get_embedder(self.embedder_name), self.settings.cache_dir / "embeddings.sqlite")

    @cached_property
    def retriever(self):
        """The hybrid retriever over this store (its index cached under ``cache/``)."""
        return Retriever(self.store, self.embedder, self.settings.cache_dir)


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
    """Open search for a workspace the fast way when possible: an on-disk store whose cached
    index is current is searched from that index alone (no Chroma client, ~0.75 s saved);
    otherwise the workspace is opened as usual, with its checks and error messages."""
    if not settings.store_url:
        index = cached_index(settings.home, settings.collection, settings.cache_dir)
        if index is not None and index.embedder_id:
            embedder = CachedEmbedder(get_embedder(index.embedder_id), settings.cache_dir / "embeddings.sqlite")
            return SearchSession(Retriever(None, embedder, settings.cache_dir, index=index), embedder)
    ws = open_workspace(settings)
    return SearchSession(ws.retriever, ws.embedder)
