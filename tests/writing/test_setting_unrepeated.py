"""A short question whose stem names its own setting leaves the setting out: "Em AWQ, quando usar AWQ?" is
"Quando usar AWQ?" (raters FIXed such stems as clumsy: 46 ratings over rounds 19-25, kept 22 %). Read on round 25;
checked end to end on round 20-21 decks (segformer_pt, longcontext_pt), through the public API."""

from __future__ import annotations

import pytest

from kb.writing.setting import unrepeated

from ..conftest import deck_quizzes, heldout_decks


@pytest.mark.parametrize("prompt, out", [
    ("Em AWQ, quando usar AWQ?", "Quando usar AWQ?"),
    ("En ring Attention, ¿qué es Ring Attention?", "¿Qué es Ring Attention?"),
    ("Em wav2vec 2.0, qual é a diferença entre wav2vec 2.0 e outros métodos?",
     "Qual é a diferença entre wav2vec 2.0 e outros métodos?"),
    ("In RNNs, what is a bidirectional RNNs layer?", "What is a bidirectional RNNs layer?"),
    # a setting the question does not repeat, a quoted label, a task's setting: as they are
    ("En PyTorch, ¿qué es un tensor?", "En PyTorch, ¿qué es un tensor?"),
    ("En «Estructura», ¿qué es Estructura?", "En «Estructura», ¿qué es Estructura?"),
    ("Al medir la latencia, ¿qué es la latencia p99?", "Al medir la latencia, ¿qué es la latencia p99?"),
    ("En RNNs, ¿qué es una RNN?", "En RNNs, ¿qué es una RNN?"),  # (a whole phrase, not a part of a word)
    ("En T5, ¿qué es T5?", "¿Qué es T5?"),  # (a two-character name: kb.writing.setting.lost_symbol)
])
def test_a_setting_the_question_repeats_is_left_out(prompt, out):
    assert unrepeated(prompt) == out


DECKS = ("segformer_pt", "longcontext_pt")


@pytest.mark.slow
def test_decks_whose_stems_repeated_their_setting(tmp_path_factory, model_cache):
    quizzes = deck_quizzes(tmp_path_factory.mktemp("unrepeated"), heldout_decks(DECKS), DECKS, model_cache)
    assert any(q.prompt == "O que é a segmentação semântica?" for q in quizzes["segformer_pt"]), \
        [q.prompt for q in quizzes["segformer_pt"]]  # (round 20 rated "Em segmentação semântica, o que é a …")
    for qs in quizzes.values():
        for q in qs:
            if q.type == "short":
                assert unrepeated(q.prompt) == q.prompt, q.prompt
                assert q.id == type(q)(q.type, q.prompt, q.answer, q.citations, choices=q.choices).id
