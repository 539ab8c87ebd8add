"""Grading v4: a reply that may say the opposite of the model answer in its own words (a negation the
model answer does not make, or a word's opposite next to the same words) — the pure detector, the
readings it must not take for a contradiction (each one a reply a teacher graded 2–3), and what the
real offline grader and `kb grade` do with it: tell the teacher, not count it."""

from __future__ import annotations

import csv
import json

import pytest

from kb.embeddings import get_embedder
from kb.grading.base import Task
from kb.grading.offline import OfflineGrader
from kb.grading.polarity import opposite_claim
from kb.quiz import Question

from ..conftest import run_kb

RDD_Q = "O que é um RDD no Spark e o que significa ser resiliente?"
RDD_A = ("RDD (Resilient Distributed Dataset) é a unidade fundamental de dados do Spark, distribuída na memória por "
         "todo o cluster; resiliente significa que, se os dados forem perdidos, podem ser recriados a partir da "
         "linhagem de transformações.")
TF_Q = "¿Qué hace el decorador @tf.function?"
TF_A = ("La primera vez que se ejecuta la función genera un grafo de la computación que se reutiliza en las "
        "ejecuciones siguientes, lo que la hace más rápida.")
SHARD_Q = "What is dataset sharding in distributed training?"
SHARD_A = "Splitting the dataset among the workers so that each one processes a different part, a shard, of the data."


def test_a_negation_the_model_answer_does_not_make_is_an_opposite():
    o = opposite_claim(RDD_Q, [RDD_A], "RDD é a estrutura de dados distribuída do Spark; resiliente quer dizer que "
                                       "os dados ficam gravados em disco e, se forem perdidos, não podem ser "
                                       "recriados.", "pt")
    assert o is not None and o.said == "não recriados" and o.instead == "recriados"
    o = opposite_claim(TF_Q, [TF_A], "Hace que la función se ejecute en modo eager, sin construir ningún grafo.", "es")
    assert o is not None and o.said == "no grafo"


def test_an_opposite_word_next_to_the_same_words():
    o = opposite_claim(SHARD_Q, [SHARD_A], "Every worker receives a full copy of the whole dataset, so all workers "
                                           "process the same data.", "en")
    assert o is not None and (o.said, o.instead) == ("same", "different")
    # the same pair about other things is no contradiction: "a mesma placa" vs "GPUs diferentes"
    ref = ("O TensorFlow aloca toda a memória das GPUs visíveis, e outro processo já ocupa memória numa GPU. "
           "Soluções: dar a cada processo GPUs diferentes ou alocar só parte da memória.")
    assert opposite_claim("Por que o segundo programa falha com CUDA_ERROR_OUT_OF_MEMORY?", [ref],
                          "O TensorFlow reserva toda a RAM de cada GPU que enxerga, então um segundo programa na "
                          "mesma placa falha; limite a fração de memória por processo.", "pt") is None


def test_right_replies_that_negate_in_other_words_are_not_opposites():
    # "limita o paralelismo" says what "no parallelism" says (and across languages stems prove nothing)
    gil = ("O GIL é uma trava que deixa só uma thread executar bytecode Python por vez, o que limita o paralelismo "
           "de threads em tarefas de CPU.")
    assert opposite_claim("O que é o GIL?", [gil], "It is a global interpreter lock: only one thread runs "
                          "bytecode at a time, so threads give no parallelism for CPU-bound work.", "pt") is None
    assert opposite_claim("O que é o GIL?", [gil], "Uma trava do interpretador: só uma thread roda por vez, então "
                          "não há paralelismo entre as threads em tarefas de CPU.", "pt") is None
    # a negated aim: "para que no se sature" is what the fix is for
    gan = ("Al principio D gana con facilidad; minimizar log(1 − D(G(z))) da un gradiente casi nulo (satura) y G no "
           "aprende. La non-saturating da una señal fuerte.")
    assert opposite_claim("¿Por qué se usa la pérdida non-saturating?", [gan],
                          "Para que no se sature el gradiente de G", "es") is None
    # a negated bound: "nunca tem mais que p" is "no máximo p"
    pipe = "O 1F1B mantém no máximo p micro-batches em voo, limitando a memória."
    assert opposite_claim("Como o 1F1B limita a memória?", [pipe],
                          "O 1F1B nunca tem mais que p micro-batches pendentes.", "pt") is None
    # pt "precisa" (needs) and es "precisión" share a stem, not a meaning
    bf16 = "BF16 tiene el mismo rango que FP32, aunque menos precisión, así que no sufre ese underflow."
    assert opposite_claim("¿Por qué BF16 no necesita GradScaler?", [bf16],
                          "O BF16 tem o mesmo range do FP32, só perde precisão, então não precisa.", "es") is None


def test_a_singular_and_its_plural_in_oes_are_one_word():
    """The sample book says the values live "não nas sessões individuais do cliente" (and, later, that "a sessão"
    may close): "não na sessão" agrees with it; "sessão" and "sessões" differ at the fifth letter."""
    from kb.grading.signals import stem

    assert stem("sessões") == stem("sessão") == stem("SESSÕES") and stem("pães") == stem("pão")
    assert stem("héroes") == stem("héroe")  # Spanish "-oes" is no "-ões"
    book = ("O modelo não será perdido. Em um cluster TensorFlow distribuído, os valores das variáveis do modelo são "
            "armazenados em contêineres gerenciados pelo próprio cluster, e não nas sessões individuais do cliente. "
            "Isso significa que, mesmo que seu programa cliente termine e a sessão seja fechada, os parâmetros do "
            "modelo permanecem ativos no cluster.")
    assert opposite_claim("Seu modelo treinado foi perdido?", [book], "Não, as variáveis ficam guardadas em "
                          "containers do próprio cluster e não na sessão do cliente, basta abrir outra sessão.",
                          "pt") is None


def test_relations_that_turn_with_their_terms_and_the_questions_own_words_are_no_evidence():
    order = "Primero optimizer.step() y después scheduler.step(); si se invierte, se salta el primer valor."
    assert opposite_claim("¿En qué orden se llaman optimizer.step() y scheduler.step()?", [order],
                          "optimizer.step() antes; si no, se pierde el primer lr", "es") is None
    cells = "A célula vegetal tem parede celular e cloroplastos; a célula animal tem centríolos."
    assert opposite_claim("Qual a diferença entre a célula animal e a célula vegetal?", [cells],
                          "A vegetal tem parede celular e cloroplastos, que não existem nas células animais.",
                          "pt") is None


def test_a_comparison_is_checked_term_by_term():
    ref = ("En el síncrono hay que esperar a todos los trabajadores para promediar los pesos; en el asíncrono no "
           "se espera, pero los gradientes pueden quedar obsoletos y la convergencia es más lenta.")
    q = "¿Qué desventaja tiene el entrenamiento síncrono y cuál el asíncrono?"
    assert opposite_claim(q, [ref], "Sincrónico: el worker más lento frena a todos. Asincrónico: no hay espera, "
                                    "pero el entrenamiento tarda más en converger.", "es") is None
    o = opposite_claim(q, [ref], "En el síncrono hay que esperar a todos; en el asíncrono la convergencia es más "
                                 "rápida.", "es")
    assert o is not None and (o.said, o.instead) == ("rápida", "lenta")


def test_a_reply_that_agrees_with_any_accepted_answer_is_not_opposite():
    other = "Resiliente: os dados perdidos não podem ser recriados, só relidos do disco."  # accepted, oddly
    reply = "Resiliente quer dizer que, se forem perdidos, os dados não podem ser recriados."
    assert opposite_claim(RDD_Q, [RDD_A], reply, "pt") is not None
    assert opposite_claim(RDD_Q, [RDD_A, other], reply, "pt") is None


@pytest.fixture(scope="module")
def grader():
    return OfflineGrader(get_embedder("use-m3"))


RDD_RIGHT = ("É o Resilient Distributed Dataset, os dados distribuídos na memória do cluster; resiliente porque os "
             "dados perdidos podem ser recriados pela linhagem.")
RDD_NEGATED = ("É o Resilient Distributed Dataset, os dados distribuídos na memória do cluster; resiliente quer dizer "
               "que os dados perdidos não podem ser recriados.")


def test_the_grader_points_the_teacher_to_a_possible_contradiction_without_counting_it(grader):
    """On replies written after the detector, about half of what it finds were contradictions: it tells
    the teacher where to look (Grade.check, in the question's language) and leaves points and the
    student's feedback alone."""
    q = Question("short", RDD_Q, RDD_A, (), concepts=("Resilient Distributed Dataset", "memória", "recriados"),
                 id="rdd", lang="pt")
    right, negated = grader.grade([Task(q, RDD_RIGHT), Task(q, RDD_NEGATED)])
    assert not right.check and "may_contradict" not in right.flags
    assert "may_contradict" in negated.flags and negated.points >= 2
    assert negated.check == "Pode dizer o contrário da resposta modelo: «não recriados» onde ela diz «recriados»."
    assert "contrário" not in negated.feedback
    assert negated.to_json()["check"] == negated.check and "check" not in right.to_json()
    q_es = Question("short", SHARD_Q, SHARD_A, (), concepts=("workers", "different part", "shard"), id="shard",
                    lang="es")
    (g,) = grader.grade([Task(q_es, "Every worker receives a full copy of the whole dataset, so all workers process "
                                    "the same data.")])
    assert g.check == "Puede decir lo contrario de la respuesta modelo: «same» donde ella dice «different»."


QUIZ = {"schema": 1, "title": "Spark", "questions": [
    {"id": "rdd", "type": "short", "prompt": RDD_Q, "answer": RDD_A, "lang": "pt",
     "concepts": ["Resilient Distributed Dataset", "memória", "recriados"]}]}


def test_kb_grade_lists_the_replies_to_check_until_the_teacher_overrides_them(tmp_path):
    quiz = tmp_path / "quiz.json"
    quiz.write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
    replies = tmp_path / "replies.csv"
    with replies.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([("student", "question_id", "answer"), ("Ana", "rdd", RDD_RIGHT),
                                 ("Bruno", "rdd", RDD_NEGATED)])
    out = tmp_path / "grades"
    r = run_kb(["grade", str(quiz), str(replies), "--out", str(out)], cwd=tmp_path)
    assert r.returncode == 0 and "1 reply to check: it may say the opposite of the model answer" in r.stderr
    md = (out / "grades.md").read_text(encoding="utf-8")
    section = md.split("## Replies to check", 1)[1].split("## Feedback", 1)[0]
    assert "- **Bruno**, Q1" in section and "«não recriados» onde ela diz «recriados»" in section
    assert "Ana" not in section
    with (out / "grades.csv").open(encoding="utf-8") as f:
        rows = {r["student"]: r for r in csv.DictReader(f)}
    assert rows["Bruno"]["check"].startswith("Pode dizer o contrário") and rows["Ana"]["check"] == ""
    # the teacher agrees it is a contradiction: the override takes it off the list, and the check is kept
    rows["Bruno"]["override"] = "0"
    with (out / "grades.csv").open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows["Ana"]))
        w.writeheader()
        w.writerows(rows.values())
    r = run_kb(["grade", str(quiz), str(replies), "--out", str(out)], cwd=tmp_path)
    assert r.returncode == 0 and "to check" not in r.stderr
    assert "## Replies to check" not in (out / "grades.md").read_text(encoding="utf-8")
    data = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    assert data["students"]["Bruno"]["grades"]["rdd"]["points"] == 0
