"""Replies kept on disk under ``.kb/cache/llm/``: one JSON file per request, named by the hash
of what makes a reply (endpoint, model, prompt, parameters, schema), written whole (temporary
file, then rename) the moment it arrives, so a run interrupted by Ctrl-C keeps every reply it
received and the next run sends no request for them. ``--no-cache`` skips the reading, not the
writing. A cache that cannot be written (read-only, or a file where the folder should be) is
said once and the run goes on without it."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any


class ResponseCache:
    """Get and put replies by key; thread-safe, never raises for the disk's sake."""

    def __init__(self, folder: Path, *, read: bool = True) -> None:
        self.folder = Path(folder)
        self.read = read
        self.error = ""  # why the cache could not be written, once
        self._lock = threading.Lock()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored reply for ``key``, or None (not stored, unreadable, or reading is off)."""
        if not self.read:
            return None
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            return None
        return data if isinstance(data, dict) and isinstance(data.get("content"), str) else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        """Store a reply (atomically); a failure disables writing and is kept in :attr:`error`."""
        if self.error:
            return
        path = self._path(key)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
            os.replace(tmp, path)
        except OSError as e:
            with self._lock:
                self.error = (f"LLM replies are not cached: cannot write {self.folder} ({e.strerror or e}); "
                              "the next run will ask again")
            try:
                tmp.unlink()
            except OSError:
                pass
