"""Grading a class: read replies (one CSV, or a folder of per-student sheets), grade them
against a quiz, keep an instructor's overrides across re-runs, and write the reports
(Markdown for people, CSV and JSON for the gradebook) atomically.

Replies CSV columns: ``student``, ``question_id``, ``answer``. A per-student sheet is a
``.md``/``.txt`` file named after the student, with one block per question::

    ## q1a2b3c4d5
    the answer, any number of lines

(``## 3`` — the question's number in the quiz — works too.) The gradebook CSV the command
writes has an ``override`` column: put 0–3 there and re-run; the override wins and is kept.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from ..errors import InputError
from ..i18n import N_, Message
from ..quiz import Quiz, write_atomic
from .base import MAX_POINTS, MAX_REPLY_CHARS, Grade, Grader, Task, points_cell, with_override

# reading replies lives in kb.grading.replies; the names callers import from here stay importable here
from .replies import (  # noqa: F401
    NUL_MARK,
    REPLY_COLUMN_NAMES,
    Replies,
    Reply,
    read_csv,
    read_replies,
    read_text_file,
)
from .review import REVIEW_COLUMNS, review_manifest, review_rows

# --------------------------------------------------------------------------- grading a class

_MISSED_CONCEPTS_SHOWN = 3  # most-missed concepts listed per question in the reports

@dataclass
class GradedReply:
    """A reply and the grade it got (the grader's, or the instructor's override)."""
    reply: Reply
    grade: Grade


@dataclass
class ClassReport:
    """A class graded against a quiz: every graded reply, the rows skipped, notes, how many overrides
    were kept and, when merged into an earlier batch, what was kept, replaced and new."""
    quiz: Quiz
    graded: list[GradedReply]
    problems: list[str]
    notes: list[str] = field(default_factory=list)
    overrides_kept: int = 0
    merged: dict[str, int] = field(default_factory=dict)  # kept / replaced / new, when merged into earlier grades

    @property
    def students(self) -> list[str]:
        """The students with a graded reply, sorted."""
        return sorted({g.reply.student for g in self.graded})

    def table(self) -> dict[str, dict[str, Grade]]:
        """Student → question id → grade."""
        t: dict[str, dict[str, Grade]] = defaultdict(dict)
        for g in self.graded:
            t[g.reply.student][g.reply.question_id] = g.grade
        return t

    def totals(self) -> dict[str, dict[str, float]]:
        """Per student: points, of the maximum of the questions they were given (a reply row, even an
        empty one), percent of that, and how many they answered (a non-empty reply)."""
        answered = Counter(g.reply.student for g in self.graded
                           if g.reply.answer.strip() and "empty" not in g.grade.flags)
        out = {}
        for s, row in self.table().items():
            pts = sum(g.points for g in row.values())
            n = len(row)
            out[s] = {"points": pts, "max": MAX_POINTS * n, "percent": 100 * pts / (MAX_POINTS * n) if n else 0.0,
                      "given": n, "answered": answered[s]}
        return out

    def ordered(self) -> list[GradedReply]:
        """The graded replies by student, then by question number."""
        return sorted(self.graded, key=lambda x: (x.reply.student, _number(self.quiz, x.reply.question_id)))

    def to_check(self) -> list[GradedReply]:
        """The grades kb asks the teacher to look at again (Grade.check), unless already overridden."""
        return [g for g in self.ordered() if g.grade.check and g.grade.grader != "override"]

    def question_stats(self) -> list[dict[str, Any]]:
        """Per quiz question: replies, mean and spread of points, how many got it right, the concepts most missed."""
        by_q: dict[str, list[Grade]] = defaultdict(list)
        for g in self.graded:
            by_q[g.reply.question_id].append(g.grade)
        out = []
        for i, q in enumerate(self.quiz.questions, 1):
            gs = by_q.get(q.id, [])
            pts = [g.points for g in gs]
            missed = Counter(c for g in gs for c in g.missing)
            out.append({
                "number": i, "id": q.id, "type": q.type, "replies": len(gs),
                "mean": statistics.fmean(pts) if pts else None,
                "stdev": statistics.pstdev(pts) if len(pts) > 1 else 0.0 if pts else None,
                "correct": sum(g.verdict == "correct" for g in gs),
                "missed_concepts": [c for c, _ in missed.most_common(_MISSED_CONCEPTS_SHOWN)],
            })
        return out


OVERRIDE_COLUMNS = ("student", "question_id", "points", "score", "verdict", "override", "feedback", "grader",
                    "check", "number", "question", "answer")  # the last three: to decide an override from the row


def read_overrides(out_dir: Path) -> tuple[dict[tuple[str, str], tuple[int, str]], list[str]]:
    """(student, question_id) → (points, note) from the previous run's gradebook in ``out_dir``:
    a value in the ``override`` column, or a ``points`` cell edited by hand (it differs from
    the points the previous run wrote to grades.json), in grades.csv or in grades.xlsx (its
    Grades sheet, when it is no longer the file kb wrote: a teacher edited it) — either file alone
    is enough; where both were edited, the workbook's cell wins."""
    from ..sheets import unescape_cell

    path, book = out_dir / "grades.csv", out_dir / "grades.xlsx"
    sources: list[tuple[Path, list[dict[str, str]], bool]] = []  # (file, rows, as written by kb)
    notes: list[str] = []
    if path.exists():
        rows, notes = read_csv(path, required=("student", "question_id", "points", "override"))
        for r in rows:
            r["student"] = unescape_cell(r["student"].strip())
        # as written: no points cell was edited (and a stale csv is not read as edits)
        sources.append((path, rows, csv_as_written(out_dir)))
    if book.exists() and not _as_written(out_dir, book.name):
        sources.append((book, _workbook_rows(book, notes), False))
    written: dict[tuple[str, str], int] = {}
    try:
        prev = json.loads((out_dir / "grades.json").read_text(encoding="utf-8"))
        for student, row in prev.get("students", {}).items():
            for qid, g in row.get("grades", {}).items():
                written[(student, qid)] = int(g["points"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # no previous JSON: only the override column counts
    out: dict[tuple[str, str], tuple[int, str]] = {}
    for where, rows, as_written in sources:
        for r in rows:
            key = (r["student"].strip(), r["question_id"].strip())
            v = r["override"].strip()
            if not v and not as_written and key in written and r["points"].strip() not in ("", str(written[key])):
                v = r["points"].strip()  # the points cell itself was edited
            if not v:
                continue
            p = points_cell(v)
            if p is None:
                notes.append(Message("{path}:{line}: override '{value}' is not 0–3 — ignored; write 0, 1, 2 or 3",
                                     path=where, line=r["_line"], value=v))
                continue
            out[key] = (p, "instructor")
    return out, notes


def _workbook_rows(book: Path, notes: list[str]) -> list[dict[str, str]]:
    """The Grades sheet of a grades.xlsx a teacher edited, as rows by column name (``_line``: the row
    number); none, with a note, when it cannot be read."""
    import zipfile
    from xml.etree import ElementTree as ET

    from ..sheets import read_xlsx_sheet

    try:
        cells = read_xlsx_sheet(book, "Grades") or []
    except (OSError, ValueError, KeyError, IndexError, zipfile.BadZipFile, ET.ParseError) as e:
        notes.append(Message("{path}: cannot read the teacher's changes ({error}) — ignored; save it as .xlsx "
                             "again, or write the overrides in grades.csv", path=book, error=e))
        return []
    head = [h.strip() for h in cells[0]] if cells else []
    if not {"student", "question_id", "points", "override"} <= set(head):
        return []
    return [{"_line": str(n), **{h: (row[i] if i < len(row) else "") for i, h in enumerate(head)}}
            for n, row in enumerate(cells[1:], start=2) if any(c.strip() for c in row)]


def grade_class(quiz: Quiz, replies: Replies, grader: Grader,
                overrides: dict[tuple[str, str], tuple[int, str]] | None = None) -> ClassReport:
    """Grade each student's latest reply per question; a teacher's override replaces kb's grade."""
    overrides = overrides or {}
    latest: dict[tuple[str, str], Reply] = {}
    problems, notes = list(replies.problems), list(replies.notes)
    for r in replies.items:  # a student answering a question twice: the later one counts
        key = (r.student, r.question_id)
        if key in latest:
            notes.append(Message("{where}: second answer from {student} to {qid} — this one is graded, the one at "
                                 "{earlier} is not", where=r.where, student=r.student, qid=r.question_id,
                                 earlier=latest[key].where))
        latest[key] = r
    items = list(latest.values())
    for r in items:
        if len(r.answer) > MAX_REPLY_CHARS:
            notes.append(Message("{where}: answer of {n:,} characters from {student} — graded on its first {most:,}",
                                 where=r.where, n=len(r.answer), student=r.student, most=MAX_REPLY_CHARS))
    tasks = [Task(quiz.question(r.question_id), r.answer[:MAX_REPLY_CHARS], r.student)  # type: ignore[arg-type]
             for r in items]
    grades = grader.grade(tasks) if tasks else []
    graded, kept = [], 0
    for r, g in zip(items, grades, strict=True):
        ov = overrides.get((r.student, r.question_id))
        if ov is not None:
            g = with_override(g, ov[0], ov[1])
            kept += 1
        graded.append(GradedReply(r, g))
    return ClassReport(quiz, graded, problems, notes, kept)


# --------------------------------------------------------------------------- merging into earlier reports

def read_previous(out_dir: Path, quiz: Quiz) -> list[GradedReply]:
    """The grades an earlier ``kb grade`` wrote to ``out_dir/grades.json`` (none when absent). A file
    that cannot be read, or grades for questions this quiz does not have, stop before anything is
    written: merging would lose them."""
    path = out_dir / "grades.json"
    if not path.exists():
        return []
    fix = N_("grade into another --out folder, or move {out_dir} away (nothing was written)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        students = data["students"]
        out = []
        for student, row in students.items():
            for qid, g in row["grades"].items():
                grade = Grade(str(g.get("question_id", qid)), int(g["points"]), float(g["score"]), str(g["verdict"]),
                              str(g.get("feedback", "")), tuple(g.get("present", ())), tuple(g.get("missing", ())),
                              tuple(g.get("flags", ())), str(g.get("grader", "offline")), str(g.get("check", "")))
                out.append(GradedReply(Reply(student, qid, str(g.get("answer", "")), f"{path} (earlier run)"), grade))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise InputError("{path}: cannot read the earlier grades ({kind}: {error})", fix, path=path, out_dir=out_dir,
                         kind=type(e).__name__, error=e) from e
    unknown = sorted({g.reply.question_id for g in out} - {q.id for q in quiz.questions})
    if unknown:
        raise InputError("{path}: holds grades for questions that are not in this quiz ({questions})", fix,
                         path=path, out_dir=out_dir, questions=", ".join(unknown[:5]))
    return out


def merge_reports(previous: Sequence[GradedReply], report: ClassReport,
                  overrides: dict[tuple[str, str], tuple[int, str]] | None = None) -> ClassReport:
    """Earlier grades kept, except the (student, question) pairs graded again now; an instructor's
    override in grades.csv applies to the kept grades too."""
    overrides = overrides or {}
    now = {(g.reply.student, g.reply.question_id) for g in report.graded}
    kept = []
    for g in previous:
        key = (g.reply.student, g.reply.question_id)
        if key in now:
            continue
        ov = overrides.get(key)
        if ov is not None and not (g.grade.grader == "override" and g.grade.points == ov[0]):
            g = GradedReply(g.reply, with_override(g.grade, ov[0], ov[1]))
        kept.append(g)
    before = {(g.reply.student, g.reply.question_id) for g in previous}
    report.graded = kept + list(report.graded)
    report.overrides_kept += sum(g.grade.grader == "override" for g in kept)
    report.merged = {"kept": len(kept), "replaced": len(now & before), "new": len(now - before)}
    return report


# --------------------------------------------------------------------------- reports

def gradebook_rows(report: ClassReport) -> list[list[Any]]:
    """One row per graded reply, in OVERRIDE_COLUMNS order (numbers as numbers)."""
    rows: list[list[Any]] = []
    for g in report.ordered():
        gr = g.grade
        q = report.quiz.question(g.reply.question_id)
        rows.append([g.reply.student, g.reply.question_id, gr.points, round(gr.score, 3), gr.verdict,
                     gr.points if gr.grader == "override" else "", gr.feedback, gr.grader, gr.check,
                     _number(report.quiz, g.reply.question_id), q.prompt if q else "", g.reply.answer])
    return rows


def gradebook_csv(report: ClassReport, dialect: str = "comma") -> str:
    """grades.csv: formula-looking cells escaped; ``excel-eu`` = BOM, ``;``, decimal comma."""
    from ..sheets import csv_text

    return csv_text(OVERRIDE_COLUMNS, gradebook_rows(report), dialect)


def gradebook_xlsx(report: ClassReport, review: tuple[Sequence[str], list[list[Any]]] | None = None) -> bytes:
    """grades.xlsx: the gradebook rows, one row per student with the totals and, with ``review``
    (columns, rows), the answer groups to review."""
    from ..sheets import xlsx_bytes

    totals = [[s, t["points"], t["max"], round(t["percent"], 1), t["answered"]]
              for s, t in sorted(report.totals().items())]
    sheets: dict[str, tuple[Sequence[str], Sequence[Sequence[Any]]]] = {
        "Grades": (OVERRIDE_COLUMNS, gradebook_rows(report)),
        "Students": (("student", "points", "max", "percent", "answered"), totals)}
    if review is not None:
        sheets["Review"] = review
    return xlsx_bytes(sheets)


def _number(quiz: Quiz, qid: str) -> int:
    for i, q in enumerate(quiz.questions, 1):
        if q.id == qid:
            return i
    return 0


def report_json(report: ClassReport, quiz_path: str) -> dict[str, Any]:
    """The class report as a JSON object (per question, per student with answers, problems)."""
    answers = {(g.reply.student, g.reply.question_id): g.reply.answer for g in report.graded}
    return {
        "quiz": quiz_path, "title": report.quiz.title,
        "questions": report.question_stats(),
        "students": {s: {**t, "grades": {qid: {**g.to_json(), "answer": answers.get((s, qid), "")}
                                         for qid, g in report.table()[s].items()}}
                     for s, t in sorted(report.totals().items())},
        "problems": report.problems,
        "notes": report.notes,
        "overrides_kept": report.overrides_kept,
        "merged": report.merged,
    }


def report_markdown(report: ClassReport, quiz_path: str) -> str:
    """Per-question table first (what the class got right and missed), then one row per student
    over the questions they were given (``–`` for the others; ``*`` marks an instructor's override),
    then each student's feedback on the questions they were given."""
    from ..export._common import quiz_lang
    from ..i18n import course

    with course(quiz_lang(report.quiz)):
        return _report_markdown(report, quiz_path)


def _report_markdown(report: ClassReport, quiz_path: str) -> str:
    """:func:`report_markdown` in the interface language."""
    from ..i18n import _, ngettext, text, type_word, verdict_word

    quiz = report.quiz
    nums = {q.id: i for i, q in enumerate(quiz.questions, 1)}
    table, totals = report.table(), report.totals()
    asked = [q for q in quiz.questions if any(q.id in row for row in table.values())]
    n_over = sum(g.grade.grader == "override" for g in report.graded)
    lines = ["# " + _("Grades") + f" — {quiz.title}", "", _("Quiz:") + f" `{quiz_path}` · "
             + ngettext("{n} of {total} question answered", "{n} of {total} questions answered", len(quiz.questions))
             .format(n=len(asked), total=len(quiz.questions)) + " "
             + ngettext("by {n} student", "by {n} students", len(report.students)).format(n=len(report.students))
             + " · " + _("0–3 points per question")
             + (" · `*` = " + _("instructor's override") + f" ({n_over})" if n_over else ""), ""]
    lines += ["## " + _("Questions"), "", "| # | " + " | ".join((_("Type"), _("Replies"), _("Mean"), _("Spread"),
              _("Correct"), _("Most missed"))) + " |", "|---|---|---|---|---|---|---|"]
    for st in report.question_stats():
        if not st["replies"]:
            continue
        lines.append(f"| {st['number']} | {type_word(st['type'])} | {st['replies']} | {st['mean']:.2f} | "
                     f"{st['stdev']:.2f} | "
                     f"{st['correct']} | {_md(', '.join(st['missed_concepts'])) or '–'} |")
    head = f"| {_('Student')} | " + " | ".join(_("Q{n}").format(n=nums[q.id]) for q in asked) \
        + f" | {_('Points')} | % |"
    lines += ["", "## " + _("Students"), "", head, "|" + "---|" * (len(asked) + 3)]
    for s in report.students:
        cells = [(f"{table[s][q.id].points}" + ("*" if table[s][q.id].grader == "override" else ""))
                 if q.id in table[s] else "–" for q in asked]
        t = totals[s]
        lines.append(f"| {_md(s)} | " + " | ".join(cells) + f" | {t['points']}/{t['max']} | {t['percent']:.0f} |")
    lines += ["", _("Points and % count the questions each student was given."), ""]
    checks = report.to_check()
    if checks:
        lines += ["## " + _("Replies to check"), "", _("kb did not count these in the points: each reply may say "
                  "the opposite of the model answer. On replies kb had never seen, about 4 in 10 of them did. "
                  "Override the points in grades.csv where it does."), ""]
        lines += [f"- **{_md(g.reply.student)}**, {_('Q{n}').format(n=nums[g.reply.question_id])} "
                  f"({g.grade.points}/{MAX_POINTS}): "
                  f"{_md(g.grade.check)}" for g in checks]
        lines.append("")
    lines += _llm_section(report, nums)
    lines += ["## " + _("Feedback"), ""]
    for s in report.students:
        lines += [f"### {_md(s)}", ""]
        for q in asked:
            g = table[s].get(q.id)
            if g is not None:
                star = "*" if g.grader == "override" else ""
                lines.append(f"- **{_('Q{n}').format(n=nums[q.id])}** {g.points}{star}/{MAX_POINTS} "
                             f"{verdict_word(g.verdict)} — {_md(g.feedback)}")
        lines.append("")
    if report.problems or report.notes:
        lines += ["## " + _("Problems in the replies"), ""]
        lines += [f"- {_md(text(p))}" for p in report.problems + report.notes] + [""]
    return "\n".join(lines)


def _llm_section(report: ClassReport, nums: dict[str, int]) -> list[str]:
    """Which replies an LLM graded and which fell back to the offline grader, and why."""
    by_llm = [g for g in report.graded if g.grade.grader.startswith("llm:")]
    fell = [g for g in report.graded if {"llm_unavailable", "llm_invalid"} & set(g.grade.flags)]
    if not by_llm and not fell:
        return []
    who = ", ".join(sorted({g.grade.grader[4:] for g in by_llm})) or "the LLM"
    lines = ["## LLM grading", "", f"{len(by_llm)} free-text replies graded by {_md(who)}; {len(fell)} fell back "
             "to the offline grader" + (":" if fell else "."), ""]
    for g in fell:
        why = "the LLM did not answer" if "llm_unavailable" in g.grade.flags else "the LLM's reply was unusable"
        lines.append(f"- {_md(g.reply.student)}, Q{nums.get(g.reply.question_id, '?')}: {why}")
    return lines + ([""] if fell else [])


def _md(text: str) -> str:
    from ..export._common import md_text  # __len__ in a reply or feedback is not bold

    return md_text(text).replace("|", "\\|").replace("\n", " ")


REPORT_FILES = {"json": "grades.json", "markdown": "grades.md", "csv": "grades.csv", "xlsx": "grades.xlsx",
                "review": "grades-review.csv"}
MANIFEST = ".grades-manifest.json"  # the sha256 of each report of the current set, written last
_TEMP = ".kb-report-"  # prefix of the reports written aside before the swap


def _sha256(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def csv_as_written(out_dir: Path) -> bool:
    """True when ``out_dir/grades.csv`` is byte for byte the one the manifest names: nobody edited it,
    so none of its points is a teacher's (a run killed before the manifest was written leaves the old
    manifest, which names the old csv: its old points are not read as overrides either)."""
    return _as_written(out_dir, "grades.csv")


def _as_written(out_dir: Path, name: str) -> bool:
    """True when ``out_dir/name`` is byte for byte the report the manifest names (see :func:`csv_as_written`)."""
    try:
        manifest = json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))
        return _sha256((out_dir / name).read_bytes()) == manifest["files"][name]
    except (OSError, ValueError, KeyError, TypeError):
        return False


def write_reports(report: ClassReport, out_dir: Path, quiz_path: str, csv_dialect: str = "comma",
                  review: Any = None) -> dict[str, Path]:
    """grades.md, grades.csv (with the override column; ``csv_dialect`` comma or excel-eu),
    grades.xlsx (the same rows for spreadsheets), grades.json and, with a ``review``
    (:class:`kb.grading.review.ClassReview`), grades-review.csv and a Review sheet — written as one
    unit: every file is written aside first, then all are swapped in, then a manifest naming the set
    (:func:`csv_as_written`). A failure or an interrupt removes what was written aside."""
    import os
    import tempfile

    from ..sheets import csv_text

    out_dir.mkdir(parents=True, exist_ok=True)
    # what a killed run left aside: ours, and write_atomic's temp files of the reports and the manifest
    for pattern in (_TEMP + "*", *(f".{name}.*" for name in (*REPORT_FILES.values(), MANIFEST))):
        for stale in out_dir.glob(pattern):
            if stale.is_file():
                stale.unlink(missing_ok=True)
    data = report_json(report, quiz_path)
    review_sheet = None
    if review is not None:
        data["review"] = review_manifest(report, review)
        review_sheet = (REVIEW_COLUMNS, review_rows(report, review))
    docs = {"csv": gradebook_csv(report, csv_dialect).encode("utf-8"),  # an unknown dialect fails first
            "json": (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8"),
            "markdown": report_markdown(report, quiz_path).encode("utf-8"),
            "xlsx": gradebook_xlsx(report, review_sheet)}
    if review_sheet is not None:
        docs["review"] = csv_text(*review_sheet, csv_dialect).encode("utf-8")
    paths = {k: out_dir / REPORT_FILES[k] for k in docs}
    mask = os.umask(0o022)
    os.umask(mask)
    aside: dict[str, str] = {}
    try:
        for k, doc in docs.items():
            fd, tmp = tempfile.mkstemp(prefix=_TEMP, dir=str(out_dir))
            aside[k] = tmp
            with os.fdopen(fd, "wb") as f:
                f.write(doc)
            os.chmod(tmp, 0o666 & ~mask)
        # grades.json first: a run killed after it leaves the old grades.csv and the old manifest naming it,
        # so none of the old points is read as a teacher's; grades-review.csv last: until the teacher's
        # group grades are in grades.csv, the file that holds them stays
        for k in ("json", "markdown", "xlsx", "csv", "review"):
            if k in aside:
                os.replace(aside[k], paths[k])
                del aside[k]
        manifest = {"files": {REPORT_FILES[k]: _sha256(doc) for k, doc in docs.items()}}
        write_atomic(out_dir / MANIFEST, json.dumps(manifest, indent=2) + "\n")
    except OSError as e:
        raise InputError("{target}: cannot write the reports ({error})",
                         "check that {out_dir} is a writable folder whose grades.* are files, or grade into another "
                         "--out",
                         target=e.filename2 or e.filename or out_dir, error=e.strerror or e, out_dir=out_dir) from e
    finally:
        for tmp in aside.values():
            Path(tmp).unlink(missing_ok=True)
    if review_sheet is None:
        (out_dir / REPORT_FILES["review"]).unlink(missing_ok=True)  # no group left to review
    return paths
