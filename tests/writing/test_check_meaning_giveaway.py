"""A multiple choice whose right option a reader picks by the description's meaning is a giveaway, for every writer
and ``kb eval quiz`` (kb/writing/check_blind_guess.py): rated multiple choices of rounds 25-29 that fresh raters
dropped, against ones they kept, through the registry with kb's default embedder."""

from __future__ import annotations

import pytest

from kb.embeddings import get_embedder
from kb.quiz import Question
from kb.writing.check_blind_guess import meaning_giveaway
from kb.writing.checklist import CheckContext, run_checks


def _mcq(prompt: str, choices: tuple[str, ...], correct: int, lang: str) -> Question:
    return Question(type="mcq", prompt=prompt, answer=choices[correct], choices=choices, correct=correct, lang=lang,
                    citations=())


GIVEN_AWAY = [  # (rounds 28-29, dropped by all three raters: the description says the answer in other words)
    _mcq("Em Cython, qual termo corresponde a esta descrição: «não verifica se a memoryview foi inicializada»?",
         ("initializedcheck", "wraparound", "cdivision", "boundscheck"), 0, "pt"),
    _mcq("Em Thrust, qual termo corresponde a esta descrição: «descarta saídas que não interessam»?",
         ("counting_iterator", "discard_iterator", "transform_iterator", "constant_iterator"), 1, "pt"),
    _mcq("Em memória constante e de textura, qual termo corresponde a esta descrição: «dezenas de GB, alta latência "
         "(centenas de ciclos)»?", ("Registradores", "Memória global (HBM)", "Cache L1 / textura",
                                   "Memória compartilhada"), 1, "pt"),
]
ASKED = [  # (rounds 26-29, kept by all three raters: the term is learnt, not read off the description)
    _mcq("En primitivas de warp, ¿qué término corresponde a esta descripción: «una instrucción se emite para todo el "
         "warp; cada hilo tiene sus propios registros»?", ("Warp", "SIMD", "SIMT", "Lane"), 2, "es"),
    _mcq("Em weights & biases, qual termo corresponde a esta descrição: «conjunto versionado de ficheiros (datasets, "
         "modelos) com linhagem»?", ("Artifact", "Run", "Entity", "Config"), 0, "pt"),
    _mcq("Em U-Net, qual termo corresponde a esta descrição: «ligam cada nível do encoder ao nível correspondente do "
         "decoder»?", ("Skip connections", "Caminho contrator", "Downsampling", "Bottleneck"), 0, "pt"),
]


@pytest.fixture(scope="module")
def use_m3():
    return get_embedder("use-m3")


@pytest.mark.parametrize("q", GIVEN_AWAY, ids=lambda q: q.answer)
def test_an_option_read_off_the_description_is_a_giveaway(q, use_m3):
    assert meaning_giveaway(q, use_m3) == "giveaway"
    # (the offline writer gives its embedder as ``meaning``, so support stays lexical; kb eval quiz as ``embedder``)
    assert "giveaway" in run_checks(q, CheckContext(passage=q.prompt, meaning=use_m3))
    assert "giveaway" in run_checks(q, CheckContext(passage=q.prompt, embedder=use_m3))


@pytest.mark.parametrize("q", ASKED, ids=lambda q: q.answer)
def test_a_term_learnt_from_the_course_is_asked(q, use_m3):
    assert meaning_giveaway(q, use_m3) is None


def test_without_the_embedder_it_was_measured_with_it_says_nothing(use_m3):
    class Other:  # (another embedder's cosines are on another scale: the margin does not hold for them)
        id = "e5-small"

        def embed_documents(self, texts):
            return use_m3.embed_documents(texts)

    assert meaning_giveaway(GIVEN_AWAY[0], Other()) is None
    assert meaning_giveaway(GIVEN_AWAY[0], None) is None


def test_the_plans_questions_are_checked_with_the_embedder_as_the_patterns_are(use_m3):
    # (the plan's objective forms, "which term" among a list's siblings, go through deck_context: the same check)
    from kb.outline import build_outline
    from kb.records import Chunk, Locator
    from kb.writing.course import CourseTerms
    from kb.writing.deck_context import deck_context

    chunks = [Chunk("decks/x_pt.pdf", "pdf", "Thrust\n• discard_iterator: descarta saídas que não interessam",
                    Locator(page=1, heading="Iteradores"), "pt", 1, "h", 1)]
    course = CourseTerms(chunks, use_m3)
    ctx = deck_context("decks/x_pt.pdf", build_outline(chunks, "decks/x_pt.pdf", bookmarks=[]), course)
    assert ctx.meaning is use_m3 and ctx.embedder is None  # (support stays lexical, as the offline writer's)
    assert "giveaway" in run_checks(GIVEN_AWAY[1], ctx)
