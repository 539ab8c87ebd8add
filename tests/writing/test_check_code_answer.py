"""A short question whose model answer opens on a shard of code the PDF's lines left behind ("else. {"params":
…}", "if step % 500 == 0. …", "). Devuelve …") answers nothing and gives a grader nothing to mark with: the
registry reports ``code-answer``, so the writers drop it and ``kb eval quiz`` flags it. A question that asks
for code, and an answer that names code inside a sentence, pass. (Read on eval/real_heldout_r12's drops;
the wordings here are new.)"""

from __future__ import annotations

import pytest

from kb.quiz import Citation, Question
from kb.writing.check_answer_shape import code_answer
from kb.writing.checklist import CheckContext, question_defects, run_checks

CITE = (Citation("optim_pt.pdf", "p. 7", "", ""),)


def _short(prompt: str, answer: str) -> Question:
    return Question("short", prompt, answer, CITE, ("projeção de baixo posto",), lang="pt")


@pytest.mark.parametrize("answer", [
    'else. {"params": outros}, {"params": projetados, "rank": 64}. Projeção de baixo posto dos gradientes.',
    "if step % 500 == 0. if handle is not None. handle.wait(). O salvamento corre em segundo plano.",
    "). Devolve o modelo, o otimizador e o DataLoader já embrulhados.",
    "for p in model.parameters(): projeta o gradiente num subespaço de posto r.",
])
def test_an_answer_opening_on_a_code_shard_is_flagged(answer):
    q = _short("Em otimizadores com pouca memória, o que é a projeção do gradiente?", answer)
    page = "Projeção do gradiente\n" + answer
    assert "code-answer" in question_defects(q, CheckContext(page, page))
    assert "code-answer" in run_checks(q, CheckContext(page, page))  # the writers drop it too


@pytest.mark.parametrize("prompt, answer", [
    ("Em otimizadores com pouca memória, o que é a projeção do gradiente?",
     "Projeta o gradiente G num subespaço de posto r (P = primeiras r colunas do SVD de G) e guarda o estado "
     "do Adam nesse subespaço."),
    ("Em otimizadores com pouca memória, o que é a projeção do gradiente?",
     "Se o posto r for pequeno, o estado do otimizador cai muito: com r = 128 guarda-se uma fração."),
    ("Escreva o código que cria os grupos de parâmetros do otimizador.",
     'if galore: {"params": projetados, "rank": 64}, else: {"params": outros}.'),
])
def test_prose_answers_and_questions_that_ask_for_code_pass(prompt, answer):
    q = _short(prompt, answer)
    assert "code-answer" not in question_defects(q, CheckContext(answer, answer))


@pytest.mark.parametrize("prompt, answer", [
    # a line cut from its start: more brackets closed than opened in the first sentence (round 22's "em código")
    ("Em Pré-treino do BERT, o que é o fine-tuning em código?",
     'TrainingArguments, Trainer). "bert-base-uncased", num_labels=2). Com tokenizer passado, o Trainer faz padding.'),
    ("Em X, explique o pipeline.", '("cat", OrdinalEncoder(handle_unknown="use_encoded_value"), cols)]. Depois, fit.'),
    # a JSON object's key opening the answer
    ("Em geração estruturada, o que é o function calling?",
     '"parameters": {"type": "object", "properties": {}}}]. No vLLM: vllm serve --enable-auto-tool-choice.'),
])
def test_an_answer_opening_on_a_line_cut_from_its_start_is_code_whatever_the_stem_asks(prompt, answer):
    assert code_answer(Question("short", prompt, answer, CITE, lang="pt")) == ["code-answer"]


@pytest.mark.parametrize("answer", [
    "Mecanismo que pondera (con softmax) los valores por la similitud.",
    "f(x) devuelve [x, x + 1]: una lista de dos enteros.",
    "Dos pasos: (1) cuantizar; (2) calibrar.",
    "1) cuantizar los pesos. 2) calibrar con datos.",
    "a) el encoder; b) el decoder.",
])
def test_balanced_brackets_in_prose_are_no_code_shard(answer):
    assert code_answer(Question("short", "¿Qué es la atención en código?", answer, CITE, lang="es")) == []



@pytest.mark.parametrize("answer", [
    "ii) calibrar con datos; iii) evaluar el modelo.",
    "Pasos:1) cuantizar los pesos; 2) calibrar.",
    "IV) la capa de salida normaliza.",
])
def test_an_items_roman_numeral_or_number_after_a_colon_is_no_code_shard(answer):
    assert code_answer(Question("short", "¿Qué pasos sigue la cuantización?", answer, CITE, lang="es")) == []
