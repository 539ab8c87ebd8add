"""A stem's form (kb.writing.form_prior.stem_form) is named by the question's own word, where the question opens
(after its setting, a "¿", or "y"/"e"/"and" before a follow-up question), never by the same word inside a clause:
"¿qué ocurre cuando …?" asks what happens, not when; "como regularizador" says "as"; and English "mean" is the verb
of "what does «X» mean", not the noun of "the mean of the activations". Pure text, no deck."""

from __future__ import annotations

import pytest

from kb.writing.form_prior import stem_form


@pytest.mark.parametrize("prompt, form", [
    # a conjunction or relative inside the clause: the question's own word is "qué"/"o que"/"what"
    ("En RNN, ¿qué ocurre cuando el gradiente se desvanece?", "other"),
    ("Em RNN, o que acontece quando o gradiente desaparece?", "other"),
    ("In RNNs, what happens when the gradient vanishes?", "other"),
    ("¿Qué ocurre cuando se congela el backbone?", "other"),
    ("En CNN, ¿qué papel cumple el dropout como regularizador?", "other"),
    ("Em DDP, o que é um bucket e como ele se forma?", "how"),  # (a follow-up question: its own word)
    ("Em CNN, o que é o pooling, como o max pooling?", "what_is"),
    ("¿Qué se pierde porque el modelo se cuantiza?", "other"),
    ("En DDP, ¿qué es el bucket en el cual se juntan los gradientes?", "what_is"),
    ("¿Por qué un loss bajo no significa un buen modelo?", "why"),
    ("Explica qué significa «pooling» en una CNN.", "explain"),
])
def test_a_question_word_inside_a_clause_names_no_form(prompt, form):
    assert stem_form(prompt) == form


@pytest.mark.parametrize("prompt, form", [
    ("In BatchNorm, why is the mean subtracted?", "why"),
    ("In BatchNorm, how is the running mean updated?", "how"),
    ("In BatchNorm, what is the mean of the activations?", "what_is"),
    ("In MSE, what is the mean squared error?", "what_is"),
])
def test_english_mean_the_noun_is_no_means_question(prompt, form):
    assert stem_form(prompt) == form


@pytest.mark.parametrize("prompt, form", [
    ("En DDP, ¿cuándo conviene usar «SyncBatchNorm»?", "when"),
    ("Em DDP, quando convém usar SyncBatchNorm?", "when"),
    ("In DDP, when should SyncBatchNorm be used?", "when"),
    ("En DDP, ¿qué es SyncBatchNorm y cuándo conviene usarlo?", "when"),
    ("En CNN, ¿cómo se calcula el pooling?", "how"),
    ("Em CNN, como se calcula o pooling?", "how"),
    ("Em CNN, por que o dropout funciona como regularizador?", "why"),
    ("¿Para qué sirve el dropout?", "why"),
    ("Em DDP, em quais casos o bucket é enviado?", "which"),
    ("En CNN, ¿qué precauciones hay que tener con el padding?", "which"),
    ("In Lightning, what does «LightningDataModule» mean?", "means"),
    ("In Lightning, what is meant by «hooks»?", "means"),
    ("En CNN, ¿qué significa «pooling»?", "means"),
    ("Em CNN, o que significa «pooling»?", "means"),
    ("¿Qué se entiende por «stride»?", "means"),
])
def test_the_question_s_own_word_names_its_form(prompt, form):
    assert stem_form(prompt) == form
