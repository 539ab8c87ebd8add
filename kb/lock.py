"""One writer per workspace: ``kb ingest`` holds a file lock in the workspace while it writes.

Readers (search, ask, sources, …) never take it: Chroma serves reads during a write. A second
writer waits for the first (``KB_LOCK_WAIT`` seconds, default 600), saying so once, then
gives up with a message that names the process holding the lock.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from .errors import StoreError, UsageError, read_only

DEFAULT_WAIT = 600.0  # seconds (KB_LOCK_WAIT's default); set by hand, not measured


def lock_wait() -> float:
    """Seconds a second writer waits for the lock: ``KB_LOCK_WAIT``, default :data:`DEFAULT_WAIT`;
    UsageError when it is not a number of seconds."""
    raw = os.environ.get("KB_LOCK_WAIT", str(DEFAULT_WAIT))
    try:
        value = float(raw)
        if value < 0:
            raise ValueError
    except ValueError:
        raise UsageError("KB_LOCK_WAIT={raw!r} is not a number of seconds",
                         "set KB_LOCK_WAIT to 0 or more seconds, e.g. 600",
                         raw=raw) from None
    return value


@contextmanager
def writer_lock(home: Path, on_wait: Callable[[str], None] = lambda _: None,
                wait: float | None = None) -> Iterator[None]:
    """Hold the workspace's writer lock for the duration of the block."""
    from filelock import FileLock, Timeout

    wait = lock_wait() if wait is None else wait
    try:
        home.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StoreError("cannot create the workspace {home} ({error})",
                         "check the path and its permissions, or choose another with --home",
                         home=home, error=e.strerror or e) from e
    lock = FileLock(str(home / "ingest.lock"))
    info = home / "ingest.lock.pid"
    try:
        lock.acquire(timeout=0)
    except Timeout:
        holder = _holder(info)
        if wait <= 0:
            raise StoreError("another kb ingest{holder} is writing to {home}",
                             "wait for it to finish (or stop it), then run the command again; KB_LOCK_WAIT=SECONDS "
                             "makes kb wait instead",
                             holder=holder, home=home) from None
        on_wait(f"another kb ingest{holder} is writing to {home}; waiting for it (up to {wait:g} s, KB_LOCK_WAIT)…")
        try:
            lock.acquire(timeout=wait)
        except Timeout:
            raise StoreError("another kb ingest{holder} is still writing to {home} after {wait:g} s",
                             "wait for it to finish (or stop it), then run the command again",
                             holder=holder, home=home, wait=wait) from None
    except OSError as e:  # (after Timeout, one of them) no lock file can be made: a read-only workspace
        refused = read_only(e, str(home))
        if refused is None:
            raise
        raise refused from e
    try:
        try:
            info.write_text(str(os.getpid()), encoding="utf-8")
        except OSError:
            pass
        yield
    finally:
        lock.release()


def _holder(info: Path) -> str:
    try:
        pid = int(info.read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return ""
    return f" (process {pid})"
