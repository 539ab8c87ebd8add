"""The LLM writer's validation sees what `kb eval quiz` sees: distractors and false-statement
words the cited source never uses are rejected (as the offline writer never writes them), and
the prompt puts its fixed instructions first so a local server can reuse what it already read.
Against a real local HTTP server speaking the OpenAI chat-completions API (tests/openai_stub.py)
and the real sample course."""

from __future__ import annotations

import re

import pytest

from kb.config import Settings
from kb.evaluate import evaluate_quiz
from kb.llm import LLMClient, LLMWriter
from kb.workspace import open_workspace
from kb.writing.generate import GenerationRequest, generate_quiz

from ..openai_stub import Behaviour, OpenAIStub, reply

SOURCE = "sources/001_96d83118e2ee854a.txt"  # the TensorFlow chapter summary (pt)
QUOTE = ("Ele também discute como verificar o uso da memória da GPU com nvidia-smi e como configurar o "
         "TensorFlow para alocar apenas parte da memória da GPU.")


def passage_with(body: dict, text: str) -> int | None:
    user = body["messages"][-1]["content"]
    for m in re.finditer(r"Passage (\d+): \([^\n]*\)\n(.*?)(?=\n\nPassage \d+:|\n\nWrite )", user, re.S):
        if text in m.group(2):
            return int(m.group(1))
    return None


def _one_question(question: dict):
    def script(body: dict) -> Behaviour:
        n = passage_with(body, "nvidia-smi")
        return reply({"questions": [{**question, "passage": n}] if n else []})

    return script


def _generate(ws, script, types: tuple[str, ...]):
    with OpenAIStub(script) as stub:
        settings = Settings(home=ws / ".kb", llm_base_url=stub.url, llm_model="stub-model", llm_api_key="k",
                            llm_timeout=5.0, llm_retries=0)
        report = generate_quiz(open_workspace(settings), GenerationRequest(n=1, types=types, sources=(SOURCE,)),
                               LLMWriter(LLMClient(settings)))
    return report, stub.requests, settings


MCQ = {"type": "mcq", "prompt": "No capítulo 12, qual comando verifica o uso da memória da GPU?",
       "answer": "nvidia-smi", "correct": 0, "quote": QUOTE, "concepts": ["nvidia-smi"], "difficulty": "easy"}


def test_mcq_with_distractors_from_the_source_is_kept_and_eval_sees_no_defect(ws):
    q = {**MCQ, "choices": ["nvidia-smi", "tf.device()", "tensorflow-gpu", "dynamic placer"]}
    report, _, settings = _generate(ws, _one_question(q), ("mcq",))
    assert [x.answer for x in report.quiz.questions] == ["nvidia-smi"], report.rejected
    assert evaluate_quiz(open_workspace(settings), report.quiz)["clean"] == 1.0


def test_mcq_with_a_distractor_the_source_never_uses_is_rejected(ws):
    # a real 1.5B model's habit: a plausible tool from outside the course ("htop")
    q = {**MCQ, "choices": ["nvidia-smi", "tf.device()", "tensorflow-gpu", "htop"]}
    report, _, _ = _generate(ws, _one_question(q), ("mcq",))
    assert not report.quiz.questions
    assert [r.reason for r in report.rejected] == ["failed checks: implausible-distractor"]


def test_false_statement_built_from_words_the_source_never_uses_is_rejected(ws):
    q = {"type": "tf",
         "prompt": "No capítulo 12, a memória da GPU é verificada com o Gerenciador de Tarefas do Windows.",
         "answer": "false", "correct": False, "quote": QUOTE, "concepts": ["nvidia-smi"], "difficulty": "easy"}
    report, _, _ = _generate(ws, _one_question(q), ("tf",))
    assert not report.quiz.questions
    assert [r.reason for r in report.rejected] == ["failed checks: implausible-distractor"]


def test_prompt_starts_with_the_same_instructions_for_every_batch(ws):
    _, requests, _ = _generate(ws, lambda body: reply({"questions": []}), ("short", "cloze"))
    users = [r["messages"][-1]["content"] for r in requests]
    assert len(users) >= 2
    heads = {u.split("Passage 1:")[0] for u in users}
    assert len(heads) == 1 and next(iter(heads)).startswith("Return JSON:")  # one cacheable prefix
    assert all(u.index("Passage 1:") < u.index("\n\nWrite ") for u in users)


@pytest.mark.parametrize("question, reason", [
    # what Qwen2.5-Coder-1.5B wrote on 03Datos.pdf p. 9: the option marked as "not common" is on the slide's list
    ({**MCQ, "prompt": "No capítulo 12, qual das opções NÃO é usada para trabalhar com a GPU?",
      "choices": ["nvidia-smi", "tf.device()", "tensorflow-gpu", "dynamic placer"], "correct": 3},
     "multiple choice asks which option is NOT something"),
    ({**MCQ, "choices": ["nvidia-smi", "tf.device()", "tensorflow-gpu"]},
     "multiple choice without 4 choices and a valid correct index"),
    # "¿Es posible crear conjuntos de datos personalizados …?" → "Sí": a yes/no question, not a statement
    ({"type": "tf", "prompt": "No capítulo 12, é possível verificar o uso da memória da GPU com nvidia-smi?",
      "answer": "true", "correct": True, "quote": QUOTE, "concepts": ["nvidia-smi"], "difficulty": "easy"},
     "true/false written as a question, not a statement"),
])
def test_shapes_a_teacher_would_not_keep_are_rejected(ws, question, reason):
    report, _, _ = _generate(ws, _one_question(question), (question["type"],))
    assert not report.quiz.questions
    assert [r.reason for r in report.rejected] == [reason]


def test_multiple_choice_prompt_lists_the_deck_terms_for_wrong_options(ws):
    _, requests, _ = _generate(ws, lambda body: reply({"questions": []}), ("mcq",))
    user = requests[0]["messages"][-1]["content"]
    terms = re.search(r"The deck's term list \(wrong options of a multiple choice come from it\): (.*)\n", user)
    assert terms and {"tf.device", "tf.ConfigProto"} <= set(terms.group(1).split("; "))


@pytest.mark.parametrize("prompt, found", [
    # kept by the LLM writer on 05modelos.pdf p. 17-18 before this check: no slide says which is "most used"
    ("¿Cuál es el servicio de almacenamiento en la nube que más se utiliza?", "subjective"),
    ("¿Qué plataforma de aprendizaje automático en la nube ofrece más opciones para el entrenamiento?", "subjective"),
    ("¿Cuál es el aspecto más importante a considerar al utilizar servicios en la nube?", "subjective"),
    ("No capítulo 12, qual comando verifica o uso da memória da GPU?", None),
    # the offline writer's template quotes the slide: its words are not the question's opinion
    ("En «Técnicas», ¿qué término corresponde a esta descripción: «la técnica más usada para balancear»?", None),
])
def test_multiple_choice_asking_for_an_opinion_is_subjective(prompt, found):
    from kb.quiz import Question
    from kb.writing.checks import subjective

    q = Question("mcq", prompt, "Amazon S3", (), ("Amazon S3",), "easy", "es",
                 choices=("Amazon S3", "Google Cloud Storage", "Microsoft Azure Blob Storage", "SageMaker"), correct=0)
    assert subjective(q) == found
