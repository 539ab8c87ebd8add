"""Reading a class's replies: one CSV (``student``, ``question_id``, ``answer``; pt/es headers
too), or a folder of per-student ``.md``/``.txt`` sheets with one ``## <question id>`` block per
question. Bad rows are listed with the file, the line and the fix, never fatal.

Below :mod:`kb.grading.gradebook` (which grades what is read here), :mod:`kb.grading.calibration`
and :mod:`kb.grading.review` (which read CSV files the same way), so none of them imports another
to read a file.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from ..errors import InputError, Phrase
from ..i18n import N_, Message
from ..quiz import Quiz


def read_text_file(path: Path) -> tuple[str, list[str]]:
    """Text and notes about it: UTF-8, or Windows-1252/Latin-1 with a note naming the line
    (:func:`kb.readers.decode_text`, as for course materials)."""
    from ..readers import decode_text

    try:
        data = path.read_bytes()
    except OSError as e:
        raise InputError("{path}: cannot read ({error})",
                         "check the path and its permissions",
                         path=path, error=e.strerror) from e
    notes: list[str] = []
    nuls = data.count(b"\x00")
    # a few stray NUL bytes in a text file (a damaged export): the rows holding them are named and skipped
    if nuls and nuls <= max(8, len(data) // 100):
        try:
            data.replace(b"\x00", b"").decode("utf-8-sig")
            data = data.replace(b"\x00", NUL_MARK.encode("utf-8"))
        except UnicodeDecodeError:
            pass  # not UTF-8 text: binary
    text = decode_text(data, path, notes)
    return text, [Message("{path}: {note}", path=path, note=n) for n in notes]


NUL_MARK = "\uffff"  # a NUL byte of a replies file, kept as a noncharacter so that its row is skipped and named


def read_csv(path: Path, required: Sequence[str],
             aliases: dict[str, str] | None = None) -> tuple[list[dict[str, Any]], list[str]]:
    """Rows as dicts (keys lower-cased, ``_line`` = the row's first line in the file; a header in
    ``aliases`` — ``aluno`` — read as the column it names — ``student``).
    Missing columns are an error that names them and the columns found."""
    text, notes = read_text_file(path)
    csv.field_size_limit(max(csv.field_size_limit(), len(text) + 1))  # one long reply must not stop the class
    header_line = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=header_line.count)  # spreadsheets export ';' in pt/es locales
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter if header_line.count(delimiter) else ",")
    header = [(h or "").strip().lower() for h in (reader.fieldnames or [])]
    header = [(aliases or {}).get(h, h) if (aliases or {}).get(h) not in header else h for h in header]
    missing = [c for c in required if c not in header]
    if missing:
        raise InputError("{path}:1: missing column(s) {missing} (found: {found})",
                         "the first line must name the columns: {required}",
                         path=path, missing=", ".join(missing), found=", ".join(header) or Phrase(N_("nothing")),
                         required=', '.join(required))
    reader.fieldnames = header
    rows = []
    line = reader.line_num
    for raw in reader:
        row = {k: (v or "") for k, v in raw.items() if k}
        row["_line"] = line + 1
        line = reader.line_num
        rows.append(row)
    return rows, notes


@dataclass(frozen=True)
class Reply:
    """One student's reply to one question, with where it was read (``file:line``) for messages."""
    student: str
    question_id: str
    answer: str
    where: str  # file:line, for messages


@dataclass
class Replies:
    """The replies read from a CSV or a folder of sheets, with the rows skipped (``problems``, exit 1)
    and notes on rows graded anyway."""
    items: list[Reply] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # file:line: skipped, why, the fix
    notes: list[str] = field(default_factory=list)  # file:line: graded, but worth knowing (empty, encoding)


def _resolve_qid(quiz: Quiz, ref: str) -> str | None:
    ref = ref.strip()
    if quiz.question(ref):
        return ref
    if ref.isdigit() and 1 <= int(ref) <= len(quiz.questions):
        return quiz.questions[int(ref) - 1].id
    return None


def read_replies(path: Path, quiz: Quiz) -> Replies:
    """Replies from a CSV file or a folder of per-student sheets; bad rows are listed, not fatal."""
    if not path.exists():
        raise InputError("{path}: no such file or folder",
                         "pass the replies CSV or the folder of answer sheets",
                         path=path)
    out = Replies()
    if path.is_dir():
        sheets = sorted(p for p in path.iterdir() if p.suffix.lower() in (".md", ".txt", ".csv") and p.is_file())
        if not sheets:
            raise InputError("{path}: no .md/.txt/.csv answer sheets in this folder",
                             "one file per student, named after the student, with '## <question id>' blocks",
                             path=path)
        for sheet in sheets:
            try:
                part = _read_csv_replies(sheet, quiz) if sheet.suffix.lower() == ".csv" else _read_sheet(sheet, quiz)
            except InputError as e:  # one unreadable sheet (binary, missing columns) must not stop the class
                out.problems.append(Message("{error} — sheet skipped; {fix}", error=e,
                                            fix=Message(e.hint_template, **e.fields)))
                continue
            out.items += part.items
            out.problems += part.problems
            out.notes += part.notes
        return out
    return _read_csv_replies(path, quiz)


# the replies CSV's columns as a pt/es teacher heads them (Aluno,Questão,Resposta / Alumno,Pregunta,Respuesta)
REPLY_COLUMN_NAMES = {
    "aluno": "student", "aluna": "student", "estudante": "student", "alumno": "student", "alumna": "student",
    "estudiante": "student", "nome": "student", "nombre": "student",
    "questão": "question_id", "questao": "question_id", "pergunta": "question_id", "pregunta": "question_id",
    "número": "question_id", "numero": "question_id", "number": "question_id",
    "nº": "question_id", "n.º": "question_id",
    "resposta": "answer", "respuesta": "answer", "reply": "answer",
}


def _read_csv_replies(path: Path, quiz: Quiz) -> Replies:
    rows, notes = read_csv(path, required=("student", "question_id", "answer"), aliases=REPLY_COLUMN_NAMES)
    out = Replies(notes=notes)
    for r in rows:
        where = f"{path}:{r['_line']}"
        student = r["student"].strip()
        if not student and not r["answer"].strip():
            continue  # a blank row (a template's row nobody filled) is nothing to grade, not a problem
        qid = _resolve_qid(quiz, r["question_id"])
        if not student:
            out.problems.append(Message("{where}: no student name — row skipped; fill the student column", where=where))
            continue
        if qid is None:
            out.problems.append(Message("{where}: unknown question id '{qid}' — row skipped; use an id from the quiz "
                                        "(kb quiz show) or its number 1–{n}", where=where,
                                        qid=r["question_id"].strip(), n=len(quiz.questions)))
            continue
        if NUL_MARK in r["answer"] or NUL_MARK in student:
            out.problems.append(Message("{where}: a NUL byte in the answer (a damaged export) — row skipped; "
                                        "re-export the replies as UTF-8 text", where=where))
            continue
        if not r["answer"].strip():
            out.notes.append(Message("{where}: empty answer from {student} for {qid} — graded 0", where=where,
                                     student=student, qid=qid))
        out.items.append(Reply(student, qid, r["answer"], where))
    return out


_BLOCK = re.compile(r"^#{1,3}\s*(?:q(?:uest(?:ion|ão|ao|ión))?\s*)?([A-Za-z0-9]+)\s*$", re.IGNORECASE | re.MULTILINE)


def _read_sheet(path: Path, quiz: Quiz) -> Replies:
    text, notes = read_text_file(path)
    out = Replies(notes=notes)
    student = path.stem
    marks = list(_BLOCK.finditer(text))
    if not marks:
        out.problems.append(Message("{path}:1: no '## <question id>' headings — sheet skipped; start each answer "
                                    "with a line '## q…' (the id) or '## 3' (the number)", path=path))
        return out
    for m, nxt in zip(marks, marks[1:] + [None], strict=True):
        line = text[: m.start()].count("\n") + 1
        raw_id = m.group(1)
        qid = _resolve_qid(quiz, raw_id) or _resolve_qid(quiz, "q" + raw_id if not raw_id.startswith("q") else raw_id)
        answer = text[m.end() : nxt.start() if nxt else len(text)].strip()
        if qid is None:
            out.problems.append(Message("{path}:{line}: unknown question '{raw_id}' — block skipped; use an id "
                                        "from the quiz or its number 1–{n}", path=path, line=line, raw_id=raw_id,
                                        n=len(quiz.questions)))
            continue
        if NUL_MARK in answer:
            out.problems.append(Message("{path}:{line}: a NUL byte in the answer (a damaged export) — block skipped; "
                                        "re-export the replies as UTF-8 text", path=path, line=line))
            continue
        if not answer:
            out.notes.append(Message("{path}:{line}: empty answer for {qid} — graded 0", path=path, line=line, qid=qid))
        out.items.append(Reply(student, qid, answer, f"{path}:{line}"))
    return out
