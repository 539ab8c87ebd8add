"""The Python API (kb.open): the same calls the commands make, on a real store in a tmp folder."""

from __future__ import annotations

import csv
import shutil

import pytest

import kb
from kb.api import Result
from kb.errors import ExitCode, InputError, MissingStoreError

from ..conftest import ROOT, SOURCES


def test_result_exit_code_is_one_rule_for_every_partial_failure():
    assert Result(None).exit_code == ExitCode.OK and Result(None).ok
    assert Result(None, problems=["a.pdf: encrypted"]).exit_code == ExitCode.FAILED
    assert Result(None, problems=["x"], backend_failure="LLM down").exit_code == ExitCode.BACKEND
    assert Result(None, backend_failure="LLM down", interrupted=True).exit_code == ExitCode.INTERRUPTED
    with pytest.raises(kb.errors.KbError) as e:
        Result(None, problems=["a.pdf: encrypted"]).raise_if_failed()
    assert e.value.exit_code == ExitCode.FAILED and "a.pdf" in e.value.message


def test_open_ingest_search_ask_generate_grade_study(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "course").mkdir()
    shutil.copy(next(SOURCES.glob("001_*.txt")), tmp_path / "course" / "notas.txt")  # the ch. 12 summary
    (tmp_path / "course" / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    course = kb.open(tmp_path / ".kb")
    with pytest.raises(MissingStoreError):
        course.search("gradientes")

    result = course.ingest([tmp_path / "course"])
    assert result.exit_code == ExitCode.FAILED  # the broken PDF; the notes are in
    assert [p for p in result.problems if "broken.pdf" in p]
    assert [r["source"] for r in course.sources()] == ["course/notas.txt"]

    hits = course.search("como alocar só uma parte da memória da GPU?", k=3)
    assert any("per_process_gpu_memory_fraction" in h.chunk.text for h in hits)
    assert all(0 < h.score <= 1 for h in hits)
    answer = course.ask("Como alocar só uma fração da memória da GPU?", offline=True)
    assert "memória" in answer.text and answer.to_json()["passages"]

    gen = course.generate_quiz(n=3, out="quizzes/notas.json", offline=True)
    assert gen.ok and [p.name for p in gen.written] == ["notas.json"]
    quiz = gen.value.quiz
    assert gen.value.path.name == "notas.json"
    assert quiz.questions
    with pytest.raises(InputError, match="exists"):
        course.generate_quiz(n=3, out="quizzes/notas.json", offline=True)

    q = quiz.questions[0]
    with open(tmp_path / "replies.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["student", "question_id", "answer"])
        w.writerow(["Ana", q.id, q.answer])
        w.writerow(["Bruno", "q-nope", "?"])
    graded = course.grade("quizzes/notas.json", "replies.csv", out="reports/notas", offline=True)
    assert graded.exit_code == ExitCode.FAILED and "q-nope" in " ".join(graded.problems)
    assert graded.value.report is not None and graded.value.report.students == ["Ana"]
    assert {p.name for p in graded.written} >= {"grades.md", "grades.csv", "grades.json"}

    queue = course.study_queue(new=2)
    assert 0 < len(queue.items) <= 2
    assert course.progress()["reviewed"] == 0


def test_a_store_from_an_older_chunker_is_rebuilt_by_the_next_ingest(tmp_path, monkeypatch):
    import chromadb

    from kb.config import CHUNKING_VERSION

    monkeypatch.chdir(tmp_path)
    (tmp_path / "course").mkdir()
    shutil.copy(next(SOURCES.glob("001_*.txt")), tmp_path / "course" / "notas.txt")
    course = kb.open(tmp_path / ".kb")
    assert course.ingest(["course"]).ok
    client = chromadb.PersistentClient(path=str(tmp_path / ".kb" / "chroma"))
    col = client.get_collection("course")
    col.modify(metadata={**col.metadata, "kb_chunking": CHUNKING_VERSION - 1})  # as an older kb left it
    del col, client

    again = course.ingest(["course"])
    assert again.ok, again.problems
    assert again.value.rebuild == "applied"
    assert "older kb" in again.notes[0] and f"v{CHUNKING_VERSION - 1}" in again.notes[0]
    assert course.workspace.store.info["chunking"] == CHUNKING_VERSION
    assert course.search("fração da memória da GPU", k=1)


def test_the_library_writes_quizzes_and_reports_beside_the_course_not_in_the_current_folder(
        ingested_workspace, tmp_path_factory, monkeypatch):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    monkeypatch.chdir(elsewhere)
    course = kb.open(ingested_workspace / ".kb")
    assert course.quiz_dir == ingested_workspace / "quizzes"

    gen = course.generate_quiz(n=2, offline=True)
    assert gen.ok and gen.value.path.parent == ingested_workspace / "quizzes"
    q = gen.value.quiz.questions[0]
    (elsewhere / "replies.csv").write_text(f"student,question_id,answer\nAna,{q.id},{q.answer}\n", encoding="utf-8")
    graded = course.grade(gen.value.path, "replies.csv", offline=True)  # the caller's file, from its folder
    assert {p.parent for p in graded.written} == {ingested_workspace / "reports" / gen.value.path.stem}
    assert [name for name, _ in course.load_quizzes()] == [str(gen.value.path)]
    assert sorted(p.name for p in elsewhere.iterdir()) == ["replies.csv"]  # nothing written where the process runs

    # where the caller says: another root
    other = kb.open(ingested_workspace / ".kb", root=elsewhere)
    assert other.generate_quiz(n=2, offline=True).value.path.parent == elsewhere / "quizzes"


def test_sources_and_the_evaluations_go_through_the_library(ingested_workspace):
    course = kb.open(ingested_workspace / ".kb")
    got = course.contents()
    assert got["store"]["embedder"] and got["sources"] == course.sources()
    results = course.evaluate_retrieval(ROOT / "eval" / "queries.jsonl", mode="all")
    assert [r["mode"] for r in results] == ["hybrid", "dense", "bm25"]
    assert all(r["n"] == 36 and 0 < r["mrr@10"] <= 1 for r in results)
    quiz = course.generate_quiz(n=2, offline=True).value
    assert course.evaluate_quiz(quiz.path)["n"] == len(quiz.quiz.questions)
