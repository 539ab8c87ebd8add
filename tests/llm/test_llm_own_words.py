"""The checks read a model's questions as written in its own words (round 38: a capable model's drafts that raters
would keep were turned down by rules written for the offline writer's slide lines), and the writer keeps the
model's own concepts. Unit tests on the registry's functions, then end to end: the LLM writer against a real
local HTTP server speaking the OpenAI chat-completions API (tests/openai_stub.py) on the real sample course,
and `kb eval quiz` on its quiz."""

from __future__ import annotations

import json
from types import SimpleNamespace

from kb.quiz import Citation, Question
from kb.writing.check_restates import restates_question
from kb.writing.checks import cut_off, foreign_material, unsupported
from kb.writing.concepts import concepts_beside_stem
from kb.writing.defect_model import drop_risk

from ..conftest import run_kb
from ..openai_stub import OpenAIStub
from .conftest import stub_env
from .test_llm_checks import QUOTE, SOURCE, _generate, _one_question


def _q(kind: str, prompt: str, answer: str, origin: str, quote: str = "", correct=None) -> Question:
    return Question(kind, prompt, answer, (Citation("d.pdf", "p. 1", "c1", quote),), ("x",), "medium", "es",
                    correct=correct, origin=origin)


STEM = "En OWL-ViT, ¿qué pasos se siguen para usar una imagen de ejemplo como consulta?"


def test_an_answer_that_names_its_subject_again_and_explains_is_no_restatement_from_a_model():
    explains = ("Se pasa la imagen de ejemplo por el detector, se elige el token cuya caja predicha mejor coincide "
                "con el objeto y se usa su embedding de clase como consulta en las imágenes objetivo.")
    assert restates_question(_q("short", STEM, explains, "llm")) is None
    # ... but one that says little past the stem is, whoever wrote it
    echo = "Se usa una imagen de ejemplo como consulta en OWL-ViT siguiendo unos pasos."
    assert restates_question(_q("short", STEM, echo, "llm")) == "restates-question"
    # the offline writer's answers (a slide's lines) keep the rule they were measured with
    assert restates_question(_q("short", STEM, explains, "definition")) == "restates-question"


DECK = "OWL-ViT. El ajuste de extremo a extremo: encoder de imagen, encoder de texto y cabezas se entrenan juntos."


def test_a_models_false_statement_may_use_everyday_words_the_deck_does_not_but_no_name_it_never_says():
    ordinary = "En OWL-ViT, el encoder de texto se mantiene congelado y solo se entrenan las cabezas."
    assert foreign_material(_q("tf", ordinary, "Falso", "llm", correct=False), DECK) is None
    named = "En OWL-ViT, el encoder de texto se congela con el Gerenciador de Tarefas do Windows."
    assert foreign_material(_q("tf", named, "Falso", "llm", correct=False), DECK) == "implausible-distractor"
    # a name among the deck's own words; one opening the sentence (that no language uses every day); an ordinary
    # word opening it is none
    among = "En OWL-ViT, el encoder de texto se entrena con PyTorch Lightning."
    assert foreign_material(_q("tf", among, "Falso", "llm", correct=False), DECK) == "implausible-distractor"
    first = "Keras entrena el encoder de texto de OWL-ViT y las cabezas juntos."
    assert foreign_material(_q("tf", first, "Falso", "llm", correct=False), DECK) == "implausible-distractor"
    opener = "Además, en OWL-ViT el encoder de texto se mantiene congelado y solo se entrenan las cabezas."
    assert foreign_material(_q("tf", opener, "Falso", "llm", correct=False), DECK) is None
    # mostly words the deck never says: off the deck, however ordinary
    off = "En OWL-ViT, la fotosíntesis ocurre en los cloroplastos."
    assert foreign_material(_q("tf", off, "Falso", "llm", correct=False), DECK) == "implausible-distractor"
    # the offline writer's false statement swaps in another deck's words: any word the deck never says
    assert foreign_material(_q("tf", ordinary, "Falso", "pattern", correct=False), DECK) == "implausible-distractor"


PASSAGE = "• Caja: L1 sobre (cx, cy, w, h) + generalized IoU (gIoU)\n• Clase: focal loss sobre cada token"


def test_a_models_true_statement_in_its_own_words_is_backed_by_its_quote():
    quote = "Caja: L1 sobre (cx, cy, w, h) + generalized IoU (gIoU)"
    said = "La pérdida de caja de OWL-ViT combina L1 sobre (cx, cy, w, h) con generalized IoU (gIoU)."
    assert unsupported(_q("tf", said, "Verdadero", "llm", quote, correct=True), PASSAGE) is None
    # the offline writer's true statements are the passage's own: these words are not all there
    assert unsupported(_q("tf", said, "Verdadero", "pattern", quote, correct=True), PASSAGE) == "unsupported"
    # a short statement whose words come from elsewhere in the passage shares too few with its quote (a word share:
    # one that keeps most of the quote's words would pass whatever it swaps)
    swapped = "La pérdida de clase de OWL-ViT es L1 sobre (cx, cy, w, h)."
    assert unsupported(_q("tf", swapped, "Verdadero", "llm", quote, correct=True), PASSAGE) == "unsupported"
    # a quote the passage does not hold backs nothing
    assert unsupported(_q("tf", said, "Verdadero", "llm", "Caja: smooth L1 y DIoU", correct=True),
                       PASSAGE) == "unsupported"


def test_a_models_quote_may_stop_inside_a_slide_line_its_answer_may_not():
    passage = "• Sesgo de caja: por defecto la caja de cada token se centra en su posición en la rejilla 2D"
    quote = "por defecto la caja de cada token se centra en su posición"
    q = _q("short", "En OWL-ViT, ¿dónde centra el sesgo de caja la caja de cada token?",
           "En la posición del token en la rejilla 2D de la imagen.", "llm", quote)
    assert cut_off(q, passage) is None
    assert cut_off(_q("short", q.prompt, q.answer, "pattern", quote), passage) == "cut-off"


def test_a_models_concept_turned_down_does_not_come_back_when_the_answer_has_no_points():
    long = "verificar a memória com nvidia-smi e alocar só parte dela na GPU"
    q = Question("short", "No capítulo 12, com que ferramenta se verifica a memória da GPU?", "Com nvidia-smi.",
                 (Citation("d.pdf", "p. 1", "c1", "x"),), (long,), "medium", "pt", origin="llm")
    course = SimpleNamespace(key_concepts=lambda *a, **k: ())
    assert concepts_beside_stem(q, course, "d.pdf", own=True).concepts == ()  # (the writer then asks the course's)


def test_the_drop_risk_gives_no_verdict_on_a_models_question():
    q = _q("short", STEM, "Se pasa la imagen de ejemplo por el detector y se usa su embedding.", "llm")
    risk = drop_risk(q)
    assert risk["fitted"] is False and risk["likely"] is False and risk["why"] == [] and 0 <= risk["p"] <= 1
    assert "fitted" not in drop_risk(_q("short", STEM, q.answer, "definition"))


MODEL_CONCEPTS = ["nvidia-smi", "alocar parte da memória", "uso da memória da GPU"]


def _reply(concepts: list[str]) -> dict:
    """What the model answers about the deck's GPU memory passage, with ``concepts``."""
    return {"type": "short", "prompt": "No capítulo 12 sobre TensorFlow distribuído, como se acompanha e se limita "
                                       "a memória que o TensorFlow usa na GPU?",
            "answer": "Verifica-se o uso da memória da GPU com nvidia-smi e configura-se o TensorFlow para alocar "
                      "apenas parte da memória da GPU.",
            "quote": QUOTE, "concepts": concepts, "difficulty": "medium"}


def test_the_writer_keeps_the_models_own_concepts(ws):
    q = _reply(MODEL_CONCEPTS)
    report, _, _ = _generate(ws, _one_question(q), ("short",))
    assert [list(x.concepts) for x in report.quiz.questions] == [MODEL_CONCEPTS], report.rejected


def test_of_the_models_concepts_those_a_grader_cannot_use_go_one_by_one(ws):
    long = "verificar a memória com nvidia-smi e alocar só parte dela na GPU"
    q = _reply(["nvidia-smi", long])
    report, _, _ = _generate(ws, _one_question(q), ("short",))
    assert [list(x.concepts) for x in report.quiz.questions] == [["nvidia-smi"]], report.rejected  # (over six words)
    # with none of its own left, kb's own take their place, never the one it turned down
    report, _, _ = _generate(ws, _one_question(_reply([long])), ("short",))
    assert report.quiz.questions and all(long not in x.concepts and x.concepts for x in report.quiz.questions)


def test_eval_quiz_says_the_drop_risk_is_not_estimated_for_a_models_questions(ws):
    q = _reply(MODEL_CONCEPTS)

    with OpenAIStub(_one_question(q)) as stub:
        r = run_kb(["quiz", "generate", "-n", "1", "--types", "short", "--source", SOURCE, "-o", "m.json",
                    "--no-cache"], cwd=ws, env=stub_env(stub.url))
    assert r.returncode == 0, r.stderr
    out = run_kb(["eval", "quiz", "m.json", "--json"], cwd=ws)
    data = json.loads(out.stdout)
    assert data["n"] == 1 and data["likely_dropped"] == 0 and data["risk_not_estimated"] == 1
    said = run_kb(["eval", "quiz", "m.json"], cwd=ws)
    assert "not estimated for 1 written by a model" in said.stdout, said.stdout
