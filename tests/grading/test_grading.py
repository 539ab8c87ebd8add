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
from kb.grading.base import Task
from kb.grading.objective import grade_objective
from kb.grading.offline import OfflineGrader
from kb.grading.signals import is_keyword_list
from kb.quiz import Question, load_quiz

from ..conftest import SHARED, run_kb
from ..openai_stub import Behaviour, OpenAIStub, reply

GIL = ("O GIL (Global Interpreter Lock) é uma trava do interpretador que permite que apenas uma thread execute "
       "bytecode Python por vez, o que limita o paralelismo de threads em tarefas de CPU.")
QUIZ = {
    "schema": 1, "title": "Semana 3",
    "questions": [
        {"id": "gil", "type": "short",
         "prompt": "O que é o GIL no Python e qual o seu efeito em programas com threads?",
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
    assert g.points == 0 and "unreadable" in g.flags and "responda com uma letra" in g.feedback  # pt quiz


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
    assert "paralelismo" in part.missing and "Faltou: " in part.feedback
    for g in (full, part, wrong):  # score and points agree
        assert round(g.score * 3 + 1e-9) == g.points or abs(g.score * 3 - g.points) <= 0.5


def test_guards(grader, quiz):
    assert _grade(grader, quiz, "gil", "").flags == ("empty",)
    assert _grade(grader, quiz, "gil", "Não sei.").points == 0
    assert "dont_know" in _grade(grader, quiz, "gil", "no sé").flags
    # saying what one does not know is still not knowing; a guess after it is an answer
    for text in ("não lembro dessa parte", "ni idea, no llegué a estudiar esto", "I don't remember this part",
                  "não estudei essa matéria, desculpa professor", "Não sei explicar"):  # (unseen set 5)
        assert "dont_know" in _grade(grader, quiz, "gil", text).flags, text
    assert "dont_know" not in _grade(grader, quiz, "gil", "não sei, mas acho que é uma trava do interpretador").flags
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


def test_a_key_concept_right_is_worth_1_unless_a_guard_says_it_is_no_answer(grader, quiz):
    # "one relevant correct idea" is the rubric's 1, never "Incorreto (0/3). Está certo: compilação JIT…"
    # (unseen set 4: the teacher gave this reply 2; the linear model alone gives it 0)
    q = Question("short", "Por que a primeira chamada de uma função @njit costuma ser muito mais lenta que as "
                          "seguintes, e o que isso implica para medir desempenho?",
                 "Principalmente porque a primeira chamada inclui a compilação JIT: o Numba infere os tipos dos "
                 "argumentos e gera código nativo via LLVM para essa combinação de tipos, e as chamadas seguintes só "
                 "despacham. Por isso deve-se fazer uma chamada de aquecimento (warm-up) antes de medir, ou usar "
                 "cache=True ou assinatura explícita.", (),
                 concepts=("compilação JIT na primeira chamada", "especialização pelos tipos dos argumentos",
                           "warm-up antes de medir"), id="njit", lang="pt")
    (one,) = grader.grade([Task(q, "Compilação JIT.")])
    assert one.present == ("compilação JIT na primeira chamada",) and one.points == 1
    assert one.feedback.startswith("Pouco completo (1/3). Está certo: compilação JIT na primeira chamada.")
    # a guard that says the reply is no answer wins over the concepts it names: a wrong yes/no
    no = _grade(grader, quiz, "gpu", "Não: o TensorFlow não transfere o valor entre os dispositivos.")
    assert "inverted" in no.flags and no.present and no.points == 0


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
    ("Ana", "gil",
     "Uma trava do interpretador: só uma thread executa bytecode Python por vez, sem paralelismo de CPU."),
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


def write_csv(path: Path, rows, encoding="utf-8"):
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_bytes(buf.getvalue().encode(encoding))
    return path


def read_gradebook(out: Path) -> dict[tuple[str, str], dict]:
    with (out / "grades.csv").open(encoding="utf-8") as f:
        return {(r["student"], r["question_id"]): r for r in csv.DictReader(f)}


def edit_gradebook(out: Path, edits: dict[tuple[str, str], dict[str, str]]) -> None:
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
    replies = write_csv(tmp_path / "replies.csv", REPLIES)
    out = tmp_path / "reports"
    r = run_kb(["grade", str(quiz_file), str(replies), "--out", str(out)], cwd=tmp_path)
    assert r.returncode == 1, r.stderr  # one row could not be graded
    assert "replies.csv:11: unknown question id 'q-nope'" in r.stderr and "kb quiz show" in r.stderr
    assert "replies.csv:10: empty answer from Bruno" in r.stderr
    assert "Ana" in r.stdout and "Q5" in r.stdout and "total" in r.stdout
    book = read_gradebook(out)
    assert book[("Ana", "strat")]["points"] == "3" and book[("Bruno", "strat")]["points"] == "0"
    assert book[("Bruno", "gil")]["verdict"] == "incorrect"
    assert ("Caio", "gil") in book  # question given by its number
    report = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    assert report["students"]["Ana"]["points"] >= 13 and report["students"]["Ana"]["max"] == 15
    assert any("q-nope" in p for p in report["problems"])
    md = (out / "grades.md").read_text(encoding="utf-8")
    assert "| Ana |" in md and "## Questions" in md and "Most missed" in md

    # the instructor overrides one grade in the override column and edits another points cell
    edit_gradebook(out, {("Caio", "gil"): {"override": "3"}, ("Bruno", "spark"): {"points": "1"}})
    r = run_kb(["grade", str(quiz_file), str(replies), "--out", str(out), "--json"], cwd=tmp_path)
    assert r.returncode == 1
    data = json.loads(r.stdout)
    assert data["overrides_kept"] == 2
    assert data["students"]["Caio"]["grades"]["gil"]["points"] == 3
    assert data["students"]["Bruno"]["grades"]["spark"]["points"] == 1
    book = read_gradebook(out)
    assert book[("Caio", "gil")]["override"] == "3" and book[("Bruno", "spark")]["grader"] == "override"
    # and a third run keeps them again
    r = run_kb(["grade", str(quiz_file), str(replies), "--out", str(out), "--json"], cwd=tmp_path)
    assert json.loads(r.stdout)["overrides_kept"] == 2


def test_kb_grade_folder_of_sheets_and_latin1(quiz_file, tmp_path):
    sheets = tmp_path / "sheets"
    sheets.mkdir()
    (sheets / "Dora.md").write_text("## 3\nb\n\n## gil\nUma trava: só uma thread por vez executa.\n\n## spark\nfalso\n",
                                    encoding="utf-8")
    (sheets / "Édson.txt").write_bytes("## allred\nall-reduce\n## gpu\n"
                                       "Sim, a transferência do valor entre dispositivos é automática.\n"
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
    bad = write_csv(tmp_path / "bad.csv", [("name", "question", "text"), ("Ana", "gil", "x")])
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
    replies = write_csv(tmp_path / "r.csv", REPLIES[:3])
    out = tmp_path / "rep"
    assert run_kb(["grade", str(quiz_file), str(replies), "-o", str(out)], cwd=tmp_path).returncode == 0
    # no temp files left
    assert sorted(p.name for p in out.iterdir()) == [".grades-manifest.json", "class.csv", "class.xlsx",
                                                     "grades-review.csv", "grades.csv", "grades.json", "grades.md",
                                                     "grades.xlsx", "moodle_grades.csv", "students"]


# --------------------------------------------------------------------------- LLM grader

def test_llm_grader_uses_rubric_and_instructor_examples(quiz_file, tmp_path):
    def judge(body):
        user = body["messages"][-1]["content"]
        assert "Rubric" in user and "Key concepts: trava; uma thread por vez; paralelismo" in user
        score = 1 if "biblioteca" in user.split("<student_answer>")[-1] else 3
        return reply({"reasoning": "compara com a resposta modelo", "score": score, "feedback": "Bom.",
                      "present": ["trava"], "missing": ["paralelismo", "not a concept"]})

    replies = write_csv(tmp_path / "r.csv", [("student", "question_id", "answer"),
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
        edit_gradebook(tmp_path / "o", {("Bia", "gil"): {"override": "0"}})
        r = run_kb(["grade", str(quiz_file), str(replies), "-o", str(tmp_path / "o"), "--json"], cwd=tmp_path, env=env)
        assert r.returncode == 0, r.stderr
        prompts = [b["messages"][-1]["content"] for b in stub.requests[2:]]
        assert any("Example graded by the instructor (0/3): Uma biblioteca de gráficos." in p for p in prompts)


def test_llm_grader_failure_keeps_every_grade(quiz_file, tmp_path):
    replies = write_csv(tmp_path / "r.csv", REPLIES[:6])
    script = [reply({"reasoning": "ok", "score": 2, "feedback": "Quase."})] + [Behaviour(status=500)] * 10
    with OpenAIStub(script) as stub:
        # one request at a time: the script's first reply goes to the first reply graded
        env = {"OPENAI_BASE_URL": stub.url, "KB_LLM_MODEL": "judge", "KB_LLM_RETRIES": "1", "KB_LLM_CONCURRENCY": "1"}
        r = run_kb(["grade", str(quiz_file), str(replies), "-o", str(tmp_path / "o"), "--json"], cwd=tmp_path, env=env)
    assert r.returncode == 5
    assert "the LLM grader stopped" in r.stderr and "--offline" in r.stderr
    data = json.loads(r.stdout)
    ana = data["students"]["Ana"]["grades"]
    assert ana["gil"]["grader"] == "llm:judge" and ana["gil"]["points"] == 2
    assert "llm_unavailable" in ana["gpu"]["flags"] and ana["gpu"]["grader"] == "offline"
    assert json.loads((tmp_path / "o" / "grades.json").read_text(encoding="utf-8"))["students"]["Ana"]["points"] >= 8
    md = (tmp_path / "o" / "grades.md").read_text(encoding="utf-8")  # which replies fell back, named
    assert "## LLM grading" in md and "1 free-text replies graded by judge;" in md
    assert "- Ana, Q2: the LLM did not answer" in md


def test_llm_grader_invalid_score_falls_back_with_flag(quiz_file, tmp_path):
    replies = write_csv(tmp_path / "r.csv", REPLIES[:2])
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
    data = write_csv(tmp_path / "d.csv", rows)
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
@pytest.mark.needs_shared(SHARED / "benchmarks" / "pt_asag_2018")
def test_offline_grader_on_pt_asag_held_out_questions(tmp_path):
    """A regression guard on the held-out questions 43–50 (the README reports the numbers)."""
    import subprocess
    import sys

    from ..conftest import ROOT

    out = tmp_path / "test.csv"
    subprocess.run([sys.executable, str(ROOT / "bench" / "pt_asag_to_csv.py"), "--split", "test", "-o", str(out)],
                   check=True)
    r = run_kb(["eval", "grader", str(out), "--scale", "0-3", "--json"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert res["n"] > 5000
    assert res["pearson"] > 0.60 and res["qwk"] > 0.50  # lexical floor: Pearson 0.53


# --------------------------------------------------------------------------- issue 10 bugs

def test_close_is_one_osa_edit_not_any_two_letters():
    from kb.grading.signals import stems_close

    assert stems_close("memoria", "memroia")  # adjacent swap: one OSA edit
    assert stems_close("paralelo", "paralelos") and stems_close("gradiente", "gradiante")
    assert not stems_close("comer", "comte")  # two substitutions, used to pass as a "transposition"
    assert not stems_close("abc", "abd")  # too short for a typo


def test_spanish_si_meaning_if_is_not_yes(grader):
    from kb.grading.signals import leading_polarity
    from kb.quiz import Question

    assert leading_polarity("Si la GPU no tiene memoria, falla.") is None
    assert leading_polarity("Si, se transfiere.") == "yes" and leading_polarity("Sí se transfiere") == "yes"
    q = Question("short", "¿Se puede usar una variable de /gpu:0 en /gpu:1?", "No, solo en el mismo dispositivo.",
                 (), lang="es")
    g = grader.grade([Task(q, "Si la variable está en /gpu:0, solo la usan operaciones del mismo dispositivo.")])[0]
    assert "inverted" not in g.flags and g.points >= 1


def test_a_model_answer_that_says_no_in_a_sentence_answers_a_yes_no_question(grader):
    """The sample book's 'Seu modelo treinado foi perdido?' is answered 'O modelo não será perdido.', with
    no leading 'Não': a 'Sim, o modelo se perde…' was graded 2/3 as partly right."""
    from kb.grading.signals import answer_polarity, yes_no_question
    from kb.quiz import Question

    asked = ("Suponha que você treine uma DNN por dias em um cluster do Tensorflow e, imediatamente após o término "
             "do seu programa de treinamento, percebe que esqueceu de salvar o modelo ao utilizar um Saver. Seu "
             "modelo treinado foi perdido?")
    q = Question("short", asked, "O modelo não será perdido. Em um cluster TensorFlow distribuído, os valores das "
                 "variáveis ficam em contêineres gerenciados pelo próprio cluster, e não nas sessões do cliente.", (),
                 concepts=("contêineres gerenciados pelo próprio cluster",), lang="pt")
    yes, no = grader.grade([Task(q, "Sim, o modelo se perde porque as variáveis ficam na sessão do cliente e somem "
                                    "quando ela fecha."),
                            Task(q, "Não, as variáveis ficam em contêineres do próprio cluster; basta abrir outra "
                                    "sessão e salvar.")])
    assert "inverted" in yes.flags and yes.points == 0 and "A resposta modelo diz que não" in yes.feedback
    assert "inverted" not in no.flags and no.points >= 2
    assert yes_no_question(asked) and yes_no_question("¿Se puede usar DDP en una sola GPU?")
    assert yes_no_question("O TensorFlow libera a memória depois de alocá-la?")  # "o" the article
    assert not yes_no_question("¿Es síncrono o asíncrono?")  # "o" the alternative
    for other in ("Por que o DDP não reduz a memória?", "What does tf.GradientTape do?", "É síncrono ou assíncrono?",
                  "Ao lançar torchrun em vários nós, por que se usa --ntasks-per-node=1?",
                  "Devemos ficar atentos ao calendário de vacinação.Quais são as funções das vacinas?"):
        assert not yes_no_question(other), other
    assert answer_polarity("Seu modelo foi salvo?", "No disco fica só o checkpoint.") is None  # pt "no": in the
    # nor does a Portuguese reply that opens "No DDP, …" say no (it would be zeroed as the opposite of a "Sim")
    from kb.grading.signals import leading_polarity

    assert leading_polarity("No DDP cada processo tem a sua cópia do modelo.", "pt") is None
    assert leading_polarity("No DDP cada processo tem a sua cópia do modelo.") is None  # detected as pt
    assert leading_polarity("No, solo en la GPU 0.") == "no" and leading_polarity("No se transfiere.", "es") == "no"
    assert answer_polarity("¿Se guarda el modelo?", "No se guarda: solo quedan los pesos.") == "no"


def test_a_yes_no_reply_built_from_the_question_words_is_not_a_copy(grader):
    from kb.quiz import Question

    q = Question("short", "Se você fixar uma variável na /gpu:0, ela pode ser usada por operações no dispositivo "
                          "/gpu:1 ou em outro dispositivo?",
                 "Sim, o TensorFlow transfere o valor da variável entre dispositivos.", (), lang="pt")
    g = grader.grade([Task(q, "Não, cada variável só pode ser usada no dispositivo em que foi fixada.")])[0]
    assert "copies_question" not in g.flags and "inverted" in g.flags
    copy = grader.grade([Task(q, "A variável fixada na /gpu:0 pode ser usada por operações no dispositivo /gpu:1")])[0]
    assert "copies_question" in copy.flags and copy.points == 0


def test_a_short_reply_that_adds_the_model_answers_words_is_not_a_copy(grader):
    """Built from the question's words plus a word of the model answer the question lacks, a reply
    answers it (unseen set 5: 'taint = nó, toleration = pod', graded 1 by the teacher, was 0 as a copy)."""
    q = Question("short", "Qual a diferença entre um taint e uma toleration no Kubernetes?",
                 "O taint é colocado no nó e repele os pods; a toleration é colocada no pod e permite que ele seja "
                 "agendado num nó com aquele taint (não obriga).",
                 (), ("taint no nó repele pods", "toleration no pod permite"), lang="pt")
    g = grader.grade([Task(q, "taint = nó, toleration = pod")])[0]
    assert "copies_question" not in g.flags and g.points >= 1
    copy = grader.grade([Task(q, "qual é a diferença entre o taint e a toleration do kubernetes")])[0]
    assert "copies_question" in copy.flags and copy.points == 0


def test_a_reply_naming_a_concept_beyond_the_question_is_not_off_topic(grader):
    """Off-topic zeroes only replies that use none of a concept's own words beyond the question's (unseen
    set 4: 'Throughput vs latência.', graded 1, had similarity 0.03 and was 0)."""
    q = Question("short", "O que é o batching dinâmico num servidor de inferência e qual é o seu trade-off?",
                 "O servidor agrupa requisições que chegam em um intervalo curto num único batch; esperar mais forma "
                 "batches maiores e dá mais throughput, mas aumenta a latência de cada requisição.",
                 (), ("servidor agrupa requisições", "mais throughput", "mais latência"), lang="pt")
    g = grader.grade([Task(q, "Throughput vs latência.")])[0]
    assert "off_topic" not in g.flags and g.points >= 1
    other = grader.grade([Task(q, "O TorchServe usa arquivos .mar com pesos e handler, e tem APIs nas portas "
                                  "8080 e 8081.")])[0]
    assert "off_topic" in other.flags and other.points == 0


@pytest.mark.parametrize("reply,points", [("cpu", 3), ("CPUs", 3), ("as cpus", 3), ("gpu", 0), ("redes", 0)])
def test_cloze_accepts_singular_for_plural(reply, points):
    from kb.quiz import Question

    q = Question("cloze", "As operações são executadas em _____ e GPUs.", "CPUs", ())
    assert grade_objective(q, reply).points == points


def test_eval_grader_takes_the_language_per_question(tmp_path):
    from kb.evaluate import grading_tasks, load_grading_data

    rows = [("question", "reference", "answer", "score", "lang"),
            ("¿Qué hace el decorador @tf.function?", "Genera un grafo de la computación que se reutiliza.",
             "Crea un grafo de la computación para las siguientes llamadas.", 3, ""),
            ("What is dataset sharding?", "Splitting the dataset among the workers.", "Each worker gets a part", 3,
             "en"),
            ("O que é o GIL?", "Uma trava do interpretador.", "Uma trava", 2, "")]
    got, _ = load_grading_data(write_csv(tmp_path / "d.csv", rows))
    assert [r.lang for r in got] == ["es", "en", "pt"]
    tasks = grading_tasks(got)
    assert [t.question.lang for t in tasks] == ["es", "en", "pt"]
    g = OfflineGrader(get_embedder("use-m3")).grade(tasks[:1])[0]
    assert "other_language" not in g.flags  # a Spanish reply to a Spanish question is not cross-lingual


# --------------------------------------------------------------------------- reports merge (issues 10 and 11)

def test_kb_grade_merges_a_later_batch_and_keeps_overrides(quiz_file, tmp_path):
    out = tmp_path / "R"
    first = write_csv(tmp_path / "first.csv", REPLIES[:10])  # Ana (5 questions), Bruno (4)
    assert run_kb(["grade", str(quiz_file), str(first), "-o", str(out)], cwd=tmp_path).returncode == 0
    edit_gradebook(out, {("Bruno", "gil"): {"override": "2"}})
    late = write_csv(tmp_path / "late.csv", [REPLIES[0], ("Caio", "gil", "Uma trava global: uma thread por vez."),
                                              ("Ana", "strat", "a")])
    r = run_kb(["grade", str(quiz_file), str(late), "-o", str(out), "--json"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert f"merged into {out}: 8 earlier grades kept, 1 re-graded, 1 new" in " ".join(r.stderr.split())
    data = json.loads(r.stdout)
    assert set(data["students"]) == {"Ana", "Bruno", "Caio"}
    assert data["students"]["Ana"]["grades"]["strat"]["points"] == 0  # the pair graded again is replaced
    assert data["students"]["Ana"]["grades"]["spark"]["points"] == 3  # the others are kept
    bruno = data["students"]["Bruno"]["grades"]["gil"]
    assert bruno["points"] == 2 and bruno["grader"] == "override" and bruno["answer"] == "não sei"
    book = read_gradebook(out)
    assert len(book) == 10 and book[("Bruno", "gil")]["override"] == "2"
    assert book[("Bruno", "gil")]["feedback"].count("[overridden") == 1
    md = (out / "grades.md").read_text(encoding="utf-8")
    assert "| Bruno | 2* |" in md and "`*` = instructor's override" in md
    # a third run with the same late batch changes nothing but says what it kept
    r = run_kb(["grade", str(quiz_file), str(late), "-o", str(out), "--json"], cwd=tmp_path)
    assert json.loads(r.stdout)["students"] == data["students"]


def test_kb_grade_header_only_csv_changes_nothing(quiz_file, tmp_path):
    out = tmp_path / "R"
    assert run_kb(["grade", str(quiz_file), str(write_csv(tmp_path / "a.csv", REPLIES[:6])), "-o", str(out)],
                  cwd=tmp_path).returncode == 0
    before = {p.name: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    r = run_kb(["grade", str(quiz_file), str(write_csv(tmp_path / "h.csv", REPLIES[:1])), "-o", str(out)],
               cwd=tmp_path)
    assert r.returncode == 0 and "nothing written" in r.stderr and "unchanged" in r.stderr
    assert {p.name: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_kb_grade_refuses_to_merge_into_unreadable_or_foreign_grades(quiz_file, tmp_path):
    out = tmp_path / "R"
    out.mkdir()
    (out / "grades.json").write_text("{not json", encoding="utf-8")
    replies = write_csv(tmp_path / "a.csv", REPLIES[:3])
    r = run_kb(["grade", str(quiz_file), str(replies), "-o", str(out)], cwd=tmp_path)
    assert r.returncode == 3 and "grades.json: cannot read the earlier grades" in r.stderr
    assert "another --out folder" in r.stderr and (out / "grades.json").read_text() == "{not json"
    (out / "grades.json").write_text(json.dumps({"students": {"Zé": {"grades": {"qother": {
        "points": 1, "score": 0.3, "verdict": "partial"}}}}}), encoding="utf-8")
    r = run_kb(["grade", str(quiz_file), str(replies), "-o", str(out)], cwd=tmp_path)
    assert r.returncode == 3 and "questions that are not in this quiz (qother)" in r.stderr


def test_grades_md_counts_the_questions_each_student_was_given(quiz):
    from kb.grading.gradebook import Replies, Reply, grade_class, report_markdown

    class Exact:  # the objective questions need no embedder
        name = "exact"

        def grade(self, tasks):
            return [grade_objective(t.question, t.reply) for t in tasks]

    got = Replies([Reply("Ana", "strat", "b", "x:2"), Reply("Ana", "spark", "falso", "x:3"),
                   Reply("Bia", "strat", "a", "x:4")])
    report = grade_class(quiz, got, Exact())
    totals = report.totals()
    assert totals["Ana"] == {"points": 6, "max": 6, "percent": 100.0, "given": 2, "answered": 2}
    assert totals["Bia"]["max"] == 3 and totals["Bia"]["percent"] == 0.0
    md = report_markdown(report, "quiz.json")
    assert md.index("## Questions") < md.index("## Students") < md.index("## Feedback")
    assert "2 of 5 questions" in md and "| Ana | 3 | 3 | 6/6 | 100 |" in md and "| Bia | 0 | – | 0/3 | 0 |" in md
    assert "no reply" not in md and "**Q1**" not in md  # questions nobody was given are not listed


# --------------------------------------------------------------------------- teacher calibration

def test_kb_grade_calibrate_refits_stores_and_reports_leave_one_out(tmp_path):
    quiz_path = tmp_path / "q.json"
    quiz_path.write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
    graded = write_csv(tmp_path / "graded.csv", [
        ("question_id", "answer", "points"),
        ("gil", "Uma trava.", 3), ("gil", "trava do interpretador", 3), ("gil", "Só uma thread por vez.", 3),
        ("gil", "Uma biblioteca de gráficos.", 0), ("gil", "Algo do Python.", 1), ("gil", "GIL", 2),
        ("nope", "x", 3), ("gil", "y", "muito"),
    ])
    replies = write_csv(tmp_path / "r.csv", [("student", "question_id", "answer"),
                                              ("Ana", "gil", "Uma trava global.")])
    r = run_kb(["grade", str(quiz_path), str(replies), "--offline", "--calibrate", str(graded), "-o",
                str(tmp_path / "R"), "--json"], cwd=tmp_path)
    assert r.returncode == 1, r.stderr  # two rows of graded.csv skipped, named with their fix
    err = " ".join(r.stderr.split())
    assert "calibrated on 6 teacher-graded replies" in err and "leave-one-out" in err
    assert "graded.csv:8: unknown question id 'nope'" in err and "graded.csv:9: points 'muito' is not 0–3" in err
    stored = json.loads((tmp_path / "q.calibration").read_text(encoding="utf-8"))
    assert stored["examples"] == 6 and stored["agreement"]["leave_one_out"]["n"] == 6
    assert len(stored["cuts"]) == 3 and stored["cuts"] == sorted(stored["cuts"])
    # the next run uses the stored calibration without --calibrate
    r = run_kb(["grade", str(quiz_path), str(replies), "--offline", "-o", str(tmp_path / "R2")], cwd=tmp_path)
    assert r.returncode == 0 and "grading with the calibration in" in r.stderr
    from kb.grading.calibration import study_adjustments

    adjust, graded, notes = study_adjustments([(str(quiz_path), load_quiz(quiz_path))])  # what kb study uses
    assert tuple(adjust["gil"][0]) == tuple(stored["cuts"]) and notes == []
    assert ("Uma trava.", 3) in graded["gil"] and len(graded["gil"]) == 6
    # a damaged calibration is an error naming the fix; kb study only warns
    (tmp_path / "q.calibration").write_text('{"cuts": [2, 1]}', encoding="utf-8")
    r = run_kb(["grade", str(quiz_path), str(replies), "--offline", "-o", str(tmp_path / "R3")], cwd=tmp_path)
    assert r.returncode == 3 and "q.calibration: not a kb calibration" in r.stderr and "--calibrate" in r.stderr
    adjust, graded, notes = study_adjustments([(str(quiz_path), load_quiz(quiz_path))])
    assert adjust == graded == {} and "default grading level used" in notes[0]


def test_calibration_moves_the_level_towards_the_teacher(grader, quiz):
    """A teacher more generous than the default level: the refitted cuts give more points."""
    from kb.grading.calibration import fit_calibration
    from kb.grading.offline import OfflineGrader

    q = _q(quiz, "gil")
    replies = ["Uma trava do interpretador.", "Trava global.", "Só uma thread roda por vez.", "É o lock do Python.",
               "Uma trava que limita threads.", "Impede paralelismo de threads.", "Trava; threads", "Um lock global."]
    cal = fit_calibration(grader, [(Task(q, r), 3) for r in replies])
    tuned = OfflineGrader(grader.embedder, grader.cal, cal.adjust([q.id]))
    before = [g.points for g in grader.grade([Task(q, r) for r in replies])]
    after = [g.points for g in tuned.grade([Task(q, r) for r in replies])]
    assert sum(after) > sum(before) and sum(after) >= 2.5 * len(replies)  # the level moves, not only the order
    assert cal.agreement["leave_one_out"]["n"] == len(replies)
    wrong = tuned.grade([Task(q, "Receita de bolo de cenoura com chocolate.")])[0]
    assert wrong.points == 0  # the guards still zero what is off-topic


def test_a_reply_like_one_the_teacher_graded_is_graded_like_it(grader, quiz, tmp_path):
    """Ten graded replies to a question: the teacher's grade of the nearest pulls a reply's grade (and
    the graded replies are stored with the calibration, for kb grade and kb study)."""
    from kb.grading.calibration import Calibration, fit_calibration
    from kb.grading.offline import GRADED_LIKE_MIN, graded_like

    assert graded_like([0.99, 0.60, 0.55], [3, 0, 0]) > 2.9  # the nearest counts most
    assert abs(graded_like([0.7, 0.7], [3, 1]) - 2.0) < 1e-9  # equally near: their mean
    q = _q(quiz, "gil")
    teacher = [("Uma trava do interpretador.", 3), ("Só uma thread por vez.", 3), ("O lock global do Python.", 3),
               ("Trava global do CPython.", 3), ("Uma biblioteca de gráficos.", 0), ("Um tipo de GPU.", 0),
               ("Algo do Python.", 1), ("Um compilador.", 0), ("Serve para threads.", 1),
               ("Limita o paralelismo das threads em CPU.", 3)]
    assert len(teacher) == GRADED_LIKE_MIN
    cal = fit_calibration(grader, [(Task(q, r), p) for r, p in teacher])
    assert sorted(cal.graded["gil"]) == sorted(teacher)
    near_wrong, near_right = "Um tipo de GPU!", "Trava do interpretador"
    base = OfflineGrader(grader.embedder, grader.cal, cal.adjust([q.id]))  # the same level, no graded replies
    tuned = cal.grader(grader, [q.id])
    before = {g.reply: g.score for g in [_scored(base, q, near_wrong), _scored(base, q, near_right)]}
    after = {g.reply: g.score for g in [_scored(tuned, q, near_wrong), _scored(tuned, q, near_right)]}
    assert after[near_wrong] < before[near_wrong] and after[near_right] > before[near_right]
    # stored and read back with them; a schema 1 file (no graded replies) still reads
    back = Calibration.from_json(json.loads(json.dumps(cal.to_json())))
    assert back.graded == cal.graded and Calibration.from_json({"cuts": [0.7, 1.3, 2.0]}).graded == {}
    with pytest.raises(ValueError, match="graded"):
        Calibration.from_json({"cuts": [0.7, 1.3, 2.0], "graded": {"gil": [["x", 7]]}})
    # below GRADED_LIKE_MIN a question's graded replies do not move its grades
    few = Calibration(cal.cuts, cal.offsets, 3, graded={"gil": teacher[:3]})
    assert _scored(few.grader(grader, [q.id]), q, near_wrong).score == pytest.approx(_scored(
        OfflineGrader(grader.embedder, grader.cal, few.adjust([q.id])), q, near_wrong).score, abs=1e-6)


def test_kb_grade_says_where_graded_replies_grade_the_replies_like_them(tmp_path):
    quiz_path = tmp_path / "q.json"
    quiz_path.write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
    rows = [("question_id", "answer", "points")] + [("gil", r, p) for r, p in [
        ("Uma trava do interpretador.", 3), ("Só uma thread por vez.", 3), ("O lock global do Python.", 3),
        ("Trava global do CPython.", 3), ("Uma biblioteca de gráficos.", 0), ("Um tipo de GPU.", 0),
        ("Algo do Python.", 1), ("Um compilador.", 0), ("Serve para threads.", 1), ("Limita threads em CPU.", 3)]]
    graded = write_csv(tmp_path / "graded.csv", rows)
    replies = write_csv(tmp_path / "r.csv", [("student", "question_id", "answer"), ("Ana", "gil", "Um tipo de GPU!")])
    r = run_kb(["grade", str(quiz_path), str(replies), "--offline", "--calibrate", str(graded), "-o",
                str(tmp_path / "R")], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "on 1 question with 10+ graded replies, a reply like one you graded is graded partly like it" \
        in " ".join(r.stderr.split())
    stored = json.loads((tmp_path / "q.calibration").read_text(encoding="utf-8"))
    assert stored["schema"] == 2 and ["Um tipo de GPU.", 0] in stored["graded"]["gil"]
    r = run_kb(["grade", str(quiz_path), str(replies), "--offline", "-o", str(tmp_path / "R2")], cwd=tmp_path)
    assert r.returncode == 0 and "graded partly like it" in " ".join(r.stderr.split())  # the stored ones, next run


def _scored(g, q, reply):
    from types import SimpleNamespace

    return SimpleNamespace(reply=reply, score=g.grade([Task(q, reply)])[0].score)


def test_eval_grader_calibrate_k_reports_default_and_calibrated(tmp_path):
    rows = [("question_id", "question", "reference", "answer", "score")]
    for qid, qt, ref, good, bad in [
        ("a", "O que é o GIL?", "Uma trava do interpretador que deixa uma thread por vez.",
         "Uma trava global", "Um banco"),
        ("b", "O que faz o Map?", "Gera pares chave-valor a partir dos dados.",
         "Gera pares chave valor", "Apaga dados"),
    ]:
        for i in range(4):
            rows += [(qid, qt, ref, f"{good} {i}", 3), (qid, qt, ref, f"{bad} {i}", 0)]
    data = write_csv(tmp_path / "d.csv", rows)
    r = run_kb(["eval", "grader", str(data), "--scale", "0-3", "--calibrate-k", "2", "--json"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    c = json.loads(r.stdout)["calibration"]
    assert c["k"] == 2 and c["default"]["n"] == 12 and c["calibrated"]["n"] == 12
    assert {"human_mean", "kb_mean", "pearson", "qwk", "exact"} <= set(c["calibrated"])


# --------------------------------------------------------------------------- feedback that teaches

def test_feedback_is_in_the_reply_language_and_says_why(grader, quiz):
    full = _grade(grader, quiz, "gil", "É uma trava global do interpretador: só uma thread executa bytecode Python "
                                        "por vez, então threads não dão paralelismo em código que usa CPU.")
    part = _grade(grader, quiz, "gil", "É uma trava do interpretador do Python.")
    es = _grade(grader, quiz, "gil", "Es un candado global del intérprete: solo un hilo ejecuta bytecode de Python "
                                     "a la vez, por eso los hilos no dan paralelismo.")
    en_off = _grade(grader, quiz, "gil", "My favourite recipe is a carrot cake with chocolate icing on top.")
    inverted = _grade(grader, quiz, "gpu", "Não, a variável só pode ser usada na própria GPU.")
    assert part.points < 3 and part.feedback.startswith(("Parcialmente correto", "Pouco completo"))
    assert "Está certo: trava" in part.feedback and "Faltou: " in part.feedback and "Esperado: «O GIL" in part.feedback
    if full.points == 3:
        assert full.feedback.startswith("Correto.") and "Esperado" not in full.feedback
    assert "Evaluada por el sentido" in es.feedback and "Se esperaba" in es.feedback or es.points == 3
    assert en_off.points == 0 and "does not address the question" in en_off.feedback
    assert "A resposta modelo diz que sim; a resposta diz o contrário." in inverted.feedback
    assert "Compared with the model answer" not in part.feedback + full.feedback


def test_partial_with_every_concept_present_says_why():
    from kb.grading.offline import compose_feedback

    fb = compose_feedback("pt", 2, ["trava", "thread"], [], [], "O GIL é uma trava. Outra frase.")
    assert fb == ("Parcialmente correto (2/3). Está certo: trava, thread. Os conceitos-chave estão lá, mas a "
                  "explicação não diz o mesmo que a resposta modelo. Esperado: «O GIL é uma trava. Outra frase.»")
    assert compose_feedback("es", 0, [], [], ["empty"], "Un grafo.") == (
        "Incorrecto (0/3). Sin respuesta. Se esperaba: «Un grafo.»")


def test_llm_grader_takes_the_teachers_graded_replies_as_few_shot(tmp_path):
    quiz_path = tmp_path / "q.json"
    quiz_path.write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
    graded = write_csv(tmp_path / "graded.csv", [("question_id", "answer", "points"),
                                                  ("gil", "Uma trava que serializa as threads.", 3),
                                                  ("gil", "Um compilador.", 0)])
    replies = write_csv(tmp_path / "r.csv", [("student", "question_id", "answer"),
                                              ("Ana", "gil", "Uma trava global.")])
    with OpenAIStub(lambda b: reply({"reasoning": "ok", "score": 3, "feedback": "Certo."})) as stub:
        env = {"OPENAI_BASE_URL": stub.url, "KB_LLM_MODEL": "judge", "OPENAI_API_KEY": "k"}
        r = run_kb(["grade", str(quiz_path), str(replies), "--calibrate", str(graded), "-o", str(tmp_path / "o")],
                   cwd=tmp_path, env=env)
        assert r.returncode == 0, r.stderr
        prompt = stub.requests[-1]["messages"][-1]["content"]
    assert "Example graded by the instructor (3/3): Uma trava que serializa as threads." in prompt
    assert "in the language of the student answer" in prompt and "A short answer" in prompt


def test_course_set_is_well_formed_and_graded_near_the_teacher(tmp_path):
    """eval/grading_course.csv: >= 150 replies to >= 15 questions in pt/es/en, every rubric kind; the
    default level was fitted on it too, so this is a regression guard, not the reported number (the
    README reports it leave-one-question-out with bench/calibrate_grader.py)."""
    from collections import Counter

    from ..conftest import ROOT

    path = ROOT / "eval" / "grading_course.csv"
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert len(rows) >= 150 and len({r["question_id"] for r in rows}) >= 15
    assert {r["lang"] for r in rows} == {"pt", "es", "en"} and {r["score"] for r in rows} == {"0", "1", "2", "3"}
    kinds = Counter(r["kind"] for r in rows)
    assert {"short", "paraphrase", "partial", "wrong", "keywords", "contradiction", "other_lang"} <= set(kinds)
    r = run_kb(["eval", "grader", str(path), "--scale", "0-3", "--offline", "--json"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert res["n"] == len(rows) and abs(res["kb_mean"] - res["human_mean"]) <= 0.3 and res["qwk"] > 0.55
