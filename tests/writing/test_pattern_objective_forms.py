"""A labelled list of terms is asked in an objective kind where the deck offers one (issue 26, item 6).

On real PDFs of held-out decks (eval/heldout_decks, rendered as eval/deck_pdf.py renders them), `kb quiz generate
-n 12 --offline --source DECK` (library call) asked each labelled list of terms as a short answer on one label
("¿qué significa «Trial»?") or not at all, and wrote no multiple choice on the list: optuna_es's "Conceptos de
Optuna" (Objective / Trial / Study / Sampler / Pruner / Define-by-run), uvm_es's three cudaMemAdvise flags.
The list's objective form is now offered as another form of the question that asks it (the same item), so
selection asks it where the quiz has too many short answers. Also pinned, each a class:

- a gloss with its own semicolons ("Greedy: escolhe o token mais provável; rápido, repetitivo") is one item;
- a description quoted to name its term opens on a verb ("«escolhe sempre …»"): its subject is the term asked,
  no ``no-subject``;
- a false statement whose two glosses say one thing is not written (it is still true);
- a recap slide ("Resumen") is not asked in an objective form (its slides teach its terms).
"""

from __future__ import annotations

import pytest

from kb.outline import Idea
from kb.quiz import Question
from kb.writing.checklist import CheckContext, run_checks
from kb.writing.pattern_siblings import objective_questions, siblings

from ..conftest import deck_quizzes, heldout_decks

DECKS = ("optuna_es", "uvm_es")


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, model_cache):
    return deck_quizzes(tmp_path_factory.mktemp("objective"), heldout_decks(DECKS), DECKS, model_cache)


@pytest.mark.slow
def test_a_list_of_terms_is_asked_as_a_multiple_choice_among_its_siblings(quizzes):
    optuna = [q for q in quizzes["optuna_es"] if q.type == "mcq"]
    concepts = [q for q in optuna if {"Objective", "Trial", "Study"} <= set(q.choices)]
    assert concepts, [(q.type, q.prompt) for q in quizzes["optuna_es"]]
    (q,) = concepts
    assert "función que recibe un trial" in q.prompt and q.correct_text == "Objective"
    # (since session 27 its partner, a multiple choice among n_warmup_steps, MedianPruner, n_startup_trials…, asks
    # among words the deck seldom says, a last resort the quiz still asks to pair it: _pair_mcq)
    # uvm_es's three cudaMemAdvise flags make a multiple choice of three options: a form teachers keep half as often
    # as one of four (mcq:few, kb/writing/form_prior.py), a last resort this quiz does not need
    assert all(len(q.choices) >= 4 for qs in quizzes.values() for q in qs if q.type == "mcq")
    # both decks still write at least 10 questions, and short answers are no longer all but one (uvm_es's third
    # objective question was a cloze on a prose word, which prose-blank turns down since round 30)
    for name, qs in quizzes.items():
        assert len(qs) >= 10 and sum(q.type != "short" for q in qs) >= 2, (name, [q.type for q in qs])


def _idea(text: str, name: str = "Estratégias de decodificação") -> Idea:
    return Idea(kind="list", name=name, text=text, section=name, locator=f"p. 11 · {name}", chunk_ids=("h",), page=11)


TERMS = {"Greedy", "Beam search", "Sampling", "Controles úteis"}


def test_a_gloss_with_its_own_semicolons_is_one_item():
    idea = _idea("Greedy: escolhe sempre o token mais provável; rápido, repetitivo; Beam search: mantém os B "
                 "prefixos mais prováveis; padrão em tradução; Sampling: do_sample=True com temperature; mais diverso")
    pairs = siblings(idea, lambda x: x in TERMS)
    assert [x for x, _ in pairs] == ["Greedy", "Beam search", "Sampling"]
    assert pairs[0][1] == "escolhe sempre o token mais provável; rápido, repetitivo"
    # a label's colon is the first outside its brackets (interconnect_pt: "… (ex.: 2:1 nos uplinks): barateia …")
    topo = _idea("Fat-tree non-blocking: banda de bisseção total; Fat-tree com oversubscription (ex.: 2:1 nos "
                 "uplinks): barateia a rede, mas derruba o all-reduce; Dragonfly: poucos saltos entre grupos")
    assert [b for _, b in siblings(topo, lambda x: True)][1] == "barateia a rede, mas derruba o all-reduce"


def test_a_figure_to_recall_is_no_description_to_ask():
    """interconnect_pt p. 5: "Gen3: cerca de 16 GB/s; Gen4: cerca de 32 GB/s; …" — which generation is 16 GB/s is a
    number to recall (trivia), not a concept; the list's gloss-with-words siblings are still asked."""
    gens = [("Gen3", "cerca de 16 GB/s por direção"), ("Gen4", "cerca de 32 GB/s por direção"),
            ("Gen5", "cerca de 64 GB/s por direção")]
    assert not [q for q, _ in objective_questions(_idea(""), gens, "interconexões", "pt", lambda a, b: True)
                if q.type == "mcq"]
    worded = [("Gen3", "barramento antigo ainda comum em servidores"), ("Gen4", "padrão das GPUs A100 em servidores"),
              ("Gen5", "padrão das GPUs H100 com o dobro da banda")]
    assert [q for q, _ in objective_questions(_idea(""), worded, "interconexões", "pt", lambda a, b: True)
            if q.type == "mcq"]


def test_a_description_opening_on_a_verb_names_its_term_not_a_missing_subject():
    passage = ("Greedy: escolhe sempre o token mais provável; rápido, repetitivo\nBeam search: mantém os B prefixos "
               "mais prováveis\nSampling: sorteia o próximo token com temperature")
    q = Question("mcq", "Em modelos Encoder-Decoder, qual termo corresponde a esta descrição: «escolhe sempre o "
                 "token mais provável; rápido, repetitivo»?", "Greedy", (), ("Greedy",), lang="pt",
                 choices=("Greedy", "Beam search", "Sampling"), correct=0, origin="siblings")
    assert "no-subject" not in run_checks(q, CheckContext(passage, passage))
    # (a statement to judge that opens on a verb still lacks its subject)
    tf = Question("tf", "Verdadeiro ou falso? Escolhe sempre o token mais provável.", "Verdadeiro", (), (),
                  lang="pt", correct=True)
    assert "no-subject" in run_checks(tf, CheckContext(passage, passage))


def test_no_false_statement_from_two_glosses_that_say_one_thing():
    same = [("Precision@k", "relevância binária sem olhar a ordem do ranking"),
            ("Recall@k", "relevância binária sem olhar a ordem do ranking completo"),
            ("NDCG", "relevância graduada com desconto logarítmico pela posição")]
    qs = objective_questions(_idea(""), same, "métricas de ranking", "pt", lambda a, b: True)
    false = [q for q, _ in qs if q.type == "tf"]
    # Precision@k said to be Recall@k's gloss is still true: only the other two swaps are written
    assert len(false) == 2 and not any("«Precision@k»" in q.prompt for q in false), [q.prompt for q in false]


def test_a_recap_slide_is_not_asked_in_an_objective_form():
    from kb.records import Chunk, Locator
    from kb.writing.pattern_siblings import objective_drafts

    text = ("Sigmoid: acota la salida entre cero y uno y satura con facilidad; Tanh: centrada en cero pero satura "
            "igual en los extremos; ReLU: derivada cero o uno, barata de calcular y dispersa")
    lines = text.replace("; ", "\n")
    deck = CheckContext(lines, f"Sigmoid\n{lines}\nLa Tanh y la ReLU\nLa Sigmoid")

    def asked(name: str) -> list:
        chunk = Chunk("deck.pdf", "pdf", lines, Locator(page=24, heading=name), "es", 24, "h", 4)
        return objective_drafts(_idea(text, name), chunk, lines, deck, "funciones de activación", "es",
                                lambda x: True, 1.0)

    assert asked("Activaciones ocultas")  # (its list offers an objective form on a slide of its own …)
    assert asked("Resumen") == []  # (… and none on a recap, which restates what the deck's slides teach)


def test_the_wrong_options_are_the_siblings_the_deck_names_across_its_slides_first():
    """A list of five labels, two of them a slide's own words the deck says nowhere else: the multiple choice's wrong
    options are the deck's named terms first, one label filling the fourth (``mcq:unnamed`` otherwise: kept 18-37 %
    and dropped 30-50 % on rounds 14-36, against 43-53 % and 16-22 % for the others, eval/form_keep.py 14-25 26-31
    32-36)."""
    pairs = [("Adam", "guarda dos momentos por parámetro en fp32"),
             ("Caso típico", "un modelo de once mil millones de parámetros"),
             ("Salida", "el plan de memoria de cada GPU del nodo"),
             ("Adafactor", "factoriza el segundo momento en filas y columnas"),
             ("Lion", "guarda un solo momento y usa el signo de la actualización")]
    deck = {"Adam", "Adafactor", "Lion"}
    qs = [q for q, _ in objective_questions(_idea(""), pairs, "optimizadores", "es", lambda a, b: True,
                                            named=lambda x: x in deck) if q.type == "mcq"]
    first = qs[0]
    assert first.correct_text == "Adam" and set(first.choices) == {"Adam", "Adafactor", "Lion", "Caso típico"}
    # (in the list's order without the deck: a slide's labels among the options)
    plain = [q for q, _ in objective_questions(_idea(""), pairs, "optimizadores", "es", lambda a, b: True)
             if q.type == "mcq"][0]
    assert plain.choices == ("Adam", "Caso típico", "Salida", "Adafactor")
