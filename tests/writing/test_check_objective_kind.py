"""An objective question answered by its kind is dropped by teachers: the registry flags a true/false whose false
gloss is a list of values where the label's own gloss is none (``obvious-false``), a "which term" whose key is a
plain word or whose options are a slide's numbered alternatives (``plain-key``), and a cloze whose blank is a
command-line flag or a formula's symbol (``trivial-blank``) or whose sentence opens on "se" with its subject
elsewhere (``no-subject``). Each kept form beside it passes. Through :func:`kb.writing.checklist.run_checks`, as
both writers and ``kb eval quiz`` run it. (The class was written on eval/real_heldout_r14–r16; wordings are new.)"""

from __future__ import annotations

from kb.quiz import Question
from kb.writing.checklist import CHECKS, CheckContext, run_checks

PASSAGE = """Opciones del lanzador
nodes: número de máquinas del trabajo distribuido.
device: "cpu", "cuda", "mps" o "auto".
engine: importan modelos de ONNX, TensorFlow, TFLite.
format: Relay o Relax.
Se fijan una vez al inicio: las semillas y los flags de cuDNN.
Layer-wise decay escala la tasa por capa: minimizando sum_k |g_k|.
El schedule interleaved se activa con --virtual-stages.
Se recomienda un periodo de calentamiento sin compresión."""


def defects(q: Question) -> list[str]:
    # (prose-blank turns down every cloze on no code entity, these included: what is pinned here is the form checks')
    return run_checks(q, CheckContext(PASSAGE, PASSAGE), skip=frozenset({"prose-blank"}))


def tf(label: str, false: str, own: str) -> Question:
    return Question("tf", f"¿Verdadero o falso? En el lanzador, «{label}» significa: {false}.",
                    f"Falso. La fuente dice: “{label}: {own}.”", (), (own,), lang="es", correct=False,
                    origin="siblings")


def test_a_list_of_values_said_of_a_count_is_obviously_false() -> None:
    assert "obvious-false" in defects(tf("nodes", '"cpu", "cuda", "mps" o "auto"',
                                         "número de máquinas del trabajo distribuido"))
    # (a list in brackets after one word is a list too)
    assert "obvious-false" in defects(tf("nodes", "motor (onnx, tflite, tensorflow)",
                                         "número de máquinas del trabajo distribuido"))


def test_a_plural_verb_said_of_one_parameter_is_obviously_false() -> None:
    # "reparten" is written in the deck, never after an article: a verb, plural, said of "nodes"
    q = tf("nodes", "reparten el trabajo entre los procesos", "número de máquinas del trabajo distribuido")
    assert "obvious-false" in run_checks(q, CheckContext(PASSAGE, PASSAGE + "\nLos workers reparten el trabajo."))
    # "también" is no verb; a noun the deck writes after an article ("el orden") is none either
    for gloss in ("también respetada por el lanzador", "orden de los procesos al arrancar"):
        q = tf("nodes", gloss, "número de máquinas del trabajo distribuido")
        assert "obvious-false" not in run_checks(q, CheckContext(PASSAGE, PASSAGE + "\nSe fija el orden."))


def test_a_false_gloss_of_the_labels_own_kind_passes() -> None:
    # a list said of a label whose own gloss is a list; a phrase said of a phrase; a phrase with bracketed notes
    assert "obvious-false" not in defects(tf("engine", "Relay o Relax", "importan modelos de ONNX, TensorFlow, TFLite"))
    assert "obvious-false" not in defects(tf("nodes", "puerto del nodo maestro para la rendezvous",
                                             "número de máquinas del trabajo distribuido"))
    assert "obvious-false" not in defects(tf("nodes", "productos Jacobiano-vector (forward) y vector-Jacobiano "
                                             "(reverse)", "número de máquinas del trabajo distribuido"))


def mcq(key: str, *others: str) -> Question:
    return Question("mcq", "En el lanzador, ¿qué término corresponde a esta descripción: «lo que devuelve»?", key,
                    (), (key,), lang="es", choices=(key, *others), correct=0, origin="siblings")


def test_a_plain_word_or_a_slide_alternative_as_a_term_is_flagged() -> None:
    assert "plain-key" in defects(mcq("salida", "engine", "format"))
    assert "plain-key" in defects(mcq("ConvNeXt", "Opción 2", "EfficientNet"))


def test_a_term_of_the_deck_as_the_key_passes() -> None:
    assert "plain-key" not in defects(mcq("ConvNeXt", "EfficientNet", "ResNet"))
    assert "plain-key" not in defects(mcq("interleaved", "engine", "format"))


def cloze(sentence: str, answer: str) -> Question:
    return Question("cloze", f"Completa el espacio en blanco: {sentence}", answer, (), (answer,), lang="es")


def test_a_blank_on_a_flag_or_a_symbol_is_trivial() -> None:
    assert "trivial-blank" in defects(cloze("El schedule interleaved se activa con --_____.", "virtual-stages"))
    assert "trivial-blank" in defects(cloze("Layer-wise decay escala la tasa por capa: minimizando _____ |g_k|.",
                                            "sum_k"))
    assert "trivial-blank" in defects(cloze("_____ se estanca, el lr lo limita la dirección más curva.",
                                            "Si la pérdida"))


def test_a_blank_that_opens_on_an_article_is_a_term_not_a_shard() -> None:
    """A noun phrase with its article is what a blank asks; only a conjunction or a preposition opens a shard."""
    assert "trivial-blank" not in defects(cloze("El scheduler reduce _____ cuando la pérdida se estanca.",
                                                "la tasa de aprendizaje"))
    assert "trivial-blank" in defects(cloze("_____ se estanca, el lr lo limita la dirección más curva.",
                                            "Si la pérdida"))


def test_a_sentence_opening_on_se_with_its_subject_elsewhere_has_none() -> None:
    assert "no-subject" in defects(cloze("En cuDNN, se fijan una vez al inicio del _____.", "script"))
    assert "no-subject" in defects(cloze("También se puede pasar un _____ de calentamiento.", "periodo"))
    # "se recomienda un periodo …": the sentence says its own subject
    assert "no-subject" not in defects(cloze("En el lanzador, se recomienda un periodo de _____ sin compresión.",
                                             "calentamiento"))


def test_the_sibling_pattern_says_a_false_gloss_of_the_labels_kind() -> None:
    """The sibling pattern's false statement takes the first following sibling whose gloss is of the label's kind:
    "nodes" is said to mean the port's gloss, not the device's list of values."""
    from kb.outline import Idea
    from kb.writing.pattern_siblings import objective_questions

    pairs = [("nodes", "número de máquinas del trabajo distribuido"), ("device", '"cpu", "cuda", "mps" o "auto"'),
             ("port", "puerto del nodo maestro para la rendezvous"), ("timeout", "espera máxima de cada llamada")]
    idea = Idea("list", "Opciones del lanzador", PASSAGE, "Opciones", "p. 1 · Opciones", ())
    false = [q for q, _ in objective_questions(idea, pairs, "el lanzador", "es", lambda o, a: True) if q.type == "tf"]
    nodes = [q for q in false if "«nodes»" in q.prompt]
    assert nodes and "puerto del nodo maestro" in nodes[0].prompt, [q.prompt for q in false]
    assert not any("obvious-false" in defects(q) for q in false), [q.prompt for q in false]


def test_a_clause_shard_is_asked_neither_as_a_blank_nor_as_a_term() -> None:
    """A cloze turned down on "Si la pérdida" must not come back as "¿qué es Si la pérdida?"."""
    q = Question("short", "En el lanzador, ¿qué es Si la pérdida?", "Si la pérdida se estanca, el lr baja.", (),
                 ("el lr baja",), lang="es", origin="definition")
    assert "garbled-term" in defects(q)
    ok = Question("short", "En el lanzador, ¿qué es SE block?", "Un bloque que repondera los canales.", (),
                  ("repondera los canales",), lang="es", origin="definition")
    assert "garbled-term" not in defects(ok)


def described(desc: str, key: str, *others: str) -> Question:
    return Question("mcq", f"En EfficientNet, ¿qué término corresponde a esta descripción: «{desc}»?", key, (), (key,),
                    lang="es", choices=(key, *others), correct=0, origin="mcq")


def test_a_row_of_figures_as_the_description_is_trivia() -> None:
    # (a table's row: rounds 19-24 dropped 6 of 6 such ratings, round 25 26 of 27)
    assert "trivia" in defects(described("380 px, 19 M, 4.2 GFLOPs, 82.9 %", "B4", "B1", "B0", "B2"))
    assert "trivia" in defects(described("(10, 3, 3, 3, 3, 2, 2)", "Kernels", "Strides", "Stride total"))
    assert "trivia" in defects(tf("nodes", "8 GPUs, 2 nodos, 16 GB", "número de máquinas del trabajo"))
    # a description with a figure in its words is a description
    assert "trivia" not in defects(described("cerca de 16 GB/s por dirección en PCIe", "Gen3", "Gen4", "Gen5"))
    assert "trivia" not in defects(described("escala la profundidad, la anchura y la resolución a la vez",
                                             "Escalado compuesto", "Dropout", "AutoAugment"))


def test_an_option_cut_inside_its_brackets_or_quotes_is_cut_off() -> None:
    assert "cut-off" in defects(mcq("Token pooling", "Modelos multilíngues (ex.", "Jina-ColBERT"))
    assert "cut-off" in defects(mcq("BERT-large", 'aviso "Some weights', "QA extrativa (SQuAD)"))
    assert "cut-off" not in defects(mcq("QA extrativa (SQuAD)", "token classification (NER)", "BERT-large"))


def test_a_numbered_step_s_sub_step_as_a_term_is_a_slide_label() -> None:
    assert "plain-key" in defects(mcq("3b", "3a", "3c", "3d"))  # (AWQ's steps 3a-3e, round 25)
    assert "plain-key" not in defects(mcq("B4", "B1", "B0", "B2"))  # (a model's name: its own check above)


def test_sizes_intervals_numbered_options_and_code_are_neither_labels_cut_nor_figures() -> None:
    # (review of session 22's checks: each of these was flagged)
    assert "plain-key" not in defects(mcq("7B", "13B", "70B", "34B"))
    assert "cut-off" not in defects(mcq("[0, 1)", "(0, 1]", "[0, 1]"))
    assert "cut-off" not in defects(mcq("1) inicializar", "2) entrenar", "3) evaluar"))
    assert "trivia" not in defects(described("torch.zeros(2, 3) @ torch.ones(3, 4)", "matmul", "add", "cat"))


def test_a_blank_or_key_on_a_formulas_symbol_is_notation_not_an_idea() -> None:
    """A cloze whose blank, or a multiple choice whose key, is a formula's symbol asks the slide's notation
    (``notation-answer``); a code name with longer parts is a term and passes."""
    for symbol in ("alpha_t", "U_jj", "n_{l+1}", "OT_eps", "sum_k"):
        assert "trivial-blank" in defects(cloze("Layer-wise decay escala la tasa por capa con _____ en cada paso.",
                                                symbol)), symbol
    for name in ("capacity_factor", "tp_size", "num_workers"):
        assert "trivial-blank" not in defects(cloze("En el lanzador, el reparto se fija con _____ al inicio.",
                                                    name)), name
    options = ("N_max", "x_i", "pi_i", "L_cls")
    key = Question("mcq", "En Instant-NGP, ¿qué término corresponde a esta descripción: «resolución más fina»?",
                   "N_max", (), options, lang="es", correct=0)
    named = Question("mcq", "En el lanzador, ¿qué término corresponde a esta descripción: «número de máquinas»?",
                     "num_nodes", (), ("num_nodes", "device", "engine", "format"), lang="es", correct=0)
    others = frozenset(CHECKS) - {"notation-answer"}  # (the check alone: other checks see other things in it)
    assert run_checks(key, CheckContext(PASSAGE, PASSAGE), skip=others) == ["trivia"]
    assert run_checks(named, CheckContext(PASSAGE, PASSAGE), skip=others) == []


def test_a_symbol_the_deck_writes_as_code_is_a_code_name() -> None:
    """A name a formula could use that the deck writes as code — a keyword argument, a flag's value, a function's
    parameter, an attribute — is a term to recall, not notation ("n_fft=400", "-arch=sm_80", "def causal(b, h,
    q_idx, kv_idx)"); the same blank in a deck that only writes it in formulas is notation, as are a Greek letter's
    name as a subscript and a power ("eps_theta", "sigma^2")."""
    code = ("mel = T.MelSpectrogram(sample_rate=16000, n_fft=400, hop_length=160)\n"
            "sched = CosineAnnealingLR(opt, T_max=100)\nnvcc -arch=sm_80 kernel.cu\n"
            "def causal(b, h, q_idx, kv_idx):\n    return q_idx >= kv_idx\ndf.to_csv('out.csv')")
    maths = "x_t = (alpha_t / alpha_s) x_s - sigma_t (e^h - 1) eps_theta(x_s, s); n_fft y T_max en la fórmula"
    others = frozenset(CHECKS) - {"notation-answer"}
    for name in ("n_fft", "T_max", "sm_80", "kv_idx", "to_csv"):
        q = cloze("El espectrograma se calcula con _____ en cada ventana.", name)
        assert run_checks(q, CheckContext(code, code), skip=others) == [], name
        assert run_checks(q, CheckContext(maths, maths), skip=others) == ["trivial-blank"], name
    for symbol in ("eps_theta", "sigma^2", "x_t"):
        q = cloze("El modelo predice _____ en cada paso de muestreo.", symbol)
        assert run_checks(q, CheckContext(maths, maths), skip=others) == ["trivial-blank"], symbol
