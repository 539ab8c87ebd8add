"""The wrong options of "which term is this description" are of the answer's kind: beside a term (code, a
name, an English technical term) never a slide's heading or an ordinary word that shares no word with it —
"Flujo típico" beside __global__, "Uso" among activations, "truco" beside Wave quantization, "Memoria"
beside DGL-KE: fresh raters fixed every such distractor (eval/real_heldout_r6/ratings.csv). The offline
writer's option pickers (siblings of a labelled list, the deck's other terms) take only options of the answer's kind."""

from __future__ import annotations

from kb.writing.terms import of_answers_kind


def test_an_ordinary_word_is_no_option_beside_a_term_unless_it_shares_a_word():
    for option, answer in [("Uso", "Hard-sigmoid / hard-swish"), ("Flujo típico", "__global__"),
                           ("Memoria", "DGL-KE"), ("truco", "Wave quantization")]:
        assert not of_answers_kind(option, answer, "es"), option
    for option, answer in [("__host__", "__global__"), ("PyTorch-BigGraph", "DGL-KE"), ("ELU", "PReLU"),
                           ("Tile quantization", "Wave quantization"), ("Mish", "Hard-sigmoid / hard-swish"),
                           ("Conjunto de validação", "Conjunto de teste")]:
        assert of_answers_kind(option, answer, "es"), option
    # an English word in a Portuguese deck is a term of the deck (keyword arguments beside min_delta)
    for option in ("mode", "patience", "monitor"):
        assert of_answers_kind(option, "min_delta", "pt"), option
