"""Study sessions and spaced repetition with real parts: the real `kb study` driven in a
pseudo-terminal (pexpect) at 80x24, a real SQLite database shared by two processes, FSRS from
the `fsrs` package, and the real grader."""

from __future__ import annotations

import datetime as dt
import json
import multiprocessing
import os
import re
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from kb.grading.base import make_grade
from kb.quiz import load_quiz
from kb.study import Item, StudyDB, matches_topic, rating_for

from ..conftest import run_kb
from ..grading.test_grading import QUIZ

pexpect = pytest.importorskip("pexpect")

ANSI_COLOUR = re.compile(r"\x1b\[[0-9;]*(3[0-9]|9[0-7]|38;5;\d+)m")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture
def study_ws(tmp_path, monkeypatch):
    (tmp_path / "quizzes").mkdir()
    (tmp_path / "quizzes" / "semana3.json").write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _spawn(ws: Path, args: list[str], **env_extra) -> pexpect.spawn:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KB_", "OPENAI_", "NO_COLOR"))}
    env.update({"LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"})
    env.update(env_extra)
    return pexpect.spawn(sys.executable, ["-m", "kb.cli", *args], cwd=str(ws), env=env, encoding="utf-8",
                         timeout=120, dimensions=(24, 80), use_poll=True)  # poll: select() fails past fd 1024


def _progress(ws: Path) -> dict:
    r = run_kb(["progress", "--json"], cwd=ws)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


# --------------------------------------------------------------------------- end to end in a pty

def test_study_session_in_a_pseudo_terminal(study_ws):
    child = _spawn(study_ws, ["study", "--new", "5"])
    out = []
    child.logfile_read = _Sink(out)
    # 1: short (GIL) — a hint, then a two-line answer with accents
    child.expect("1/5 · short · new")
    child.expect("> ")
    child.sendline(":h")
    child.expect(r"hint \(sources/003_54b53da49ba13546.txt · GIL\)")
    child.expect("> ")
    child.sendline("É uma trava do interpretador: só uma thread executa bytecode Python por vez,")
    child.expect(r"\. ")
    child.sendline("então não há paralelismo de threads em código que usa a CPU.")
    child.expect(r"\. ")
    child.sendline("")
    child.expect(r"(correct|partial) [23]/3")
    child.expect("Model answer:")
    child.expect("Source: sources/003_54b53da49ba13546.txt · GIL")
    child.expect("I was right")
    child.sendline("")
    # 2: short yes/no question — answered wrong, then "I was right"
    child.expect("2/5 · short")
    child.expect("> ")
    child.sendline("Não, só na mesma GPU.")
    child.expect(r"\. ")
    child.sendline("")
    child.expect("incorrect 0/3")
    child.expect("I was right")
    child.sendline("r")
    child.expect("marked right")
    # 3: mcq — skip
    child.expect("3/5 · mcq")
    child.expect("> ")
    child.sendline(":s")
    child.expect("skipped")
    # 4: tf — one line, Spanish word
    child.expect("4/5 · tf")
    child.expect("> ")
    child.sendline("falso")
    child.expect("correct 3/3")
    child.expect("I was right")
    child.sendline("q")
    child.expect("session: 3 answered")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = ANSI.sub("", "".join(out))
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "É uma trava" in text  # non-ASCII echoed back intact

    p = _progress(study_ws)
    assert p["reviewed"] == 3 and p["reviews"] == 3 and p["new"] == 2 and p["streak"] == 1
    db = sqlite3.connect(study_ws / ".kb" / "study.sqlite")
    rows = dict(db.execute("SELECT qid, last_points FROM cards").fetchall())
    assert rows["gpu"] == 3 and rows["spark"] == 3  # the override stuck
    assert db.execute("SELECT grader, overridden FROM reviews WHERE qid='gpu'").fetchone() == ("override", 1)
    replies = [r for (r,) in db.execute("SELECT reply FROM reviews WHERE qid='gil'")]
    assert replies[0].startswith("É uma trava") and "\n" in replies[0]

    # the next session: nothing due yet, only the two new questions are offered
    child = _spawn(study_ws, ["study"])
    child.expect("1/2 · mcq · new")
    child.sendline(":q")
    child.expect(pexpect.EOF)


def test_no_colour_with_NO_COLOR_and_plain_text_when_piped(study_ws):
    child = _spawn(study_ws, ["study", "quizzes/semana3.json", "--topic", "estratégia", "--new", "1"], NO_COLOR="1")
    out = []
    child.logfile_read = _Sink(out)
    child.expect("1/1 · mcq")
    child.expect("> ")
    child.sendline("b")
    child.expect("correct 3/3")
    child.sendline("")
    child.expect(pexpect.EOF)
    assert not ANSI_COLOUR.search("".join(out))
    # piped: answers come from stdin, no escape codes at all
    r = run_kb(["study", "--topic", "all-reduce"], cwd=study_ws, input="o All-Reduce\n\n")
    assert r.returncode == 0, r.stderr
    assert "correct 3/3" in r.stdout and not ANSI.search(r.stdout)


def _answer_first_of_five(ws: Path, reply: str) -> pexpect.spawn:
    """A session of 5 questions: answer the first (free text), go on, stop at the second's prompt."""
    child = _spawn(ws, ["study", "--new", "5"])
    child.expect("1/5")
    child.expect("> ")
    child.sendline(reply)
    child.expect(r"\. ")
    child.sendline("")
    child.expect("I was right")
    child.sendline("")
    child.expect("2/5")
    child.expect("> ")
    return child


def test_killed_session_keeps_graded_answers(study_ws):
    child = _answer_first_of_five(study_ws, "Uma trava que deixa uma thread por vez.")
    child.send("Sim, o valor é transf")  # half-typed when the terminal dies
    child.kill(9)
    child.close(force=True)
    p = _progress(study_ws)
    assert p["reviewed"] == 1 and p["reviews"] == 1
    db = sqlite3.connect(study_ws / ".kb" / "study.sqlite")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_ctrl_c_ends_the_session_and_saves(study_ws):
    child = _answer_first_of_five(study_ws, "a")  # free text "a": graded (0) and saved
    child.sendintr()
    child.expect("session: 1 answered")
    child.expect(pexpect.EOF)
    assert _progress(study_ws)["reviewed"] == 1


def test_study_generates_a_quiz_when_there_is_none(ingested, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(ingested, ws)
    child = _spawn(ws, ["study", "--new", "2"])
    child.expect("generating 10 questions")
    child.expect("1/2")
    child.sendline(":q")
    child.expect(pexpect.EOF)
    assert len(load_quiz(ws / "quizzes" / "course.json").questions) >= 5


def test_study_without_quiz_or_knowledge_base_names_the_fix(tmp_path):
    r = run_kb(["study"], cwd=tmp_path)
    assert r.returncode == 4 and "kb ingest sources/" in r.stderr


class _Sink:
    def __init__(self, out: list[str]) -> None:
        self.out = out

    def write(self, s: str) -> None:
        self.out.append(s)

    def flush(self) -> None:
        pass


# --------------------------------------------------------------------------- scheduling and state

def test_rating_follows_the_grade():
    quiz = _quiz()
    short, mcq = quiz.question("gil"), quiz.question("strat")
    assert [rating_for(short, make_grade(short, p, "")) for p in (0, 1, 2, 3)] == [1, 1, 2, 3]
    assert [rating_for(mcq, make_grade(mcq, p, "", grader="exact")) for p in (0, 3)] == [1, 3]
    assert rating_for(short, make_grade(short, 0, "", grader="override")) == 3


def _quiz():
    import tempfile

    p = Path(tempfile.mkdtemp()) / "q.json"
    p.write_text(json.dumps(QUIZ), encoding="utf-8")
    return load_quiz(p)


def test_schedule_due_selection_override_and_progress(tmp_path):
    quiz = _quiz()
    db = StudyDB(tmp_path / "study.sqlite")
    t0 = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.timezone.utc)
    items = db.select([("q.json", quiz)], new=3, at=t0)
    assert [i.question.id for i in items] == ["gil", "gpu", "strat"] and all(i.is_new for i in items)
    gil, gpu, strat = items
    db.record(gil, make_grade(gil.question, 3, ""), "ok", at=t0)
    rid, _ = db.record(gpu, make_grade(gpu.question, 0, ""), "não", at=t0)
    db.record(strat, make_grade(strat.question, 3, "", grader="exact"), "b", at=t0)
    # a day later everything answered is due again (learning steps are minutes), wrong one first
    later = t0 + dt.timedelta(days=1)
    due = db.select([("q.json", quiz)], new=0, at=later)
    assert {i.question.id for i in due} == {"gil", "gpu", "strat"}
    # graduate "gil" with good answers on later days: its interval grows
    t, dues = later, []
    for _ in range(3):
        _, d = db.record(gil, make_grade(gil.question, 3, ""), "ok", at=t)
        dues.append(dt.datetime.fromisoformat(d) - t)
        t = dt.datetime.fromisoformat(d) + dt.timedelta(hours=1)
    assert dues[-1] > dues[0] and dues[-1] > dt.timedelta(days=3)
    # "I was right" redoes the wrong review as Good
    before = db.due_map()["gpu"]
    after = db.override(rid, gpu, make_grade(gpu.question, 3, "", grader="override"))
    assert after > before
    p = db.progress([("q.json", quiz)], at=later)
    assert p["reviewed"] == 3 and p["new"] == 2 and p["reviews"] == 6
    assert {b["source"] for b in p["sources"]} >= {"sources/003_54b53da49ba13546.txt"}
    assert p["due"] == 2  # gpu and strat; gil was rescheduled beyond ``later``


def test_topic_filter():
    quiz = _quiz()
    assert matches_topic(quiz.question("allred"), "all-reduce")
    assert matches_topic(quiz.question("strat"), "ESTRATEGIA")
    assert not matches_topic(quiz.question("gil"), "all-reduce")


def _hammer(path: str, worker: int, n: int) -> None:
    quiz = _quiz()
    db = StudyDB(Path(path))
    q = quiz.questions[: 3]
    for i in range(n):
        item = Item(q[(i + worker) % 3], "q.json")
        db.record(item, make_grade(item.question, (i + worker) % 4, ""), f"w{worker}-{i}")


def test_two_sessions_at_once_do_not_corrupt_the_state(tmp_path):
    path = tmp_path / "study.sqlite"
    StudyDB(path).close()
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_hammer, args=(str(path), w, 40)) for w in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    db = sqlite3.connect(path)
    assert db.execute("SELECT COUNT(*) FROM reviews").fetchone()[0] == 80
    assert db.execute("SELECT SUM(reps) FROM cards").fetchone()[0] == 80  # no lost update
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
