"""Grade files a teacher uses as they are, written beside grades.md/.csv/.xlsx/.json:

- ``class.csv`` and ``class.xlsx``: one row per student, one column per question (points 0–3),
  the total points, and the grade on the chosen scale (0–10, 0–20 or 0–100); the workbook adds a
  chart of each question's grade distribution (XlsxWriter);
- ``students/<name>.md``: each student's own feedback, to send;
- ``moodle_grades.csv``: the grade on the scale and the feedback, for Moodle's grade import
  (Grades › Import › CSV file; map *student* to what the replies' student column holds —
  username, email or ID number);
- :func:`replies_template`: the replies sheet (question numbers and text) a class fills.

Column names of the CSV files stay English (a machine reads them); what a student reads is in the
interface language (kb.i18n). Stdlib only, but for XlsxWriter.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from pathlib import Path
from typing import Any

from ..errors import InputError, UsageError
from ..quiz import Quiz
from .base import MAX_POINTS

SCALES = (10, 20, 100)


def check_scale(scale: int) -> None:
    """A UsageError naming --scale unless it is 10, 20 or 100."""
    if scale not in SCALES:
        raise UsageError("--scale {scale}: not a grading scale kb writes",
                         "use 10, 20 or 100",
                         scale=scale)


def on_scale(points: float, max_points: float, scale: int) -> float:
    """``points`` of ``max_points`` on a 0–``scale`` scale, one decimal (0 when nothing was given)."""
    return round(scale * points / max_points, 1) if max_points else 0.0


def class_rows(report, scale: int) -> tuple[list[str], list[list[Any]]]:
    """Header and rows of the students × questions table: Q1…Qn points ('' for a question not
    given), total points, the maximum, the grade on ``scale``."""
    quiz = report.quiz
    table, totals = report.table(), report.totals()
    header = ["student"] + [f"Q{i}" for i in range(1, len(quiz.questions) + 1)] + ["points", "max", f"grade_{scale}"]
    rows = []
    for s in report.students:
        t = totals[s]
        cells: list[Any] = [table[s][q.id].points if q.id in table[s] else "" for q in quiz.questions]
        rows.append([s, *cells, t["points"], t["max"], on_scale(t["points"], t["max"], scale)])
    return header, rows


def distribution(report) -> list[list[int]]:
    """Per question (quiz order): how many replies got 0, 1, 2 and 3 points."""
    out = []
    for q in report.quiz.questions:
        c = Counter(g.grade.points for g in report.graded if g.reply.question_id == q.id)
        out.append([c.get(p, 0) for p in range(MAX_POINTS + 1)])
    return out


def class_xlsx(report, scale: int) -> bytes:
    """class.xlsx: the students × questions sheet, and a chart of each question's grade
    distribution (a stacked column per question: replies with 0, 1, 2, 3 points)."""
    import xlsxwriter

    from ..i18n import _

    header, rows = class_rows(report, scale)
    buf = io.BytesIO()
    wb = xlsxwriter.Workbook(buf, {"in_memory": True, "strings_to_formulas": False, "strings_to_urls": False,
                                   "strings_to_numbers": False})
    bold = wb.add_format({"bold": True})
    ws = wb.add_worksheet("Class")
    for c, h in enumerate(header):
        ws.write_string(0, c, h, bold)
    for r, row in enumerate(rows, start=1):
        for c, v in enumerate(row):
            ws.write_number(r, c, v) if isinstance(v, (int, float)) else ws.write_string(r, c, str(v))
    ws.freeze_panes(1, 1)
    ws.set_column(0, 0, max([len("student"), *(len(str(r[0])) for r in rows)]) + 2)
    dist = distribution(report)
    ds = wb.add_worksheet("Distribution")
    ds.write_row(0, 0, ["question", *(f"{p} pts" for p in range(MAX_POINTS + 1))], bold)
    for i, counts in enumerate(dist, start=1):
        ds.write_string(i, 0, f"Q{i}")
        ds.write_row(i, 1, counts)
    chart = wb.add_chart({"type": "column", "subtype": "stacked"})
    colours = ("#d9534f", "#f0ad4e", "#5bc0de", "#5cb85c")
    for p in range(MAX_POINTS + 1):
        chart.add_series({"name": ["Distribution", 0, p + 1], "categories": ["Distribution", 1, 0, len(dist), 0],
                          "values": ["Distribution", 1, p + 1, len(dist), p + 1], "fill": {"color": colours[p]}})
    chart.set_title({"name": _("Points per question")})
    chart.set_x_axis({"name": _("Question")})
    chart.set_y_axis({"name": _("Replies"), "major_gridlines": {"visible": True}})
    ds.insert_chart(1, MAX_POINTS + 3, chart, {"x_scale": 1.5, "y_scale": 1.3})
    wb.close()
    return buf.getvalue()


def terminal_chart(report, width: int = 20) -> list[str]:
    """A compact chart of each question's grade distribution for the terminal: one line per
    question: per points level 0–3, how many replies got it and a bar (``0:2  ▇▇  1:1  ▇ …``), the
    longest ``width // 4`` blocks."""
    dist = distribution(report)
    most = max((max(c) for c in dist), default=0) or 1
    out = []
    for i, counts in enumerate(dist, start=1):
        if sum(counts):
            bars = "  ".join(f"{p}:{c:<3}{'▇' * round(width / 4 * c / most):<{width // 4}}"
                             for p, c in enumerate(counts))
            out.append(f"Q{i:<3} {bars}")
    return out


def _csv(header: list[str], rows: list[list[Any]]) -> str:
    from ..sheets import csv_text

    return csv_text(header, rows, "comma")


def student_feedback(report, student: str, scale: int) -> str:
    """One student's feedback file (Markdown, in the interface language): each question they were
    given with its points, verdict and feedback, their reply, and the total on ``scale``."""
    from ..i18n import _, verdict_word

    quiz = report.quiz
    row = report.table()[student]
    t = report.totals()[student]
    grade = f"{on_scale(t['points'], t['max'], scale):g}"
    lines = [f"# {quiz.title} — {student}", "",
             _("Total: {points}/{max} points · grade {grade}/{scale}").format(
                 points=t["points"], max=t["max"], grade=grade, scale=scale), ""]
    replies = {g.reply.question_id: g.reply.answer for g in report.graded if g.reply.student == student}
    for n, q in enumerate(quiz.questions, 1):
        g = row.get(q.id)
        if g is None:
            continue
        lines += [f"## {n}. {q.prompt}", "",
                  f"**{g.points}/{MAX_POINTS} · {verdict_word(g.verdict)}**", ""]
        reply = replies.get(q.id, "").strip()
        lines += [_("Your answer:"), "", *(f"> {ln}" for ln in (reply or "—").splitlines()), ""]
        lines += [g.feedback, ""]
    return "\n".join(lines).rstrip() + "\n"


def file_name(student: str) -> str:
    """A file name for a student's name: letters (accents kept), digits, '-', '_' and '.'; spaces as '_'."""
    name = re.sub(r"[^\w.\-]+", "_", student.strip(), flags=re.UNICODE).strip("._") or "student"
    return name[:80]


def moodle_csv(report, scale: int) -> str:
    """Moodle's grade import: the student, the grade on ``scale`` in a column named after the quiz,
    and the feedback (every question's points and feedback, one line)."""
    title = report.quiz.title
    header = ["student", f"{title} (0-{scale})", "feedback"]
    table, totals = report.table(), report.totals()
    nums = {q.id: i for i, q in enumerate(report.quiz.questions, 1)}
    rows = []
    for s in report.students:
        t = totals[s]
        fb = " | ".join(f"Q{nums[qid]} {g.points}/{MAX_POINTS}: {g.feedback}" for qid, g in
                        sorted(table[s].items(), key=lambda kv: nums[kv[0]]))
        rows.append([s, on_scale(t["points"], t["max"], scale), fb])
    return _csv(header, rows)


def write_class_files(report, out_dir: Path, scale: int = 10) -> dict[str, Path]:
    """class.csv, class.xlsx, moodle_grades.csv and students/<name>.md in ``out_dir`` (each written
    atomically), in the course's language where a student reads them. → name → path."""
    from ..export._common import quiz_lang
    from ..i18n import course
    from ..quiz import write_atomic
    from ..sheets import write_atomic_bytes

    check_scale(scale)
    paths = {"class_csv": out_dir / "class.csv", "class_xlsx": out_dir / "class.xlsx",
             "moodle": out_dir / "moodle_grades.csv", "students": out_dir / "students"}
    with course(quiz_lang(report.quiz)):
        write_atomic(paths["class_csv"], _csv(*class_rows(report, scale)))
        write_atomic_bytes(paths["class_xlsx"], class_xlsx(report, scale))
        write_atomic(paths["moodle"], moodle_csv(report, scale))
        paths["students"].mkdir(parents=True, exist_ok=True)
        used: set[str] = set()
        for s in report.students:
            name = file_name(s)
            while name.lower() in used:  # two names that make the same file name: keep both
                name += "_"
            used.add(name.lower())
            write_atomic(paths["students"] / f"{name}.md", student_feedback(report, s, scale))
    return paths


def replies_template(quiz: Quiz) -> str:
    """The replies CSV a class fills: one row per question with its number and text, the student
    and answer cells empty (copy the rows for each student). Headers in the course's language;
    kb grade reads them (Aluno,Questão,Resposta / Alumno,Pregunta,Respuesta)."""
    from ..export._common import quiz_lang
    from ..i18n import in_language

    lang = quiz_lang(quiz)
    header = ["student", "question_id", "question", "answer"] if lang == "en" else \
        [in_language(lang, "Student"), in_language(lang, "Question"), in_language(lang, "Question text"),
         in_language(lang, "Answer")]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for n, q in enumerate(quiz.questions, 1):
        w.writerow(["", n, q.prompt.replace("\n", " "), ""])
    return buf.getvalue()


def write_replies_template(quiz_file: Path, out: Path) -> Path:
    """Write :func:`replies_template` for the quiz in ``quiz_file`` to ``out`` (never over a file)."""
    from ..quiz import load_quiz, write_atomic

    if out.exists():
        raise InputError("{out}: already exists — the template is not written over it",
                         "name a new file (the class's replies may be in this one)",
                         out=out)
    write_atomic(out, replies_template(load_quiz(quiz_file)))
    return out
