"""The grader with its real parts: the use-m3 embedder, a hand-written quiz file, replies
files on disk, the real `kb grade` / `kb eval grader` command lines, and a local HTTP server
speaking the chat-completions API for the LLM grader."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from kb.embeddings import get_embedder
from kb.grading import OfflineGrader, Task, grade_objective, is_keyword_list
from kb.quiz import load_quiz

from .conftest import SHARED, run_kb
from .openai_stub import Behaviour, OpenAIStub, reply

GIL = ("O GIL (Global Interpreter Lock) é uma trava do interpretador que permite que apenas uma thread execute "
       "bytecode Python por vez, o que limita o paralelismo de threads em tarefas de CPU.")
QUIZ = {
    "schema": 1, "title": "Semana 3",
    "questions": [
        {"id": "gil", "type": "short", "prompt": "O que é o GIL no Python e qual o seu efeito em programas com threads?",
         "answer": GIL, "concepts": ["trava", "uma thread por vez", "paralelismo"], "lang": "pt",
         "citations": [{"source": "sources/003_54b53da49ba13546.txt", "locator": "GIL", "chunk_id": "c1",
                        "quote": "Global Interpreter Lock"}]},
        {"id": "gpu", "type": "short", "lang": "pt",
         "prompt": "Uma variável fixada na /gpu:0 pode ser usada por operações posicionadas na /gpu:1?",
         "answer": "Sim, o TensorFlow transfere automaticamente o valor da variável entre os dispositivos.",
         "concepts": ["transfere o valor", "dispositivos"]},
        {"id": "strat", "type": "mcq", "prompt": "Qual estratégia replica o modelo em todas as GPUs de uma máquina?",
         "answer": "MirroredStrategy", "choices": ["ParameterServerStrategy", "MirroredStrategy", "OneDeviceStrategy",
                                                   "TPUStrategy"], "correct": 1},
        {"id": "spark", "type": "tf", "prompt": "O Spark guarda os dados intermediários sempre em disco.",
         "answer": "Falso", "correct": False},
        {"id": "allred", "type": "cloze", "prompt": "No treinamento síncrono, os gradientes são somados com _____.",
         "answer": "all-reduce", "accepted": ["allreduce"]},
    ],
}


@pytest.fixture(scope="module")
def quiz_file(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("quiz") / "semana3.json"
    p.write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
    return p


@pytest.fixture(scope="module")
def quiz(quiz_file):
    return load_quiz(quiz_file)


@pytest.fixture(scope="module")
def grader():
    return OfflineGrader(get_embedder("use-m3"))


def _q(quiz, qid):
    return quiz.question(qid)


# --------------------------------------------------------------------------- objective types

@pytest.mark.parametrize("reply,points", [
    ("b", 3), ("B)", 3), ("(b)", 3), ("2", 3), ("mirroredstrategy", 3), ("A resposta é MirroredStrategy", 3),
    ("a", 0), ("ParameterServerStrategy", 0), ("", 0),
])
def test_mcq_is_graded_exactly(quiz, reply, points):
    g = grade_objective(_q(quiz, "strat"), reply)
    assert (g.points, g.grader) == (points, "exact")
    if points == 0 and reply:
        assert "(B) MirroredStrategy" in g.feedback


def test_mcq_unreadable_reply_says_how_to_answer(quiz):
    g = grade_objective(_q(quiz, "strat"), "não tenho certeza")
    assert g.points == 0 and "unreadable" in g.flags and "letter" in g.feedback


@pytest.mark.parametrize("reply,points", [
    ("falso", 3), ("F", 3), ("False", 3), ("Falso, fica em memória", 3), ("no", 3),
    ("verdadeiro", 0), ("V", 0), ("cierto", 0), ("true", 0),
])
def test_true_false_in_pt_es_en(quiz, reply, points):
    assert grade_objective(_q(quiz, "spark"), reply).points == points


@pytest.mark.parametrize("reply,points", [
    ("all-reduce", 3), ("All-Reduce", 3), ("allreduce", 3), ("o all-reduce", 3), ("all reduce", 3),
    ("alll-reduce", 3),  # one-letter typo in a long word
    ("broadcast", 0), ("", 0), ("all-reduce e depois broadcast para todos os nós do cluster", 0),
])
def test_cloze_normalises_and_accepts_alternatives(quiz, reply, points):
    assert grade_objective(_q(quiz, "allred"), reply).points == points


# --------------------------------------------------------------------------- offline grader

def _grade(grader, quiz, qid, reply):
    return grader.grade([Task(_q(quiz, qid), reply)])[0]


def test_offline_grader_orders_correct_partial_wrong(grader, quiz):
    full = _grade(grader, quiz, "gil", "É uma trava global do interpretador: só uma thread executa bytecode Python "
                                        "por vez, então threads não dão paralelismo em código que usa CPU.")
    part = _grade(grader, quiz, "gil", "É uma trava do interpretador do Python.")
    wrong = _grade(grader, quiz, "gil", "É uma biblioteca para desenhar gráficos em 3D.")
    assert full.score > part.score > wrong.score
    assert full.points >= 2 and full.verdict in ("correct", "partial")
    assert wrong.points == 0 and wrong.verdict == "incorrect"
    assert "trava" in full.present and "paralelismo" in full.present
    assert "paralelismo" in part.missing and "Missing: " in part.feedback
    for g in (full, part, wrong):  # score and points agree
        assert round(g.score * 3 + 1e-9) == g.points or abs(g.score * 3 - g.points) <= 0.5


def test_guards(grader, quiz):
    assert _grade(grader, quiz, "gil", "").flags == ("empty",)
    assert _grade(grader, quiz, "gil", "Não sei.").points == 0
    assert "dont_know" in _grade(grader, quiz, "gil", "no sé").flags
    copy = _grade(grader, quiz, "gil", "O que é o GIL no Python e qual o seu efeito em programas com threads")
    assert copy.points == 0 and "copies_question" in copy.flags
    inverted = _grade(grader, quiz, "gpu", "Não, a variável só pode ser usada na própria GPU.")
    assert inverted.points == 0 and "inverted" in inverted.flags
    agrees = _grade(grader, quiz, "gpu", "Sim, o TensorFlow copia o valor da variável para o outro dispositivo.")
    assert agrees.points >= 2
    keywords = _grade(grader, quiz, "gil", "trava, thread, bytecode, paralelismo, CPU")
    assert keywords.points <= 1
    off = _grade(grader, quiz, "gil", "Receita de bolo de cenoura com cobertura de chocolate.")
    assert off.points == 0


def test_keyword_list_detection():
    assert is_keyword_list("trava, thread, bytecode, CPU")
    assert not is_keyword_list("uma trava que deixa só uma thread rodar por vez")


def test_reply_in_another_language_is_graded_on_meaning(grader, quiz):
    en = _grade(grader, quiz, "gil", "It is a global interpreter lock: only one thread runs Python bytecode at a "
                                     "time, so threads give no parallelism for CPU-bound work.")
    es = _grade(grader, quiz, "gil", "Es un candado global del intérprete: solo un hilo ejecuta bytecode de Python "
                                     "a la vez, por eso los hilos no dan paralelismo en tareas de CPU.")
    wrong_en = _grade(grader, quiz, "gil", "It is a library to draw charts and plots in three dimensions.")
    assert "other_language" in en.flags and en.points >= 2
    assert es.points >= 2
    assert wrong_en.points == 0


def test_grader_is_deterministic(grader, quiz):
    r = "Uma trava que deixa só uma thread executar por vez."
    assert _grade(grader, quiz, "gil", r) == _grade(grader, quiz, "gil", r)


# --------------------------------------------------------------------------- kb grade

REPLIES = [
    ("student", "question_id", "answer"),
    ("Ana", "gil", "Uma trava do interpretador: só uma thread executa bytecode Python por vez, sem paralelismo de CPU."),
    ("Ana", "strat", "b"),
    ("Ana", "spark", "falso"),
    ("Ana", "allred", "all-reduce"),
    ("Ana", "gpu", "Sim, o valor é transferido entre os dispositivos."),
    ("Bruno", "gil", "não sei"),
    ("Bruno", "strat", "a"),
    ("Bruno", "spark", "verdadeiro"),
    ("Bruno", "allred", ""),
    ("Bruno", "q-nope", "qualquer coisa"),
    ("Caio", "1", "It is a global lock: only one thread runs Python code at a time."),
]


def _write_csv(path: Path, rows, encoding="utf-8"):
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_bytes(buf.getvalue().encode(encoding))
    return path


def _gradebook(out: Path) -> dict[tuple[str, str], dict]:
    with (out / "grades.csv").open(encoding="utf-8") as f:
        return {(r["student"], r["question_id"]): r for r in csv.DictReader(f)}


def _edit_gradebook(out: Path, edits: dict[tuple[str, str], dict[str, str]]) -> None:
    """What an instructor does in a spreadsheet: change cells of grades.csv, save."""
    with (out / "grades.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        row.update(edits.get((row["student"], row["question_id"]), {}))
    with (out / "grades.csv").open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def test_kb_grade_end_to_end_with_bad_rows_and_overrides(quiz_file, tmp_path):
    replies = _write_csv(tmp_path / "replies.csv", REPLIES)
    out = tmp_path / "reports"
    r = run_kb(["grade", str(quiz_file), str(replies), "--out", str(out)], cwd=tmp_path)
    assert r.returncode == 1, r.stderr  # one row could not be graded
    assert "replies.csv:11: unknown question id 'q-nope'" in r.stderr and "kb quiz show" in r.stderr
    assert "replies.csv:10: empty answer from Bruno" in r.stderr
    assert "Ana" in r.stdout and "Q5" in r.stdout and "total" in r.stdout
    book = _gradebook(out)
    assert book[("Ana", "strat")]["points"] == "3" and book[("Bruno", "strat")]["points"] == "0"
    assert book[("Bruno", "gil")]["verdict"] == "incorrect"
    assert ("Caio", "gil") in book  # question given by its number
    report = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    assert report["students"]["Ana"]["points"] >= 13 and report["students"]["Ana"]["max"] == 15
    assert any("q-nope" in p for p in report["problems"])
    md = (out / "grades.md").read_text(encoding="utf-8")
    assert "| Ana |" in md and "## Questions" in md and "Most missed" in md

    # the instructor overrides one grade in the override column and edits another points cell
    _edit_gradebook(out, {("Caio", "gil"): {"override": "3"}, ("Bruno", "spark"): {"points": "1"}})
    r = run_kb(["grade", str(quiz_file), str(replies), "--out", str(out), "--json"], cwd=tmp_path)
    assert r.returncode == 1
    data = json.loads(r.stdout)
    assert data["overrides_kept"] == 2
    assert data["students"]["Caio"]["grades"]["gil"]["points"] == 3
    assert data["students"]["Bruno"]["grades"]["spark"]["points"] == 1
    book = _gradebook(out)
    assert book[("Caio", "gil")]["override"] == "3" and book[("Bruno", "spark")]["grader"] == "override"
    # and a third run keeps them again
    r = run_kb(["grade", str(quiz_file), str(replies), "--out", str(out), "--json"], cwd=tmp_path)
    assert json.loads(r.stdout)["overrides_kept"] == 2


def test_kb_grade_folder_of_sheets_and_latin1(quiz_file, tmp_path):
    sheets = tmp_path / "sheets"
    sheets.mkdir()
    (sheets / "Dora.md").write_text("## 3\nb\n\n## gil\nUma trava: só uma thread por vez executa.\n\n## spark\nfalso\n",
                                    encoding="utf-8")
    (sheets / "Édson.txt").write_bytes("## allred\nall-reduce\n## gpu\nSim, a transferência do valor entre dispositivos é automática.\n"
                                       .encode("cp1252"))
    (sheets / "notes.txt").write_text("sem cabeçalhos\n", encoding="utf-8")
    out = tmp_path / "out"
    r = run_kb(["grade", str(quiz_file), str(sheets), "-o", str(out), "--json"], cwd=tmp_path)
    assert r.returncode == 1, r.stderr  # notes.txt has no question headings
    assert "notes.txt:1: no '## <question id>' headings" in r.stderr
    data = json.loads(r.stdout)
    assert data["students"]["Dora"]["grades"]["strat"]["points"] == 3
    assert data["students"]["Édson"]["grades"]["allred"]["points"] == 3
    assert any("not UTF-8" in n and "Édson.txt" in n for n in data["notes"])


def test_kb_grade_bad_files(quiz_file, tmp_path):
    bad = _write_csv(tmp_path / "bad.csv", [("name", "question", "text"), ("Ana", "gil", "x")])
    r = run_kb(["grade", str(quiz_file), str(bad)], cwd=tmp_path)
    assert r.returncode == 3 and "bad.csv:1: missing column(s) student, question_id, answer" in r.stderr
    r = run_kb(["grade", str(tmp_path / "nope.json"), str(bad)], cwd=tmp_path)
    assert r.returncode == 3 and "no such quiz file" in r.stderr
    no_answer = json.loads(json.dumps(QUIZ))
    no_answer["questions"][0]["answer"] = ""
    qf = tmp_path / "no-answer.json"
    qf.write_text(json.dumps(no_answer), encoding="utf-8")
    r = run_kb(["grade", str(qf), str(bad)], cwd=tmp_path)
    assert r.returncode == 3 and "question gil has no model answer" in r.stderr


def test_reports_are_replaced_atomically(quiz_file, tmp_path):
    replies = _write_csv(tmp_path / "r.csv", REPLIES[:3])
    out = tmp_path / "rep"
    assert run_kb(["grade", str(quiz_file), str(replies), "-o", str(out)], cwd=tmp_path).returncode == 0
    assert sorted(p.name for p in out.iterdir()) == ["grades.csv", "grades.json", "grades.md", "grades.xlsx"]  # no temp files left


# --------------------------------------------------------------------------- LLM grader

def test_llm_grader_uses_rubric_and_instructor_examples(quiz_file, tmp_path):
    def judge(body):
        user = body["messages"][-1]["content"]
        assert "Rubric" in user and "Key concepts: trava; uma thread por vez; paralelismo" in user
        score = 1 if "biblioteca" in user.split("Student answer:")[-1] else 3
        return reply({"reasoning": "compara com a resposta modelo", "score": score, "feedback": "Bom.",
                      "present": ["trava"], "missing": ["paralelismo", "not a concept"]})

    replies = _write_csv(tmp_path / "r.csv", [("student", "question_id", "answer"),
                                              ("Ana", "gil", "Uma trava global do interpretador."),
                                              ("Bia", "gil", "Uma biblioteca de gráficos."),
                                              ("Ana", "strat", "b")])
    with OpenAIStub(judge) as stub:
        env = {"OPENAI_BASE_URL": stub.url, "KB_LLM_MODEL": "judge", "OPENAI_API_KEY": "k"}
        r = run_kb(["grade", str(quiz_file), str(replies), "-o", str(tmp_path / "o"), "--json"], cwd=tmp_path, env=env)
        assert r.returncode == 0, r.stderr
        data = json.loads(r.stdout)
        ana = data["students"]["Ana"]["grades"]
        assert ana["gil"]["grader"] == "llm:judge" and ana["gil"]["points"] == 3
        assert ana["gil"]["missing"] == ["paralelismo"]  # only the quiz's own concepts are kept
        assert ana["strat"]["grader"] == "exact"  # objective types never go to the model
        assert data["students"]["Bia"]["grades"]["gil"]["points"] == 1
        assert len(stub.requests) == 2
        # an instructor override becomes a few-shot example for the other replies to that question
        _edit_gradebook(tmp_path / "o", {("Bia", "gil"): {"override": "0"}})
        r = run_kb(["grade", str(quiz_file), str(replies), "-o", str(tmp_path / "o"), "--json"], cwd=tmp_path, env=env)
        assert r.returncode == 0, r.stderr
        prompts = [b["messages"][-1]["content"] for b in stub.requests[2:]]
        assert any("Example graded by the instructor (0/3): Uma biblioteca de gráficos." in p for p in prompts)


def test_llm_grader_failure_keeps_every_grade(quiz_file, tmp_path):
    replies = _write_csv(tmp_path / "r.csv", REPLIES[:6])
    script = [reply({"reasoning": "ok", "score": 2, "feedback": "Quase."})] + [Behaviour(status=500)] * 10
    with OpenAIStub(script) as stub:
        env = {"OPENAI_BASE_URL": stub.url, "KB_LLM_MODEL": "judge", "KB_LLM_RETRIES": "1"}
        r = run_kb(["grade", str(quiz_file), str(replies), "-o", str(tmp_path / "o"), "--json"], cwd=tmp_path, env=env)
    assert r.returncode == 5
    assert "the LLM grader stopped" in r.stderr and "--offline" in r.stderr
    data = json.loads(r.stdout)
    ana = data["students"]["Ana"]["grades"]
    assert ana["gil"]["grader"] == "llm:judge" and ana["gil"]["points"] == 2
    assert "llm_unavailable" in ana["gpu"]["flags"] and ana["gpu"]["grader"] == "offline"
    assert json.loads((tmp_path / "o" / "grades.json").read_text(encoding="utf-8"))["students"]["Ana"]["points"] >= 8


def test_llm_grader_invalid_score_falls_back_with_flag(quiz_file, tmp_path):
    replies = _write_csv(tmp_path / "r.csv", REPLIES[:2])
    with OpenAIStub(lambda b: reply({"reasoning": "hmm", "score": 7, "feedback": "?"})) as stub:
        env = {"OPENAI_BASE_URL": stub.url, "KB_LLM_MODEL": "judge"}
        r = run_kb(["grade", str(quiz_file), str(replies), "-o", str(tmp_path / "o"), "--json"], cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stderr
    g = json.loads(r.stdout)["students"]["Ana"]["grades"]["gil"]
    assert "llm_invalid" in g["flags"] and "score 7 is not 0-3" in g["feedback"]


# --------------------------------------------------------------------------- kb eval grader

def test_eval_grader_on_a_small_file(tmp_path):
    rows = [("question", "reference", "answer", "score", "concepts")]
    ref = "Sim. O TensorFlow transfere o valor da variável entre os dispositivos.\nSim, a variável é copiada."
    for ans, s in [("Sim, o valor é transferido entre dispositivos.", 10), ("Sim, ela é copiada para lá.", 8),
                   ("Não pode.", 0), ("", 0), ("Uma receita de bolo.", 0), ("Sim.", 4)]:
        rows.append(("A variável na /gpu:0 pode ser usada na /gpu:1?", ref, ans, s, "transfere; dispositivos"))
    data = _write_csv(tmp_path / "d.csv", rows)
    r = run_kb(["eval", "grader", str(data), "--scale", "0-10", "--json", "--predictions", str(tmp_path / "p.csv")],
               cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert res["n"] == 6 and {"pearson", "spearman", "qwk", "exact", "confusion", "per_question"} <= set(res)
    assert res["pearson"] > 0.7
    preds = list(csv.DictReader((tmp_path / "p.csv").open(encoding="utf-8")))
    assert len(preds) == 6 and "inverted" in preds[2]["flags"].split(";")
    r = run_kb(["eval", "grader", str(data), "--scale", "ten"], cwd=tmp_path)
    assert r.returncode == 3 and "--scale 0-3" in r.stderr


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED / "benchmarks" / "pt_asag_2018").is_dir(), reason="../shared benchmarks absent")
def test_offline_grader_on_pt_asag_held_out_questions(tmp_path):
    """A regression guard on the held-out questions 43–50 (the README reports the numbers)."""
    import subprocess
    import sys

    from .conftest import ROOT

    out = tmp_path / "test.csv"
    subprocess.run([sys.executable, str(ROOT / "bench" / "pt_asag_to_csv.py"), "--split", "test", "-o", str(out)],
                   check=True)
    r = run_kb(["eval", "grader", str(out), "--scale", "0-3", "--json"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert res["n"] > 5000
    assert res["pearson"] > 0.60 and res["qwk"] > 0.50  # lexical floor: Pearson 0.53
