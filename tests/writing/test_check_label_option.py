"""``label-option`` (kb/writing/check_label_answer.py): a multiple choice with an option that is a slide's label, not a
term — a catch-all ("Outros"), a lead-in cut to its abbreviation ("Ex.", "Obs."), a key-point label ("Ponto-chave"),
a role or facet word of the deck's language ("Vantagens"). As a distractor nobody picks it ("implausible-distractor");
as the right option the question asks the slide's layout ("label-answer"). Rounds 25-27 (read): 21 ratings, KEEP 0 %,
DROP 81 %; rounds 8-24 (not read for it): 7 ratings, KEEP 0 %, DROP 43 % (40 % / 22 % for the other ones)."""

from __future__ import annotations

import pytest

from kb.quiz import Question
from kb.writing.check_label_answer import label_option
from kb.writing.checklist import CheckContext, run_checks


def _mcq(choices: tuple[str, ...], correct: int, lang: str = "pt") -> Question:
    return Question("mcq", "Em ConvNeXt, qual termo corresponde a esta descrição: «stochastic depth, label smoothing "
                    "0,1»?", choices[correct], (), lang=lang, choices=choices, correct=correct)


@pytest.mark.parametrize("choices", [
    ("Regularização", "Outros", "Augmentation", "Otimizador"),
    ("Parâmetros treináveis", "Ex.", "Backward", "Forward"),
    ("Bottleneck", "Forward", "Obs."),
    ("Feature encoder f", "Context network g", "Kernels", "Ponto-chave"),
])
def test_a_slide_s_label_among_the_options_is_a_defect(choices):
    right = 3 if choices[-1] == "Ponto-chave" else 0
    assert label_option(_mcq(choices, right)) == ("label-answer" if right == 3 else "implausible-distractor")
    assert run_checks(_mcq(choices, right), CheckContext(passage=""))


@pytest.mark.parametrize("choices, lang", [
    (("Regularização", "Augmentation", "Otimizador", "Arquitetura"), "pt"),
    (("ignore_index", "-100", "~30", "BERT-large"), "pt"),  # (numbers are no slide labels)
    (("DATA", "FILE", "AUTO", "OFF"), "en"),  # (an enum's values in capitals)
    (("features", "logits", "pesos", "bias"), "es"),  # (an English facet word names a thing in a Spanish deck)
])
def test_terms_numbers_and_values_are_no_labels(choices, lang):
    assert label_option(_mcq(choices, 0, lang)) is None
