"""The keep model of kb/writing/form_prior.py: a short question asks what its answer says when its stem shares words
with its answer and picks out its own slide among the deck's (BM25 over the deck's pages). Fitted on rated rounds
10-13 (eval/fit_form_prior.py), held out on 14-16; used to order an idea's plain forms and to weigh drafts."""

from __future__ import annotations

from dataclasses import dataclass

from kb.quiz import Question
from kb.records import Chunk, Locator
from kb.writing.form_prior import BAD_RANK, Pages, answer_share, load_prior, order_forms, own_rank, p_keep, weigh

# a small deck: one chunk per slide; the attention slide (p. 3) is the one asked about
SLIDES = [
    "Agenda: redes recurrentes, atención, transformers, entrenamiento",
    "Redes recurrentes: el estado oculto pasa de un paso al siguiente; gradiente que se desvanece",
    "Atención: consultas, claves y valores; el producto escalado de consultas y claves da los pesos",
    "Transformers: bloques de atención y capas densas; codificación posicional",
    "Entrenamiento: el bucle, el optimizador, la tasa de aprendizaje y el scheduler",
    "Entrenamiento distribuido: el bucle en varias GPUs con DDP",
    "Resumen: recurrentes, atención, transformers y el bucle de entrenamiento",
]
CHUNKS = [Chunk("deck.pdf", "pdf", t, Locator(page=i + 1), "es", i, "h", len(SLIDES)) for i, t in enumerate(SLIDES)]
ANSWER = "Las consultas se comparan con las claves (producto escalado) y los pesos mezclan los valores."
ASKS_ITS_SLIDE = "En Transformers, ¿cómo se combinan consultas, claves y valores?"
ASKS_NOTHING = "En Transformers, explica el bucle de entrenamiento del resumen."  # (its words are other slides')


def test_a_stem_that_says_its_answer_s_words_has_a_high_share():
    assert answer_share(ASKS_ITS_SLIDE, ANSWER) == 0.75  # (consultas, claves, valores; not "combinan")
    assert answer_share(ASKS_NOTHING, ANSWER) == 0.0
    assert answer_share("En RNN, ¿qué?", ANSWER) == 0.0  # (no content word: no share)


def test_a_stem_picks_out_its_own_slide_or_not():
    pages = Pages(SLIDES)
    assert pages.rank(ASKS_ITS_SLIDE, 2) == 1
    assert pages.rank(ASKS_NOTHING, 2) >= BAD_RANK
    assert own_rank(ASKS_ITS_SLIDE, CHUNKS[2], CHUNKS) == 1
    assert own_rank(ASKS_ITS_SLIDE, CHUNKS[2], CHUNKS[:1]) == 0  # (one page: unknown)


def test_the_keep_model_is_fitted_on_rounds_10_13_and_ranks_the_held_out_rounds_better_than_the_form_alone():
    m = load_prior()
    km = m["keep_model"]
    assert m["fitted_on"]["rounds"] == [10, 11, 12, 13]
    assert km["weights"]["share"] > 0 > km["weights"]["rank4"]
    assert km["held_out"]["all"]["auc"] > m["held_out"]["all"]["auc"]  # (rounds 14-16, never fitted on)


def test_a_question_that_asks_what_its_answer_says_is_more_likely_kept():
    assert p_keep("short", ASKS_ITS_SLIDE, ANSWER, 1) > p_keep("short", ASKS_ITS_SLIDE, "Otra cosa.", BAD_RANK)


def test_an_idea_s_form_whose_stem_does_not_pick_out_its_slide_goes_after_one_that_does():
    # "¿cuándo …?" is the form teachers kept most (form prior 0.40) and "¿cómo …?" one of the least (0.18): by
    # form alone the first wins; its stem names other slides, so the one that asks this slide's content goes first
    when = ("En Transformers, ¿cuándo conviene el bucle de entrenamiento distribuido con DDP?", ANSWER, False)
    how = (ASKS_ITS_SLIDE, ANSWER, False)
    assert order_forms([when, how])[0] == when  # (no deck to rank against: the form's order)
    assert order_forms([when, how], chunk=CHUNKS[2], chunks=CHUNKS)[0] == how
    # when no form picks its slide out, the rank decides nothing
    other = ("En Transformers, ¿cómo es el resumen del bucle?", ANSWER, False)
    assert order_forms([when, other], chunk=CHUNKS[2], chunks=CHUNKS)[0] == when


def test_the_lead_in_stays_after_a_stem_that_does_not_pick_out_its_slide():
    # (r16 dpo_pt: both forms of a list were last resorts; the lead-in quotes the slide, so it picks it out, and
    # "explique a perda" does not: the lead-in, never kept as written, must still come last)
    lead = ("En Transformers, completa esta idea del material y explica cada punto: «Atención: consultas, claves "
            "y valores; el producto escalado de consultas y claves da los pesos»", ANSWER, True)
    explain = ("En Transformers, explica el bucle de entrenamiento del resumen.", ANSWER, True)
    assert own_rank(lead[0], CHUNKS[2], CHUNKS) == 1 and own_rank(explain[0], CHUNKS[2], CHUNKS) >= BAD_RANK
    assert order_forms([lead, explain], chunk=CHUNKS[2], chunks=CHUNKS)[0] == explain


@dataclass
class _D:
    question: Question
    chunk: Chunk
    priority: float


def test_selection_weighs_a_draft_by_whether_its_stem_picks_out_its_page():
    prompt = "En Transformers, ¿cómo se combinan consultas, claves y valores en la atención?"
    q = Question(type="short", prompt=prompt, answer=ANSWER, citations=())
    here, elsewhere = _D(q, CHUNKS[2], 1.0), _D(q, CHUNKS[5], 1.0)  # (the same question cited on another page)
    weigh([here, elsewhere], weight=1.0, by_source={"deck.pdf": CHUNKS})
    assert here.priority > elsewhere.priority
