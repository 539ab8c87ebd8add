"""Domain errors. Each carries a hint that names the fix; the CLI turns them into
a short message and an exit code from :class:`ExitCode`."""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """The process exit codes, one per kind of failure (the README's table lists them)."""
    OK = 0
    FAILED = 1  # the command ran but some items failed (e.g. some files not ingested)
    USAGE = 2  # bad option or argument (typer/click uses 2 as well)
    INPUT = 3  # bad input file
    STORE = 4  # the knowledge base is missing, mismatched or unreadable
    BACKEND = 5  # an embedder or LLM endpoint failed
    INTERRUPTED = 130


class KbError(Exception):
    """Base class: ``message`` says what is wrong, ``hint`` says how to fix it."""

    exit_code: ExitCode = ExitCode.FAILED

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} — {self.hint}" if self.hint else self.message


class InputError(KbError):
    """A file or argument the user gave cannot be used."""

    exit_code = ExitCode.INPUT


class UsageError(KbError):
    """A bad option, argument or environment value (exit 2)."""
    exit_code = ExitCode.USAGE


class StoreError(KbError):
    """The knowledge base is missing, built by another embedder, or unreachable."""

    exit_code = ExitCode.STORE


class MissingStoreError(StoreError):
    """There is no knowledge base yet where the settings point."""


class BackendError(KbError):
    """An embedding model or LLM endpoint cannot be loaded or reached."""

    exit_code = ExitCode.BACKEND


def disk_full(e: BaseException, where: str) -> StoreError | None:
    """A StoreError for a write that failed because the disk is full (OSError ENOSPC, or
    SQLite's "database or disk is full"), naming what was being written; None otherwise."""
    import errno

    full = (isinstance(e, OSError) and e.errno in (errno.ENOSPC, errno.EDQUOT)) or "disk is full" in str(e) \
        or "No space left" in str(e)
    if not full:
        return None
    target = getattr(e, "filename", None) or where
    return StoreError(f"the disk is full: cannot write {target} ({type(e).__name__}: {e})",
                      "free some space, then run the same kb command again: what was written is kept")


def read_only(e: BaseException, where: str) -> StoreError | None:
    """A StoreError for a write refused because the knowledge base at ``where`` is read-only (a
    read-only mount, or files the user may not write: EROFS, EACCES, EPERM, SQLite's "attempt to
    write a readonly database"), naming it and the fix; None otherwise. Never "damaged": nothing is."""
    import errno

    text = str(e)
    refused = (isinstance(e, OSError) and e.errno in (errno.EROFS, errno.EACCES, errno.EPERM)) \
        or "readonly database" in text or "Read-only file system" in text or "Permission denied" in text
    if not refused:
        return None
    return StoreError(f"the knowledge base at {where} is read-only: kb cannot write there ({type(e).__name__}: {e})",
                      f"make it writable (chmod -R u+w {where}), or point --home/KB_HOME at a writable copy")
