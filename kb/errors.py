"""Domain errors. Each carries a hint that names the fix; the CLI turns them into
a short message and an exit code from :class:`ExitCode`."""

from __future__ import annotations

import enum

from .i18n import Phrase, _, english, fill, kept, local

__all__ = ["BackendError", "ExitCode", "InputError", "KbError", "MissingStoreError", "Phrase", "StoreError",
           "UsageError", "disk_full", "read_only"]


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
    """Base class: ``message`` says what is wrong, ``hint`` says how to fix it.

    Both are English templates filled from ``fields`` (``InputError("{path}: not a quiz file",
    "regenerate it", path=p)``): ``message``/``hint`` are the English text (logs, ``--json``, tests),
    :meth:`localized` the text in the interface language. The templates are the catalogs' msgids
    (kb/locale/*/LC_MESSAGES/kb.po), translated first and filled after, so a value (a path, a
    number, an OS error) is never looked up; a message without fields is used as written. A field
    that is words (:class:`Phrase`) is translated too, and one that is a KbError gives its message."""

    exit_code: ExitCode = ExitCode.FAILED
    message: str  # the English text (--json, logs)
    hint: str

    def __init__(self, message: str, hint: str = "", **fields: object) -> None:
        self.template, self.hint_template, self.fields = message, hint, kept(fields)
        plain = {k: english(v) for k, v in fields.items()}
        self.message = fill(message, plain)
        self.hint = fill(hint, plain)
        super().__init__(self.message)

    def __str__(self) -> str:
        return f"{self.message} — {self.hint}" if self.hint else self.message

    def localized(self) -> tuple[str, str]:
        """``(message, hint)`` in the interface language (kb.i18n); English where a catalog lacks them."""
        fields = {k: local(v) for k, v in self.fields.items()}
        return (fill(_(self.template), fields), fill(_(self.hint_template), fields) if self.hint_template else "")


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
    return StoreError("the disk is full: cannot write {target} ({kind}: {error})",
                      "free some space, then run the same kb command again: what was written is kept",
                      target=target, kind=type(e).__name__, error=e)


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
    return StoreError("the knowledge base at {where} is read-only: kb cannot write there ({kind}: {error})",
                      "make it writable (chmod -R u+w {where}), or point --home/KB_HOME at a writable copy",
                      where=where, kind=type(e).__name__, error=e)


class KbWarning(UserWarning):
    """Something a command can go on without, said as a Python warning (``warnings.warn``): ``message`` says
    what, ``hint`` what to do, both :class:`kb.i18n.Message` or plain text. A library caller (a notebook) sees
    a normal warning; the CLI prints it as its ``kb: warning:`` and ``fix:`` lines (kb.cli)."""

    def __init__(self, message: str, hint: str = "") -> None:
        self.said, self.fix = message, hint
        super().__init__(f"{message} — {hint}" if hint else str(message))

    def localized(self) -> tuple[str, str]:
        """``(message, hint)`` in the interface language."""
        from .i18n import text

        return text(self.said), text(self.fix)
