"""Open the pieces a command needs — store and embedder — from settings.

When no embedder is named, the one recorded in the store is used, so a knowledge base
built with ``--embedder st:...`` is searched with the same model without repeating it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .config import Settings
from .embeddings import CachedEmbedder, Embedder, get_embedder
from .store import ChromaStore, open_store


@dataclass
class Workspace:
    settings: Settings
    store: ChromaStore
    embedder_name: str

    @cached_property
    def embedder(self) -> Embedder:
        return CachedEmbedder(get_embedder(self.embedder_name), self.settings.cache_dir / "embeddings.sqlite")

    @cached_property
    def retriever(self):
        from .search import Retriever

        return Retriever(self.store, self.embedder, self.settings.cache_dir)


def open_workspace(settings: Settings, embedder: str | None = None, *, create: bool = False,
                   rebuild: bool = False) -> Workspace:
    """Open the knowledge base. ``embedder=None`` means: the store's own, else the default."""
    if create or rebuild:
        name = embedder or settings.embedder
        if not rebuild:
            # an existing store decides unless an embedder was asked for explicitly
            try:
                existing = open_store(settings)
                name = embedder or existing.info["embedder"] or name
            except Exception:
                pass
        emb = get_embedder(name)
        store = open_store(settings, name, emb.dim, create=True, rebuild=rebuild)
        return Workspace(settings, store, name)
    store = open_store(settings)
    name = embedder or store.info["embedder"] or settings.embedder
    store = open_store(settings, name)  # re-validate against the chosen embedder
    return Workspace(settings, store, name)
