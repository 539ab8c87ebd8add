"""Answer groups and a teacher's review with the real parts: the use-m3 embedder, a quiz file,
replies on disk and the real `kb grade` / `kb eval grader` command lines."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from kb.grading.base import make_grade
from kb.grading.groups import AnswerGroup, group_replies, normalise
from kb.grading.review import review_order
from kb.quiz import Question

from ..conftest import run_kb
from ..writing.test_export import xlsx_cells
from .test_grading import QUIZ, edit_gradebook, read_gradebook, write_csv

GIL_RIGHT = "Uma trava do interpretador: só uma thread executa bytecode Python por vez, o que limita o paralelismo."
GIL_WRONG = "É um compilador que deixa o Python mais rápido."
GIL_HALF = "Uma trava."


def _class(n_right=6, n_wrong=5, n_half=3) -> list[tuple[str, str, str]]:
    """A class where many students wrote the same few things (as real classes do)."""
    rows = [("student", "question_id", "answer")]
    k = 0
    for text, n in ((GIL_RIGHT, n_right), (GIL_WRONG, n_wrong), (GIL_HALF, n_half)):
        for i in range(n):
            k += 1
            # the same words with other case and punctuation: one group
            rows.append((f"S{k:02d}", "gil", text.upper() if i % 2 else text.rstrip(".") + "!"))
    rows.append(("S99", "gil", "Ele serializa as threads, então threads não ajudam em código que usa só CPU."))
    rows.append(("S01", "strat", "b"))
    return rows


def test_normalise_keeps_words_only():
    assert normalise("Uma TRAVA, só!") == normalise("uma trava so") == "uma trava so"


def test_groups_join_the_same_words_and_keep_singletons():
    replies = ["Uma trava.", "UMA TRAVA", "uma trava!", "Outra coisa bem diferente", "x"]
    vecs = np.eye(5, dtype=np.float32)  # orthogonal: only identical words can group
    gs = group_replies(["q"] * 5, replies, vecs)
    assert gs[0] == AnswerGroup("q", (0, 1, 2)) and gs[0].representative == 0
    assert sorted(g.members for g in gs[1:]) == [(3,), (4,)]


def test_groups_join_near_meaning_only_when_the_letters_are_close_too():
    v = np.array([[1.0, 0.0], [0.99, 0.14], [0.99, 0.14]], dtype=np.float32)  # cosine 0.99 with the first
    gs = group_replies(["q"] * 3, ["uma trava do interpretador", "uma trava no interpretador",
                                   "a lock of the interpreter"], v)
    assert [g.members for g in gs] == [(0, 1), (2,)]
    # and never across questions
    assert len(group_replies(["a", "b"], ["igual", "igual"], np.ones((2, 2)))) == 2


def test_review_order_puts_the_group_that_tells_most_first_and_not_two_alike_in_a_row():
    q = Question("short", "p", "a", (), id="q")
    sure, unsure = make_grade(q, 3.0, ""), make_grade(q, 1.5, "", score=1.45 / 3)
    # three wordings of one answer (two groups: 0-1-2 and 3) and one reply unlike them (4)
    replies = ["uma trava do interpretador", "Uma trava do interpretador!", "uma trava do interpretador.",
               "uma trava no interpretador", "compila o código para C"]
    v = np.array([[1, 0], [1, 0], [1, 0], [0.98, 0.2], [0, 1]], dtype=np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    groups = [AnswerGroup("q", (0, 1, 2)), AnswerGroup("q", (3,)), AnswerGroup("q", (4,))]
    order = review_order(groups, [sure, sure, sure, unsure, unsure], replies, v)
    # the largest group first; then the reply unlike it, not the near copy of the group already decided
    assert [it.group.members for it in order] == [(0, 1, 2), (4,), (3,)]
    assert order[0].priority > order[1].priority > order[2].priority
    assert order[1].why == "between two grades" and order[1].kb_points == 2


@pytest.fixture()
def quiz_file(tmp_path) -> Path:
    p = tmp_path / "semana3.json"
    p.write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
    return p


def _review(out: Path) -> list[dict[str, str]]:
    with (out / "grades-review.csv").open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_kb_grade_writes_the_review_sheet_and_a_teachers_group_grades_reach_every_member(quiz_file, tmp_path):
    replies = write_csv(tmp_path / "replies.csv", _class())
    out = tmp_path / "reports"
    r = run_kb(["grade", str(quiz_file), str(replies), "--out", str(out)], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "grade these 2 groups (covering " in r.stderr and "grades-review.csv" in r.stderr
    sheet = _review(out)
    # four groups of the free-text question, the mcq never in review; the teacher column is empty
    assert [row["replies"] for row in sheet][:3] == ["6", "5", "3"] or len(sheet) == 4
    assert {row["question_id"] for row in sheet} == {"gil"} and all(row["teacher"] == "" for row in sheet)
    wrong = next(row for row in sheet if "compilador" in row["representative"].lower())
    assert wrong["replies"] == "5" and wrong["students"].count(";") == 4
    review_sheet = xlsx_cells(out / "grades.xlsx", 3)  # Grades, Students, Review
    assert review_sheet[0] == ["rank", "group", "question_id", "replies", "kb_points", "why", "representative",
                               "students", "teacher"]
    assert len(review_sheet) == len(sheet) + 1
    manifest = json.loads((out / "grades.json").read_text(encoding="utf-8"))["review"]
    assert len(manifest[wrong["group"]]) == 5

    # the teacher grades one group (and writes nonsense in another) and re-runs
    rows = _review(out)
    for row in rows:
        if row["group"] == wrong["group"]:
            row["teacher"] = "0"
        elif "trava" == normalise(row["representative"]).split(" ")[-1]:
            row["teacher"] = "muito"
    with (out / "grades-review.csv").open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    r = run_kb(["grade", str(quiz_file), str(replies), "--out", str(out), "--json"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "teacher 'muito' is not 0–3 — ignored" in r.stderr
    assert "your grades of 1 answer group gave 5 replies their grade" in r.stderr
    data = json.loads(r.stdout)
    book = read_gradebook(out)
    for student in wrong["students"].split("; "):
        assert data["students"][student]["grades"]["gil"]["points"] == 0
        assert book[(student, "gil")]["grader"] == "override" and book[(student, "gil")]["override"] == "0"
        assert f"review group {wrong['group']}" in book[(student, "gil")]["feedback"]
    assert wrong["group"] not in {row["group"] for row in _review(out)}  # graded: off the review list
    # a third run keeps them (they are overrides in grades.csv now) and says nothing changed
    r = run_kb(["grade", str(quiz_file), str(replies), "--out", str(out), "--json"], cwd=tmp_path)
    assert all(json.loads(r.stdout)["students"][s]["grades"]["gil"]["points"] == 0
               for s in wrong["students"].split("; "))


def test_grade_killed_after_grades_json_leaves_no_fake_override(quiz_file, tmp_path):
    """Fault: a run killed after swapping in grades.json but before grades.csv. The old csv's points
    differ from the new json's; they must not be read as a teacher's override."""
    replies = write_csv(tmp_path / "replies.csv", _class(2, 2, 1))
    out = tmp_path / "reports"
    assert run_kb(["grade", str(quiz_file), str(replies), "--out", str(out)], cwd=tmp_path).returncode == 0
    # what the killed run left: its grades.json (other points), the old grades.csv and manifest
    data = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    g = data["students"]["S01"]["grades"]["gil"]
    g["points"] = (g["points"] + 1) % 4
    (out / "grades.json").write_text(json.dumps(data), encoding="utf-8")
    r = run_kb(["grade", str(quiz_file), str(replies), "--out", str(out), "--json"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["overrides_kept"] == 0
    assert read_gradebook(out)[("S01", "gil")]["grader"] != "override"
    # a points cell the teacher edits still counts
    edit_gradebook(out, {("S01", "strat"): {"points": "1"}})
    r = run_kb(["grade", str(quiz_file), str(replies), "--out", str(out), "--json"], cwd=tmp_path)
    assert json.loads(r.stdout)["overrides_kept"] == 1


def test_killed_grade_leaves_no_temp_files(quiz_file, tmp_path):
    """Fault: what a killed run wrote aside is removed by the next run, and a run that fails while
    writing removes its own (here: a report name taken by a folder)."""
    replies = write_csv(tmp_path / "replies.csv", _class(2, 2, 1))
    out = tmp_path / "reports"
    out.mkdir()
    (out / ".kb-report-abc123").write_bytes(b"half a report")
    (out / ".grades.csv.x1y2z3").write_bytes(b"half a gradebook")  # write_atomic's, from an older kb
    (out / "..grades-manifest.json.q9w8e7").write_bytes(b"{")
    assert run_kb(["grade", str(quiz_file), str(replies), "--out", str(out)], cwd=tmp_path).returncode == 0
    assert sorted(p.name for p in out.iterdir()) == [".grades-manifest.json", "class.csv", "class.xlsx",
                                                     "grades-review.csv", "grades.csv", "grades.json", "grades.md",
                                                     "grades.xlsx", "moodle_grades.csv", "students"]
    (out / "grades.md").unlink()
    (out / "grades.md").mkdir()
    r = run_kb(["grade", str(quiz_file), str(replies), "--out", str(out)], cwd=tmp_path)
    assert r.returncode != 0
    assert not [p for p in out.iterdir() if p.name.startswith(".kb-report-")]


def test_eval_grader_review_budget(tmp_path):
    rows = [("question", "reference", "answer", "score")]
    q, ref = QUIZ["questions"][0]["prompt"], QUIZ["questions"][0]["answer"]
    for i in range(8):
        rows += [(q, ref, GIL_RIGHT + ("" if i % 2 else "!"), 3), (q, ref, GIL_WRONG, 0), (q, ref, GIL_HALF, 1)]
    data = write_csv(tmp_path / "data.csv", rows)
    r = run_kb(["eval", "grader", str(data), "--offline", "--review-budget", "5,20", "--json"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert [x["budget_pct"] for x in out["review"]] == [5, 20] and out["review"][0]["read"] == 1
    # three groups of 8: at 20 % (up to 5 decisions) every reply is the teacher's
    assert out["review"][1]["qwk"] == pytest.approx(1.0) and out["review"][1]["covered"] == 24
    assert [x["read"] for x in out["review_random"]] == [1, 3]  # only three groups to read
    r = run_kb(["eval", "grader", str(data), "--offline", "--review-budget", "5,x"], cwd=tmp_path)
    assert r.returncode == 3 and "bad --review-budget '5,x'" in r.stderr



@pytest.fixture
def read_only_folder(tmp_path):
    """A read-only tmpfs (root writes through chmod, not through a read-only mount); skipped where
    mount is not allowed."""
    import os
    import subprocess

    mnt = tmp_path / "ro"
    mnt.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(mnt)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a read-only tmpfs here (needs root)")
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_grade_out_read_only_is_refused_before_any_work(quiz_file, tmp_path, read_only_folder):
    """Fault: `kb grade --out` in a read-only folder: exit 3 naming the folder, before grading."""
    replies = write_csv(tmp_path / "replies.csv", _class(1, 1, 1))
    r = run_kb(["grade", str(quiz_file), str(replies), "--out", str(read_only_folder / "reports")], cwd=tmp_path)
    assert r.returncode == 3
    assert f"--out {read_only_folder / 'reports'}: {read_only_folder} is read-only" in r.stderr
    assert "Traceback" not in r.stderr


def test_grade_out_naming_a_file_is_refused_before_any_work(quiz_file, tmp_path):
    """Fault: `kb grade --out grades.csv` (a file): exit 3 with the fix, nothing written."""
    replies = write_csv(tmp_path / "replies.csv", _class(1, 1, 1))
    r = run_kb(["grade", str(quiz_file), str(replies), "--out", "grades.csv"], cwd=tmp_path)
    assert r.returncode == 3 and "--out grades.csv: names a file" in r.stderr
    assert not (tmp_path / "grades.csv").exists()


def test_calibrate_k_names_the_questions_it_leaves_out_and_reports_on_the_rest(tmp_path):
    rows = [("question_id", "question", "reference", "answer", "score")]
    ref = "Uma trava do interpretador que deixa uma thread por vez."
    rows += [("a", "O que é o GIL?", ref, f"Uma trava global {i}" if i % 2 else f"Um banco {i}", 3 * (i % 2))
             for i in range(8)]
    rows += [("b", "O que faz o Map?", "Gera pares chave-valor.", f"Gera pares {i}", 3) for i in range(3)]
    data = write_csv(tmp_path / "d.csv", rows)
    r = run_kb(["eval", "grader", str(data), "--scale", "0-3", "--calibrate-k", "5", "--json"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "--calibrate-k 5: 1 question(s) left out of the calibration report, each with 5 replies or fewer" \
        in r.stderr and "b (3)" in r.stderr
    c = json.loads(r.stdout)["calibration"]
    assert c["left_out"] == [{"question": "b", "rows": 3}]
    assert c["default"]["n"] == 3 and c["calibrated"]["n"] == 3  # question a's 8 rows less its 5 graded ones
    # every question left out: the main report still stands, and kb says why there is no calibration report
    r = run_kb(["eval", "grader", str(data), "--scale", "0-3", "--calibrate-k", "10", "--json"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert ("--calibrate-k 10: no calibration report — every question has 10 replies or fewer (at most 8), "
            "none would remain to report on; use a k below 8") in r.stderr
    out = json.loads(r.stdout)
    assert out["n"] == 11 and out["calibration"]["left_out"] == [{"question": "a", "rows": 8},
                                                                 {"question": "b", "rows": 3}]
    r = run_kb(["eval", "grader", str(data), "--scale", "0-3", "--calibrate-k", "10"], cwd=tmp_path)
    assert r.returncode == 0 and "teacher calibration" not in r.stdout and "confusion" in r.stdout


def test_one_binary_sheet_or_nul_byte_does_not_stop_the_class(quiz_file, tmp_path):
    """Fault: a binary file among the sheets, a NUL byte in one sheet's answer and in one CSV row:
    those are skipped and named, the rest is graded, exit 1."""
    sheets = tmp_path / "sheets"
    sheets.mkdir()
    (sheets / "Ana.md").write_text("## gil\nUma trava global do interpretador.\n", encoding="utf-8")
    (sheets / "Bia.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 20)
    (sheets / "Caio.md").write_bytes(b"## strat\nb\n## gil\nUma tra\x00va.\n")
    r = run_kb(["grade", str(quiz_file), str(sheets), "--out", str(tmp_path / "o1"), "--json"], cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert "Bia.txt: looks like a binary file, not text — sheet skipped" in r.stderr
    assert "Caio.md:3: a NUL byte in the answer (a damaged export) — block skipped" in r.stderr
    students = json.loads(r.stdout)["students"]
    assert set(students) == {"Ana", "Caio"} and set(students["Caio"]["grades"]) == {"strat"}
    rows = write_csv(tmp_path / "r.csv", [("student", "question_id", "answer"), ("Ana", "gil", "uma trava"),
                                          ("Bia", "gil", "uma\0 trava"), ("Caio", "strat", "b")])
    r = run_kb(["grade", str(quiz_file), str(rows), "--out", str(tmp_path / "o2"), "--json"], cwd=tmp_path)
    assert r.returncode == 1 and "r.csv:3: a NUL byte in the answer (a damaged export) — row skipped" in r.stderr
    assert set(json.loads(r.stdout)["students"]) == {"Ana", "Caio"}


def test_a_1mb_reply_is_graded_on_its_first_characters(quiz_file, tmp_path):
    """Fault: a 1 MB reply (113 s and 3.6 GB when graded whole) is graded on its first 5,000
    characters, with a note; the report keeps it whole. Its speed is measured in bench/, not here."""
    huge = "trava global e paralelismo " * 40000
    rows = write_csv(tmp_path / "r.csv", [("student", "question_id", "answer"), ("Ana", "gil", huge),
                                          ("Bia", "gil", "uma trava")])
    r = run_kb(["grade", str(quiz_file), str(rows), "--out", str(tmp_path / "o"), "--json"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert any(n.endswith("r.csv:2: answer of 1,080,000 characters from Ana — graded on its first 5,000")
               for n in data["notes"])
    assert data["students"]["Ana"]["grades"]["gil"]["answer"] == huge


def test_kb_grade_review_in_the_terminal_saves_each_key_and_applies_them(quiz_file, tmp_path):
    replies = write_csv(tmp_path / "replies.csv", _class())
    out = tmp_path / "reports"
    # first group: 0; second: a wrong key, then skipped; third: 2; at the fourth, quit
    r = run_kb(["grade", str(quiz_file), str(replies), "--out", str(out), "--review", "--json"], cwd=tmp_path,
               input="0\nmuito\ns\n2\nq\n")
    assert r.returncode == 0, r.stderr
    assert "group 1 of 4" in r.stderr and "type 0-3, s or q" in r.stderr and "group 4 of 4" in r.stderr
    assert "your grades of 2 answer groups gave" in r.stderr
    first = json.loads(r.stdout[: r.stdout.index("\n}\n") + 2])  # the report before the review, then after
    after = json.loads(r.stdout[r.stdout.index("\n}\n") + 3:])
    assert first["overrides_kept"] == 0 and after["overrides_kept"] > 0
    book = read_gradebook(out)
    assert sum(row["grader"] == "override" for row in book.values()) == after["overrides_kept"]
