"""kb's prior over question forms (kb/writing/form_prior.py): how often fresh raters kept each form as written,
fitted on rounds 10-13 (eval/fit_form_prior.py), used by selection. The slide's lead-in to complete ("completa esta
idea del material y explica cada punto: «…»", kept 0 of 18 times in rounds 10-13 and 0 of 45 in 14-16) is written
only where no other form of the idea passes; fx_pt, syncbn_es and tpu_pt (round 14, where it was chosen) get
another form of the same idea, through the public API."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from kb.quiz import Question
from kb.writing.form_prior import LAST_RESORT, form_of, load_prior, order_forms, prior, stem_form, weigh

from ..conftest import deck_quizzes, heldout_decks

LEAD = ("completa esta idea del material", "complete esta ideia do material", "complete this point of the material")


@pytest.mark.parametrize("prompt, form", [
    ("En RNN, completa esta idea del material y explica cada punto: «Tres puertas: …»", "lead"),
    ("Em torch.fx, complete esta ideia do material e explique cada ponto: «Troca de target: …»", "lead"),
    ("En Lightning, explica el bucle de entrenamiento.", "explain"),
    ("Em NCCL, explique as coletivas e ranks.", "explain"),
    ("En RPC, ¿cómo se crea una RRef?", "how"),
    ("Em TPUs, o que é um pod?", "what_is"),
    ("En hugging face accelerate, ¿qué es accelerate?", "what_is"),
    ("En CNN, ¿qué significa «pooling»?", "means"),
    ("En Transformers, ¿qué diferencia hay entre la atención y la convolución?", "compare"),
    ("En DDP, ¿cuándo conviene usar «SyncBatchNorm»?", "when"),
    ("In Lightning, what does «LightningDataModule» mean?", "means"),
])
def test_a_stem_s_form_is_read_after_its_setting(prompt, form):
    assert stem_form(prompt) == form
    assert form_of("short", prompt) == f"short:{form}"
    assert form_of("mcq", prompt) == "mcq"


def test_the_fitted_prior_ranks_forms_as_teachers_kept_them_and_says_what_it_was_fitted_on():
    m = load_prior()
    assert m["fitted_on"]["rounds"] == [10, 11, 12, 13]
    rates = m["rates"]
    assert rates["short:lead"] < LAST_RESORT < m["mean"]
    assert rates["short:when"] > rates["short:compare"] > rates["short:explain"] > rates["short:lead"]
    assert m["held_out"]["all"]["auc"] > 0.55  # (rounds 14-16, never fitted on)
    assert m["held_out"]["all"]["keep_top_half"] > m["held_out"]["all"]["keep_bottom_half"]


@dataclass
class _D:
    question: Question
    priority: float


def test_selection_weight_moves_a_draft_by_its_form_s_prior():
    q = lambda p: Question(type="short", prompt=p, answer="a b c", citations=())  # noqa: E731
    lead = _D(q("En RNN, completa esta idea del material y explica cada punto: «Tres puertas: …»"), 1.0)
    when = _D(q("En DDP, ¿cuándo conviene usar «SyncBatchNorm»?"), 1.0)
    weigh([lead, when], weight=1.0)
    assert lead.priority < 1.0 < when.priority
    assert when.priority - lead.priority == pytest.approx(prior("short", when.question.prompt)
                                                         - prior("short", lead.question.prompt))


def test_an_idea_s_forms_are_tried_best_kept_first_and_the_lead_in_only_last():
    forms = [("En RNN, completa esta idea del material y explica cada punto: «Tres puertas: …»", "x", False),
             ("En RNN, explica las puertas.", "x", True),
             ("En RNN, ¿cómo funcionan las puertas?", "x", False)]
    out = order_forms(forms)
    assert [f[0] for f in out] == [forms[2][0], forms[1][0], forms[0][0]]
    assert out[-1][2] is True  # (a last resort: Draft.fallback, asked only to fill the quiz)


DECKS = ("fx_pt", "syncbn_es", "tpu_pt")


@pytest.mark.slow
def test_decks_that_were_asked_by_their_lead_in_get_another_form_of_the_idea(tmp_path_factory, model_cache):
    quizzes = deck_quizzes(tmp_path_factory.mktemp("formprior"), heldout_decks(DECKS), DECKS, model_cache)
    for deck, qs in quizzes.items():
        assert len(qs) >= 10, (deck, [q.prompt for q in qs])
        assert not [q.prompt for q in qs if any(x in q.prompt for x in LEAD)], deck
    prompts = [q.prompt for qs in quizzes.values() for q in qs]
    assert "Em torch.fx, como se pode substituir operações?" in prompts
    assert "Em TPUs, quando usar TPU vs GPU?" in prompts
