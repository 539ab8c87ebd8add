"""A planned top idea's question is set where the writer sets its own (:mod:`kb.writing.subject`): the
deck's subject, never an index page's title ("En contenidos del curso, …", "Em Agenda, …") nor a chapter
label ("Em capítulo 12, …"); and when the first form of its plain question fails the checks, the next
form is tried (a labelled list asked as a whole)."""

from __future__ import annotations

from pathlib import Path

from kb.ingest import read_and_chunk
from kb.outline import build_outline
from kb.records import Chunk, Locator
from kb.writing.generate import CourseTerms
from kb.writing.plan import plain_forms, plain_questions, plan_size
from kb.writing.slide_bullets import slide_answer
from kb.writing.subject import deck_subject, deck_title, index_title
from kb.writing.wording import deck_topic

SAMPLE = Path(__file__).resolve().parents[2] / "sources"
SRC = "notes/tf.txt"


def _text(heading: str, text: str, i: int) -> Chunk:
    return Chunk(SRC, "text", text, Locator(heading=heading), "es", i, "h", 4)


def _notes(first: str) -> list[Chunk]:
    """A text export of slides (no pages): its first heading ``first``, TensorFlow code in it."""
    return [
        _text(first, "• Breve introducción a TensorFlow y Keras\n• Entrenamiento distribuido", 0),
        _text("Keras", "• Keras es la API de alto nivel de TensorFlow para construir y entrenar modelos.\n"
              "• Define un modelo como una pila de capas y lo entrena con fit.\n"
              "• Compila el modelo con un optimizador, una función de pérdida y métricas.", 1),
        _text("Entrenamiento distribuido", "• Reparte el entrenamiento de un modelo entre varios dispositivos:\n"
              "  • Cada trabajador calcula los gradientes de su parte del lote.\n"
              "  • Los gradientes se promedian antes de actualizar los pesos del modelo.", 2),
        _text("Ejemplo", "import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\n"
              "with strategy.scope():\n    model = tf.keras.Sequential()", 3),
    ]


def _course(chunks: list[Chunk]) -> CourseTerms:
    course = CourseTerms(chunks, None)
    course.outlines = {SRC: build_outline(chunks, SRC, bookmarks=[])}
    return course


def test_an_index_page_title_is_no_subject():
    assert index_title("Contenidos del curso") and index_title("Agenda") and index_title("Conteúdo da aula")
    assert not index_title("Contenidos multimedia en TensorFlow") and not index_title("TensorFlow distribuido")


def test_a_chapter_label_says_nothing_of_the_subject_what_follows_it_does():
    assert deck_topic("Tema 3: Redes convolucionales") == "redes convolucionales"
    assert deck_topic("Capítulo 12: Distribuindo TensorFlow em Dispositivos e Servidores") == ""  # (opens on a verb)
    assert deck_topic("Capítulo 12") == "capítulo 12"  # (nothing follows it: the label is all there is)
    assert deck_topic("Redes recurrentes: LSTM y GRU") == "redes recurrentes"


def test_text_notes_that_open_on_their_index_are_set_in_the_library_their_code_uses():
    chunks = _notes("Contenidos del curso")
    course = _course(chunks)
    assert course.outlines[SRC].title == "Contenidos del curso"
    assert deck_title(course, SRC) == ""
    assert deck_subject(course, SRC) == "TensorFlow"
    drafts, failed = plain_questions(course.outlines, [], {c.id: c for c in chunks}, course, k=plan_size(12),
                                     lang=None)
    prompts = [d.question.prompt for d in drafts]
    # (the slide's topic, set in the subject; its lead-in to complete, a form teachers never kept, is a last
    # resort: kb/writing/form_prior.py)
    assert "En TensorFlow, explica el entrenamiento distribuido." in prompts
    assert not any("contenidos" in p.lower() for p in prompts + [r.what for r in failed])
    assert all("slide-label-context" not in r.reason for r in failed)


def test_text_notes_with_a_subject_title_are_set_in_it():
    chunks = _notes("Aprendizaje distribuido con TensorFlow")
    course = _course(chunks)
    assert deck_title(course, SRC) == "Aprendizaje distribuido con TensorFlow"
    assert deck_subject(course, SRC) == "aprendizaje distribuido"


def test_plain_forms_are_set_in_the_subject_and_a_list_is_also_asked_as_a_whole():
    chunks = _notes("Contenidos del curso")
    o = build_outline(chunks, SRC, bookmarks=[])
    training = next(i for i in o.ideas if i.name == "Entrenamiento distribuido")
    forms = [p for p, _ in plain_forms(training, "TensorFlow", "es")]
    assert forms == []  # (a title is no concept: asked by its slide's lead-in, which needs the slide's text)
    passage = chunks[2].text
    lead = "completa esta idea del material y explica cada punto: «Reparte el entrenamiento de un modelo entre varios "
    assert [p for p, _ in plain_forms(training, "TensorFlow", "es", passage)] == [
        f"En TensorFlow, {lead}dispositivos: …»",  # (never unset to pass)
        "En TensorFlow, explica el entrenamiento distribuido."]  # (a title's topic, never the title quoted)
    assert [p for p, _ in plain_forms(training, "", "es", passage)][0] == f"{lead[0].upper()}{lead[1:]}dispositivos: …»"
    # a definition asks what its term means; named as the deck's subject, it is asked unset only
    keras = next(i for i in o.ideas if i.name == "Keras")
    assert [p for p, _ in plain_forms(keras, "Keras", "es")] == ["¿Qué significa «Keras»?"]
    # a slide's label is nothing to ask about ("¿Qué caracteriza a «Consideraciones adicionales»?")
    from dataclasses import replace
    assert plain_forms(replace(training, name="Consideraciones adicionales"), "TensorFlow", "es") == []
    # a slide of code is no idea to ask in words
    assert plain_forms(next(i for i in o.ideas if i.name.startswith("Ejemplo")), "TensorFlow", "es") == []
    rows = Chunk(SRC, "text", "• Síncrono: todos esperan a todos antes de actualizar los pesos del modelo.\n"
                 "• Asíncrono: cada trabajador actualiza los pesos en cuanto termina su paso.",
                 Locator(heading="Tipos de entrenamiento"), "es", 5, "h", 4)
    listed = next(i for i in build_outline([*chunks, rows], SRC, bookmarks=[]).ideas if i.kind == "list")
    forms = [p for p, _ in plain_forms(listed, "TensorFlow", "es")]
    assert forms == ["En TensorFlow, ¿cuáles son los tipos de entrenamiento?"]  # (its labels never in the stem)


def test_the_sample_course_export_of_the_tf_deck_asks_its_planned_ideas_in_tensorflow():
    """sources/004_*.txt (a text export of the TensorFlow distribuido slides, which open on
    "Contenidos del curso"): its planned top ideas' plain questions are set in TensorFlow and pass."""
    path = next(SAMPLE.glob("004_*.txt"))
    _, chunks, failed = read_and_chunk(path, f"sources/{path.name}", 50)
    assert failed is None
    src = f"sources/{path.name}"
    course = CourseTerms(chunks, None)
    course.outlines = {src: build_outline(chunks, src, bookmarks=[])}
    assert deck_subject(course, src) == "TensorFlow"
    drafts, rejected = plain_questions(course.outlines, [], {c.id: c for c in chunks}, course, k=plan_size(12),
                                       lang=None)
    # (its planned titles open on no lead-in sentence, and a title is no concept to ask about: 1 of 3 before;
    # the quiz fills up with questions on further ideas, kb.writing.plan.fill_questions)
    assert len(drafts) >= 1
    assert all(d.question.prompt.startswith(("En TensorFlow, ", "¿")) for d in drafts)
    assert not any("slide-label-context" in r.reason for r in rejected)


def test_a_library_one_slide_names_is_no_subject_for_a_plain_question():
    """A text on parallelism in general whose one slide shows Hadoop: its plain questions are not set
    "Em Hadoop, …" (the library must be named across the deck: LIBRARY_SPAN)."""
    chunks = [Chunk("notes/par.txt", "text", text, Locator(heading=h), "pt", i, "h", 4) for i, (h, text) in enumerate([
        ("Agenda", "• Paralelismo\n• Thread\n• MapReduce"),
        ("Thread", "• Uma thread é uma execução independente que compartilha os dados do processo.\n"
                   "• Criar uma thread é mais rápido que criar um novo processo no sistema operacional."),
        ("Níveis de paralelismo", "• Instrução, dados, tarefa e processo são os níveis de paralelismo.\n"
                                  "• Os níveis podem ser combinados numa mesma aplicação paralela."),
        ("MapReduce", "• O Hadoop executa o MapReduce num cluster: no Hadoop o Map gera pares chave-valor.\n"
                      "• O Reduce do Hadoop agrega os valores por chave.\n"
                      "import hadoop\nhadoop.run(job)\nhadoop.wait(job)"),
    ])]
    course = CourseTerms(chunks, None)
    course.outlines = {"notes/par.txt": build_outline(chunks, "notes/par.txt", bookmarks=[])}
    # the code's library is found (the older rule, wherever it is named, would set stems in it) …
    assert deck_subject(course, "notes/par.txt", any_library=True) == "Hadoop"
    # … but one slide of four names it: no subject for the deck
    assert deck_subject(course, "notes/par.txt") == ""
    drafts, _ = plain_questions(course.outlines, [], {c.id: c for c in chunks}, course, k=5, lang=None)
    assert not any("Hadoop" in d.question.prompt for d in drafts)


def test_a_slides_bullets_answer_its_plain_question_as_sentences():
    """The outline runs a slide's bullets together ("… automática Junto a Pytorch …"); the plain
    question's answer keeps them apart, sub-bullets after their bullet, whole bullets only."""
    passage = ("• TensorFlow (TF) es una plataforma de aprendizaje automática\n"
               "  • Junto a Pytorch, una de las más populares\n"
               "• Proporciona:\n"
               "  • Herramientas para la carga de datos\n"
               "  • Servidores de inferencia de modelos\n"
               "• Proporciona:\n")  # (a window's overlap repeats a line)
    assert slide_answer(passage) == ("TensorFlow (TF) es una plataforma de aprendizaje automática: Junto a Pytorch, "
                                     "una de las más populares. Proporciona: Herramientas para la carga de datos; "
                                     "Servidores de inferencia de modelos.")
    # a slide too long to recite: its first whole bullets
    long = "\n".join(f"• Paralelismo en el nivel {i} con mecanismos propios del procesador y de la memoria" for i in
                     range(12))
    short = slide_answer(long, limit=45)  # (14 words a bullet: three fit)
    assert short.count(".") == 3 and short.endswith("memoria.")
    assert slide_answer("• Una sola línea del todo") == ""
    assert slide_answer("```\nimport tensorflow as tf\n```\n• a b c\n• d e f") == ""
