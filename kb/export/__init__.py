"""Exports of a quiz file, the source of truth: Markdown (sheet and key), Moodle XML, GIFT
and Anki. The exporter is a seam: a name maps to a class with ``render``; each format lives
in its own module, imported only when asked for (genanki is not on the path of ``--help``).

Every export is a pure function of the quiz (no clock, no random order): exporting the same
quiz twice gives the same bytes. The Anki package carries one time value, the quiz file's
modification time, because Anki updates a note on import only when it is newer.
"""

from __future__ import annotations

import importlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..errors import InputError, UsageError
from ..quiz import Quiz, load_quiz


class Exporter(Protocol):
    """The export seam: one class per format, registered by name in :data:`EXPORTERS`."""
    extension: str
    binary: bool  # render returns bytes (a file format), not text

    def render(self, quiz: Quiz, answers: bool = False) -> str | bytes:
        """The quiz in this format (the answer key when ``answers``)."""


# name -> (module, class); modules are imported on use
EXPORTERS: dict[str, tuple[str, str]] = {
    "md": ("markdown", "MarkdownExporter"),
    "moodle": ("moodle", "MoodleXmlExporter"),
    "gift": ("gift", "GiftExporter"),
    "anki": ("anki", "AnkiExporter"),
}


def get_exporter(name: str, **options) -> Exporter:
    """The exporter registered as ``name`` (md, moodle, gift, anki)."""
    try:
        module, cls = EXPORTERS[name]
    except KeyError:
        raise UsageError("--format {name}: unknown export format",
                         "use one of {exporters}",
                         name=name, exporters=', '.join(EXPORTERS)) from None
    return getattr(importlib.import_module(f".{module}", __name__), cls)(**options)


@dataclass(frozen=True)
class Export:
    """A rendered export: the text or bytes, the file extension and whether it is binary."""
    data: str | bytes
    extension: str
    binary: bool


def export_quiz(quiz_path: Path, fmt: str, answers: bool = False, out: Path | None = None,
                reviewed_only: bool = False) -> Export:
    """Render the quiz file ``quiz_path`` as ``fmt``. ``out`` is checked before anything is
    rendered: it may not be the quiz file itself (an export never replaces the source of
    truth), and a binary format needs a file. Questions dropped in ``kb quiz review`` are left
    out; ``reviewed_only`` takes only the kept and edited ones."""
    exporter = get_exporter(fmt, **({"timestamp": _mtime(quiz_path)} if fmt == "anki" else {}))
    if out is not None and _same_file(out, quiz_path):
        raise UsageError("-o {out} is the quiz file itself: exporting would replace the quiz with its {fmt} export",
                         "write the export to another file, e.g. -o {with_suffix}",
                         out=out, fmt=fmt, with_suffix=quiz_path.with_suffix('.' + exporter.extension))
    if out is not None and _is_quiz_file(out):
        raise UsageError("-o {out} is a quiz file: exporting would replace that quiz with this one's {fmt} export",
                         "write the export to another file, e.g. -o {with_suffix}",
                         out=out, fmt=fmt, with_suffix=quiz_path.with_suffix('.' + exporter.extension))
    if out is not None:
        from ..sheets import check_output_file

        check_output_file(out, "-o", f"{quiz_path.stem}.{exporter.extension}")
    if out is None and exporter.binary:
        raise UsageError("--format {fmt} writes a binary .{extension} file, not text for the terminal",
                         "add -o {with_suffix}",
                         fmt=fmt, extension=exporter.extension,
                         with_suffix=quiz_path.with_suffix('.' + exporter.extension))
    quiz = _for_students(load_quiz(quiz_path), quiz_path, reviewed_only)
    return Export(exporter.render(quiz, answers=answers), exporter.extension, exporter.binary)


def _for_students(quiz: Quiz, quiz_path: Path, reviewed_only: bool) -> Quiz:
    shown = quiz.for_students(reviewed_only)
    if quiz.questions and not shown.questions:
        if reviewed_only:
            raise InputError("{path}: no question kept or edited in kb quiz review: nothing to export",
                             "review it with kb quiz review {path}, or leave out --reviewed-only", path=quiz_path)
        raise InputError("{path}: every question dropped in kb quiz review: nothing to export",
                         "review it with kb quiz review {path}", path=quiz_path)
    return shown


def _same_file(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)  # also a hard link or a symlink to the quiz
    except OSError:
        pass
    return a.resolve() == b.resolve()


def _is_quiz_file(path: Path) -> bool:
    """A kb quiz (a JSON object with a "questions" list): never a target for an export."""
    if path.suffix.lower() != ".json" or not path.is_file():
        return False
    try:
        with path.open("rb") as f:
            doc = json.loads(f.read(50_000_000))
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and isinstance(doc.get("questions"), list)


def _mtime(path: Path) -> int:
    try:
        return int(path.stat().st_mtime)
    except OSError:
        return 0  # load_quiz reports the missing file
