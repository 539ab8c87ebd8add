"""kb's prior over question forms (kb/writing/form_prior.py): how often fresh raters kept and dropped each form as
written (a stem's kind, refined by the answer's shape: a one-line answer, a code blank), fitted on rounds 14-25
(eval/fit_form_prior.py), used by selection: a form teachers seldom keep is a last resort. The slide's lead-in to
complete ("completa esta idea del material y explica cada punto: «…»", kept 0 of 18 times in rounds 10-13 and 0 of
45 in 14-16) is written only where no other form of the idea passes; fx_pt, syncbn_es and tpu_pt (round 14, where it
was chosen) get another form of the same idea, through the public API."""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import SimpleNamespace

import pytest

from kb.quiz import Question
from kb.writing.form_prior import (
    BRIEF_WORDS,
    form_of,
    last_resort,
    load_prior,
    order_forms,
    parent,
    prior,
    stem_form,
    weigh,
)

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
    assert m["fitted_on"]["rounds"] == list(range(14, 34))
    rates = m["rates"]
    assert last_resort("short", LEAD[0] + ": «Tres puertas: …»", model=m)
    assert rates["short:when"] > rates["short:compare"] > rates["short:explain"] > rates["short:lead"]
    # the same fit on rounds 14-31, tested on 32-33 (never fitted on): it ranks KEEPs above chance, and the forms it
    # names last resorts were kept less often and dropped far more often than the rest (with mcq:unnamed among them,
    # kept 20 % and dropped 32 % on 32-33 against 26 % and 8 % for all questions; before it 0 % and 31 %)
    check = m["check"]
    assert check["fit"] == list(range(14, 32)) and check["test"] == [32, 33]
    assert check["all"]["auc"] > 0.55 and check["all"]["keep_top_half"] > check["all"]["keep_bottom_half"]
    assert check["last_resort"]["keep"] < check["all"]["keep"]
    assert check["last_resort"]["drop"] > 2 * check["all"]["drop"]


def test_a_form_s_answer_shape_refines_it():
    long = " ".join(["palabra"] * (BRIEF_WORDS + 1))
    assert form_of("short", "En TPUs, ¿qué es un pod?", "Un grupo de chips.") == "short:what_is:brief"
    assert form_of("short", "En TPUs, ¿qué es un pod?", long) == "short:what_is"
    assert form_of("short", "En TPUs, ¿qué es un pod?") == "short:what_is"  # (no answer: the stem's form)
    assert form_of("cloze", "Completa: _____ reúne los tensores.", "all_gather") == "cloze:code"
    assert form_of("cloze", "Completa: _____ reúne los tensores.", "DataLoader") == "cloze:code"
    assert form_of("cloze", "Completa: la _____ crece.", "latencia") == "cloze"
    assert form_of("cloze", "Completa: la tasa _____ decae.", "alpha_t") == "cloze:symbol"
    assert form_of("mcq", "¿Qué término…?", "A", 3) == "mcq:few" and form_of("mcq", "¿Qué término…?", "A", 4) == "mcq"
    assert parent("short:what_is:brief") == "short:what_is" and parent("cloze:code") == "cloze"
    assert parent("mcq:few") == "mcq"
    assert parent("short:what_is") == "" and parent("mcq") == ""
    # a sub-form the fit never saw gets its parent's rate
    m = {"mean": 0.3, "rates": {"short:how": 0.4}, "drops": {}}
    assert prior("short", "En DDP, ¿cómo se sincroniza?", m, "corto") == 0.4


def test_a_form_kept_far_less_often_than_the_mean_or_dropped_more_than_kept_is_a_last_resort():
    m = {"mean": 0.4, "rates": {"cloze": 0.25, "short:what_is:brief": 0.2, "mcq": 0.4, "short:what_is": 0.4},
         "drops": {"cloze": 0.3, "mcq": 0.2}}
    assert last_resort("cloze", "Completa: la _____ crece.", "latencia", m)  # (dropped more often than kept)
    assert last_resort("short", "En TPUs, ¿qué es un pod?", "Un grupo de chips.", m)  # (0.2 < 0.7 x 0.4)
    assert not last_resort("short", "En TPUs, ¿qué es un pod?", " ".join(["x"] * 30), m)
    assert not last_resort("mcq", "¿Cuál?", "A", m)
    cloze, mcq = _D(Question("cloze", "Completa: la _____ crece.", "latencia", ()), 1.0), \
        _D(Question("mcq", "¿Cuál?", "A", ()), 1.0)
    weigh([cloze, mcq], model=m)  # (the LLM writer's drafts: weighed, never marked)
    assert not cloze.fallback
    weigh([cloze, mcq], model=m, last_resorts=True)
    assert cloze.fallback and not mcq.fallback


@dataclass
class _D:
    question: Question
    priority: float
    fallback: bool = False
    chunk: object = None
    worth: float | None = None


# a deck that names its optimizers across its slides, and labels one slide's lines with its own words
_DECK = """
Optimizadores con poca memoria
• Adam guarda dos momentos por parámetro; Adafactor factoriza el segundo momento
• Lion guarda un solo momento; SGD con momento, uno
Comparación
• Adam: 2 estados por parámetro; Adafactor: filas y columnas
• Lion: signo de la actualización; SGD con momento: el baseline
Cuándo usar cada uno
• Adafactor para modelos enormes; Lion con lotes grandes; Adam por defecto
• SGD con momento en visión; Adam y Lion en lenguaje
Planificador
• Optimizador: Adafactor con factorización
• Salida: el plan de memoria por GPU
• Caso típico: un modelo de 11B
• Entrada: tamaño del modelo
"""


def test_a_which_term_choice_among_words_the_deck_seldom_says_is_its_own_form_and_a_last_resort():
    ask = "En optimizadores, ¿qué término corresponde a esta descripción: «{}»?"
    named = Question("mcq", ask.format("factoriza el segundo momento en filas y columnas"), "Adafactor", (),
                     choices=("Adafactor", "Lion", "Adam", "SGD con momento"), correct=0)
    labels = Question("mcq", ask.format("el plan de memoria por GPU"), "Salida", (),
                      choices=("Salida", "Optimizador", "Caso típico", "Entrada"), correct=0)
    assert form_of("mcq", named.prompt, named.answer, 4, _DECK, named.choices) == "mcq"
    assert form_of("mcq", labels.prompt, labels.answer, 4, _DECK, labels.choices) == "mcq:unnamed"
    assert form_of("mcq", labels.prompt, labels.answer, 4, "", labels.choices) == "mcq"  # (no deck: not read)
    assert parent("mcq:unnamed") == "mcq"
    # one rare option among named ones is a plain multiple choice; the answer rare, or two options, is not
    one = replace(named, choices=("Adafactor", "Lion", "Adam", "Caso típico"))
    assert form_of("mcq", one.prompt, one.answer, 4, _DECK, one.choices) == "mcq"
    key = replace(named, answer="Caso típico", choices=("Caso típico", "Lion", "Adam", "Adafactor"))
    assert form_of("mcq", key.prompt, key.answer, 4, _DECK, key.choices) == "mcq:unnamed"
    # the fitted prior makes it a last resort when weighed against the whole deck, not the passage alone
    chunk = SimpleNamespace(source="opt.pdf", text="Salida: el plan de memoria por GPU")
    m = {"mean": 0.3, "rates": {"mcq": 0.46, "mcq:unnamed": 0.29}, "drops": {"mcq": 0.2, "mcq:unnamed": 0.38}}
    a, b = _D(labels, 1.0, chunk=chunk), _D(named, 1.0, chunk=chunk)
    weigh([a, b], model=m, last_resorts=True)
    assert not a.fallback and not b.fallback  # (no deck given: the options are not read against a passage)
    weigh([a, b], model=m, last_resorts=True, deck_text={"opt.pdf": _DECK}.__getitem__)
    assert a.fallback and not b.fallback
    assert a.worth == pytest.approx(0.29 - 0.38) and b.worth == pytest.approx(0.46 - 0.2)  # (the fill's order)
    assert "mcq:unnamed" in load_prior()["rates"]  # (the shipped fit has the form)


def test_selection_weight_moves_a_draft_by_its_form_s_prior():
    q = lambda p: Question(type="short", prompt=p, answer="a b c", citations=())  # noqa: E731
    lead = _D(q("En RNN, completa esta idea del material y explica cada punto: «Tres puertas: …»"), 1.0)
    when = _D(q("En DDP, ¿cuándo conviene usar «SyncBatchNorm»?"), 1.0)
    weigh([lead, when], weight=1.0)
    assert lead.priority < 1.0 < when.priority
    assert when.priority - lead.priority == pytest.approx(prior("short", when.question.prompt, answer="a b c")
                                                         - prior("short", lead.question.prompt, answer="a b c"))


def test_an_idea_s_forms_are_tried_best_kept_first_and_the_lead_in_only_last():
    x = " ".join(["palabra"] * (BRIEF_WORDS + 1))  # (an answer of more than one line: the stems' forms decide)
    forms = [("En RNN, completa esta idea del material y explica cada punto: «Tres puertas: …»", x, False),
             ("En RNN, explica las puertas.", x, True),
             ("En RNN, ¿cómo funcionan las puertas?", x, False)]
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


def test_a_quiz_of_one_type_asks_only_clozes_a_teacher_keeps(ingested):
    """`--types cloze` on the sample course: most of its clozes blank a prose word, which raters drop far more often
    than they keep (prose-blank, kb/writing/check_objective_kind.py): a quiz of clozes alone writes those on code
    entities, and says how many of the ten asked the material allows."""
    import kb
    from kb.writing.check_objective_kind import CODE_BLANK
    from kb.writing.generate import GenerationRequest, generate_quiz
    from kb.writing.offline import OfflineWriter

    course = kb.open(ingested / ".kb")
    rep = generate_quiz(course.workspace, GenerationRequest(n=10, types=("cloze",)), OfflineWriter(), now="t")
    qs = rep.quiz.questions
    assert qs and all(q.type == "cloze" and CODE_BLANK.search(q.answer) for q in qs), [q.answer for q in qs]
    assert any(f"{len(qs)} of 10" in str(n) or f"{len(qs)} de 10" in str(n) for n in rep.notes), rep.notes
