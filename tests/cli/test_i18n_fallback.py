"""The interface language when nothing chooses it: --ui-lang, KB_UI_LANG, the locale, else the course's
main language: its passages' (what the last kb ingest found), else its quizzes', for every command
(kb progress, an error's message, kb grade), then English."""

from __future__ import annotations

import json

from ..conftest import run_kb
from ..grading.test_grading import QUIZ

NO_LOCALE = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "C.UTF-8", "KB_UI_LANG": None}


def _quiz_workspace(tmp_path, monkeypatch):
    (tmp_path / "quizzes").mkdir()
    (tmp_path / "quizzes" / "semana3.json").write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_progress_and_errors_follow_the_quizzes_language_then_the_passages(tmp_path, monkeypatch):
    ws = _quiz_workspace(tmp_path, monkeypatch)
    p = run_kb(["progress"], cwd=ws, env=NO_LOCALE)  # no store yet: the quizzes are in Portuguese
    assert p.returncode == 0 and "progresso por fonte" in p.stdout, p.stdout
    r = run_kb(["quiz", "export", "quizzes/nada.json"], cwd=ws, env=NO_LOCALE)
    assert "kb: erro: quizzes/nada.json: arquivo de questionário inexistente" in r.stderr
    # the passages' language, once an ingest has written it, is the course's
    (ws / ".kb").mkdir()
    (ws / ".kb" / "course-language").write_text("es\n", encoding="utf-8")
    p = run_kb(["progress"], cwd=ws, env=NO_LOCALE)
    assert "progreso por fuente" in p.stdout, p.stdout
    r = run_kb(["quiz", "export", "quizzes/nada.json"], cwd=ws, env=NO_LOCALE)
    assert "cómo resolverlo: genere uno con kb quiz generate, o revise la ruta" in " ".join(r.stderr.split())
    # the locale, the variable and the option each come first
    assert "progress by source" in run_kb(["progress"], cwd=ws, env={**NO_LOCALE, "LANG": "en_US.UTF-8"}).stdout
    assert "progresso por fonte" in run_kb(["progress"], cwd=ws, env={**NO_LOCALE, "KB_UI_LANG": "pt"}).stdout
    assert "progress by source" in run_kb(["--ui-lang", "en", "progress"], cwd=ws, env=NO_LOCALE).stdout


def test_nothing_known_is_english(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run_kb(["quiz", "export", "nada.json"], cwd=tmp_path, env=NO_LOCALE)
    assert "kb: error: nada.json: no such quiz file" in r.stderr
    (tmp_path / "quizzes").mkdir()  # a broken quiz says nothing about the language
    (tmp_path / "quizzes" / "rota.json").write_text("{", encoding="utf-8")
    r = run_kb(["quiz", "export", "nada.json"], cwd=tmp_path, env=NO_LOCALE)
    assert "kb: error: nada.json: no such quiz file" in r.stderr


def test_ingest_writes_the_passages_main_language(ingested_workspace):
    ws = ingested_workspace
    (ws / ".kb" / "course-language").unlink(missing_ok=True)
    r = run_kb(["ingest", "sources"], cwd=ws, env=NO_LOCALE)  # every file unchanged: nothing embedded
    assert r.returncode == 0, r.stderr
    assert (ws / ".kb" / "course-language").read_text(encoding="utf-8") == "pt\n"  # the sample course is Portuguese
    assert "arquivo" in r.stderr and "sem mudança" in r.stderr  # and the table says so in Portuguese
