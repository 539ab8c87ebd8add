"""A slide of common mistakes ("Errores comunes", "Erros comuns") whose bullets read "cause -> consequence" is
asked, bullet by bullet, what the mistake causes, answered by the bullet's right side (a short answer, or a
multiple choice among the slide's consequences where short answers lead the quiz) (issue 26: 14 of the 16
r6/r7 dev decks end on such a slide, which no pattern fit, so quizzes stopped short of ``-n``). At most two per
slide; a remedy on the right ("-> usar variáveis de ambiente") is asked as what to do instead; a sub-bullet
("el refcount toca cada objeto -> …") and a bullet without an arrow ask nothing.

The form was written on the r7 decks; these tests check it on r6's (tracking_pt, cudaprog_es), rendered as
eval/deck_pdf.py renders them, and on a deck written here for the remedy and sub-bullet cases, through the
public API (``generate_quiz`` with the offline writer).
"""

from __future__ import annotations

import pytest

from kb.writing.pattern_errors import PER_SLIDE, consequences, error_forms, errors_slide

from ..conftest import deck_quizzes, heldout_decks, text_deck

pytestmark = pytest.mark.slow

MISTAKES_DECK = """=== Entrenamiento distribuido con PyTorch
• DistributedDataParallel replica el modelo en cada GPU y promedia los gradientes
• Cada proceso lee su propio trozo del dataset con un DistributedSampler
=== Ajustar el learning rate
• Un batch mayor permite un learning rate mayor -> el entrenamiento converge en menos pasos
• El warmup sube el learning rate poco a poco durante las primeras épocas
=== Errores comunes
• Fijar la semilla solo en el rank 0 -> cada proceso inicializa pesos distintos y los modelos divergen
• Guardar el checkpoint desde todos los ranks -> usar solo el rank 0 para escribir el archivo
• Listas de Python en el Dataset con fork
  • el refcount toca cada objeto -> copy-on-write copia las páginas en cada worker
• Olvidar model.eval() antes de validar
"""


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, model_cache):
    """``generate_quiz`` -n 12 offline on each deck (library call), in one knowledge base."""
    def add(corpora):
        heldout_decks(("tracking_pt", "cudaprog_es"))(corpora)
        text_deck("mistakes_es", MISTAKES_DECK)(corpora)

    return deck_quizzes(tmp_path_factory.mktemp("errors"), add, ("tracking_pt", "cudaprog_es", "mistakes_es"),
                        model_cache)


def _errors(qs):
    return [q for q in qs if "erro comum" in q.prompt or "error frecuente" in q.prompt
            or "en lugar de esto" in q.prompt]


def test_a_mistake_is_asked_by_its_consequence_on_r6_decks(quizzes):
    """tracking_pt p. 20 "Erros comuns", cudaprog_es's "Errores comunes": the cause quoted in the stem, set in
    the deck's subject, the consequence as the model answer."""
    pt = _errors(quizzes["tracking_pt"])
    assert pt, [q.prompt for q in quizzes["tracking_pt"]]
    stem = "Em rastreamento de experimentos, que consequência tem este erro comum: «"
    assert all(q.type in ("short", "mcq") and q.prompt.startswith(stem) for q in pt), [q.prompt for q in pt]
    by_cause = {q.prompt.split("«", 1)[1].rstrip("»?"): q.answer for q in pt}
    assert by_cause.get("Logar só o resultado final", "").startswith("Sem curvas não dá para diagnosticar"), by_cause
    es = _errors(quizzes["cudaprog_es"])
    assert es and all(q.prompt.startswith("En modelo de programación CUDA, ¿qué consecuencia tiene") for q in es)
    assert all("->" not in q.prompt and "->" not in q.answer for q in pt + es)
    assert all(q.concepts for q in pt + es)
    # its multiple-choice form (where short answers lead the mix): the other options are the slide's other
    # consequences, all distinct
    slide = "Sem curvas não dá para diagnosticar overfitting ou divergência|Não aparecem no tracking|Runs duplicados"
    for q in (x for x in pt + es if x.type == "mcq"):
        assert len(set(q.choices)) == len(q.choices) >= 3 and q.choices[q.correct] == q.answer, q.choices
    mcq = [q for q in pt if q.type == "mcq"]
    assert mcq and set(slide.split("|")) <= set(mcq[0].choices), [(q.prompt, q.choices) for q in pt]


def test_at_most_two_per_slide_a_remedy_asked_as_what_to_do_and_no_sub_bullet(quizzes):
    qs = _errors(quizzes["mistakes_es"])
    assert 1 <= len(qs) <= PER_SLIDE, [q.prompt for q in quizzes["mistakes_es"]]
    for qsx in quizzes.values():
        assert len(_errors(qsx)) <= PER_SLIDE
    assert not any("refcount" in q.prompt for qsx in quizzes.values() for q in qsx)
    fix = [q for q in qs if "en lugar de esto" in q.prompt]
    assert fix, [(q.prompt, q.answer) for q in qs]
    assert all(q.answer.startswith("Usar solo el rank 0") for q in fix), [q.prompt for q in qs]
    # a slide that is no mistakes slide: its arrow is not asked as a mistake's consequence
    assert not any("Un batch mayor permite" in q.prompt for q in qs)


def test_consequences_of_a_passage():
    text = ("Errores comunes\n• Olvidar sampler.set_epoch en DDP -> mismo orden cada época\n"
            "• Olvidar model.eval() antes de validar\n  • el refcount toca cada objeto -> copy-on-write copia\n"
            "• A -> B -> C encadenados sin más\n• GELU -> lento")
    assert consequences(text) == [("Olvidar sampler.set_epoch en DDP", "mismo orden cada época")]


def test_only_a_mistakes_slide_in_the_decks_language():
    assert errors_slide("Errores comunes", "es") and errors_slide("Erros comuns", "pt")
    assert errors_slide("Common mistakes", "es")  # (an English title in a Spanish deck)
    assert not errors_slide("Temperature", "es")
    passage = "• Usar beam search para chat abierto -> respuestas genéricas y repetitivas"
    assert error_forms("Temperature", passage, "decodificación", "es") == []
    assert error_forms("Errores comunes", passage, "decodificación", "es") == [(
        "En decodificación, ¿qué consecuencia tiene este error frecuente: «Usar beam search para chat abierto»?",
        "Respuestas genéricas y repetitivas.")]
    pt = error_forms("Erros comuns", "• Credenciais no código do repositório -> usar variáveis de ambiente", "", "pt")
    assert pt == [("O que se deve fazer em vez disto: «Credenciais no código do repositório»?",
                   "Usar variáveis de ambiente.")]


def test_a_bullet_with_no_cause_before_its_arrow_is_skipped():
    """"... -> the run crashes later" or "; -> se pierde el gradiente": nothing to ask of, no crash."""
    from kb.writing.pattern_errors import consequences

    passage = ("• ... -> the run crashes later without a message\n• ; -> se pierde el gradiente de la capa\n"
               "• Olvidar zero_grad() en cada paso -> los gradientes se acumulan entre batches")
    assert consequences(passage) == [("Olvidar zero_grad() en cada paso", "los gradientes se acumulan entre batches")]


@pytest.mark.parametrize(("title", "is_one"), [
    # a mistakes title opening a longer one (rounds 25-28: 8 decks titled their mistakes slide so, none of it asked)
    ("Errores comunes y limitaciones", True),
    ("Erros comuns e armadilhas", True),
    ("Errores frecuentes al implementar", True),
    # one that ends on a mistakes title is a slide of practices or limits with a few mistakes among them (6 held-out
    # decks: "Boas práticas e erros comuns", "Depuração e erros comuns"), a slide of limitations, or one about kinds
    # of errors, is no list of mistakes
    ("Problemas y errores frecuentes", False),
    ("Boas práticas e erros comuns", False),
    ("Limitações e armadilhas", False),
    ("Tipos de errores frecuentes", False),
    ("Errores de redondeo en fp16", False),
])
def test_a_mistakes_title_joined_to_more_is_one(title, is_one):
    assert errors_slide(title, "es") is is_one
