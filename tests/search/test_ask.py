"""kb ask offline: the unit that answers the kind of question asked, quoted whole with its page, and
`kb eval ask`'s rule (evidence phrases held + right page cited). A small deck written for these tests
(not one of eval/ask_set.jsonl's, which are held out for measuring) is rendered to a real PDF and
ingested with the sample course."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kb.answering import (
    asks_what_returns,
    difference_sides,
    kind_fit,
    labelled_items,
    question_kind,
    states_return,
    subject_tokens,
    units,
    whole_pages,
)
from kb.errors import InputError
from kb.evaluate import load_ask_set
from kb.records import Chunk, Hit, Locator

from ..conftest import course_with_decks, run_kb, text_deck
from .helpers import ask, cited_pages

DECK = """\
=== Callbacks y control del entrenamiento en Keras
• Curso de frameworks de deep learning
=== Callbacks en Keras
• Definición: un callback es un objeto que Keras llama en puntos concretos del entrenamiento
• Puntos de llamada:
  • on_train_begin y on_train_end
  • on_epoch_begin y on_epoch_end
  • on_batch_begin y on_batch_end
• Uso típico: guardar checkpoints, parar antes de tiempo, registrar métricas
=== EarlyStopping frente a ReduceLROnPlateau
• EarlyStopping: detiene el entrenamiento cuando la métrica vigilada deja de mejorar
• ReduceLROnPlateau: reduce la tasa de aprendizaje cuando la métrica se estanca
• Ambos usan patience: épocas sin mejora antes de actuar
=== Cómo escribir un callback propio
• Procedimiento:
  • Heredar de keras.callbacks.Callback
  • Sobrescribir los métodos on_* que se necesiten
  • Pasar una instancia en fit(callbacks=[...])
    class Registro(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            print(epoch, logs["loss"])
=== ModelCheckpoint
• Motivo: un entrenamiento largo puede interrumpirse y se perdería todo el progreso
• save_best_only=True guarda sólo el mejor modelo según la métrica vigilada
"""


@pytest.fixture(scope="module")
def callbacks_course(tmp_path_factory, course_template) -> Path:
    """The sample course and the callbacks deck (corpora/callbacks_es.pdf), ingested by `kb ingest`."""
    return course_with_decks(tmp_path_factory.mktemp("callbacks"), text_deck("callbacks_es", DECK),
                             course_template / ".kb")



@pytest.mark.parametrize("question, kind", [
    ("¿Qué es un callback?", "what"), ("O que é o LoRA?", "what"), ("¿Qué hace torch.unsqueeze?", "what"),
    ("¿Cómo se escribe un callback propio?", "how"), ("Como se usa o OneCycleLR?", "how"),
    ("¿Por qué usar ModelCheckpoint?", "why"), ("Que problema tem o autograd multihilo?", "why"),
    ("¿Qué métodos ofrece torchmetrics?", "list"), ("Quais são as partes de um adapter?", "list"),
    ("¿Cuál es la diferencia entre MSE y MAE?", "difference"), ("Em que o RMSProp difere do Adagrad?", "difference"),
])
def test_the_kind_of_question_is_read_from_its_words(question, kind):
    assert question_kind(question) == kind


def test_the_two_sides_of_a_difference_are_read():
    a, b = difference_sides("¿Cuál es la diferencia entre weight decay y regularización L2?") or ([], [])
    assert "weigh" in a and "decay" in a and "regul" in b and "l2" in b
    assert difference_sides("¿Qué es un tensor?") is None


def test_a_bullet_keeps_its_sub_bullets_and_the_explanation_under_it():
    text = "• Puntos:\n  • uno\n  • dos\n• Mean Absolute Error\nVentaja: no amplifica\n• Otro"
    got = units(0, Chunk("d.pdf", "pdf", text, Locator(page=1), "es", 0, "h", 1))
    assert [u.lines for u in got] == [["• Puntos:", "  • uno", "  • dos"],
                                      ["• Mean Absolute Error", "Ventaja: no amplifica"], ["• Otro"]]


def _page(text: str):
    return units(0, Chunk("d.pdf", "pdf", text, Locator(page=1), "es", 0, "h", 1))


@pytest.mark.parametrize("question, asks", [
    ("What does state_dict() return in PyTorch?", True), ("¿Qué devuelve el método parameters()?", True),
    ("O que retorna o método forward?", True), ("¿Qué devuelven los DataLoader?", True),
    ("¿Qué es state_dict()?", False), ("¿Cómo se guarda un modelo?", False),
])
def test_a_question_that_asks_what_something_returns_is_read(question, asks):
    assert asks_what_returns(question) is asks


def test_the_unit_that_states_what_the_subject_returns_answers_what_it_returns():
    subject = subject_tokens("What does state_dict() return in PyTorch?")
    says, saves, other = _page(
        "• El método state_dict() devuelve un diccionario que mapea nombres a tensores.\n"
        "• Para guardar el estado, utilizamos torch.save() y pasamos el diccionario state_dict().\n"
        "• torch.load() devuelve el diccionario que guardó state_dict().")
    assert states_return(says, subject, {})
    assert not states_return(saves, subject, {})  # names the subject, states no return
    assert not states_return(other, subject, {})  # a return, of something else: the subject comes after it
    assert states_return(_page("• O método forward() retorna a saída do modelo.")[0],
                         subject_tokens("O que retorna o método forward()?"), {})


def test_an_item_labelled_with_the_subject_answers_what_it_is():
    intro, examples = _page(
        "• PyTorch ofrece conjuntos de datos predefinidos, como MNIST, CIFAR-10, ImageNet, etc.\n"
        "• Algunos ejemplos son:\n"
        "  • MNIST: Un conjunto de imágenes de dígitos escritos a mano.\n"
        "  • CIFAR-10: Un conjunto de imágenes en color de 10 clases.\n"
        "  • una línea sin etiqueta")
    items = labelled_items(examples)
    assert [u.lines for u in items] == [["• MNIST: Un conjunto de imágenes de dígitos escritos a mano."],
                                        ["• CIFAR-10: Un conjunto de imágenes en color de 10 clases."]]
    assert [u.start for u in items] == [2, 3]  # where they stand in the page
    subject = subject_tokens("¿Qué es MNIST?")
    assert kind_fit("what", items[0], subject, {}) == 2.0  # labelled with the subject: its definition
    assert kind_fit("what", items[1], subject, {}) == 0.0
    assert kind_fit("what", intro, subject, {}) == 0.0  # names it among others
    # a label that holds more than the subject, or a label followed by a count, does not say what it is
    more = _page("• Estado del optimizador: buffers por parámetro que ocupan memoria")[0]
    assert kind_fit("what", more, subject_tokens("¿Qué es un optimizador?"), {}) < 2.0
    count = _page("• LoRA: 2 x 4096 x 8 = 65.536 parâmetros (~0,4%)")[0]
    assert kind_fit("what", count, subject_tokens("O que é LoRA?"), {}) < 2.0
    assert kind_fit("what", _page("• LoRA: matrizes de posto baixo treináveis")[0],
                     subject_tokens("O que é LoRA?"), {}) == 2.0


def test_a_pages_overlapping_windows_are_put_back_together_once():
    def window(i: int, text: str) -> Chunk:
        return Chunk("d.pdf", "pdf", text, Locator(page=3), "es", i, "h", 3)

    windows = [window(1, "• b\n• c\n• d"), window(0, "• a\n• b\n• c"), window(2, "• d\n• e")]
    [(hit, code)] = whole_pages(windows, [Hit(windows[0], 0.9, 1)])
    assert hit.chunk.text == "• a\n• b\n• c\n• d\n• e" and hit.chunk.ordinal == 0 and not code


def test_a_list_question_gets_the_whole_labelled_list_in_order_with_its_page(callbacks_course):
    a = ask(callbacks_course, "¿En qué puntos del entrenamiento se llama un callback?")
    assert a["found"] and ("callbacks_es.pdf", 2) in cited_pages(a)
    text = a["answer"]
    assert text.index("on_train_begin") < text.index("on_epoch_begin") < text.index("on_batch_begin")


def test_a_what_question_gets_the_definition(callbacks_course):
    a = ask(callbacks_course, "¿Qué es un callback en Keras?")
    assert "un callback es un objeto que Keras llama" in a["answer"]
    assert ("callbacks_es.pdf", 2) in cited_pages(a)


def test_a_difference_gets_both_sides(callbacks_course):
    a = ask(callbacks_course, "¿Cuál es la diferencia entre EarlyStopping y ReduceLROnPlateau?")
    assert "detiene el entrenamiento" in a["answer"] and "reduce la tasa de aprendizaje" in a["answer"]
    assert ("callbacks_es.pdf", 3) in cited_pages(a)


def test_a_how_question_gets_the_steps_and_the_code(callbacks_course):
    a = ask(callbacks_course, "¿Cómo se escribe un callback propio?")
    assert "Heredar de keras.callbacks.Callback" in a["answer"] and "def on_epoch_end" in a["answer"]
    assert ("callbacks_es.pdf", 4) in cited_pages(a)


def test_a_question_the_course_does_not_answer_says_so_and_shows_passages(callbacks_course):
    a = ask(callbacks_course, "¿Cuál es la receta del gazpacho andaluz?")
    assert a["found"] is False and a["answer"].startswith("El curso no parece contener") and a["passages"]


def test_eval_ask_judges_evidence_and_page(callbacks_course):
    rows = [
        {"question": "¿Por qué usar ModelCheckpoint?", "source": "callbacks_es.pdf", "pages": [5],
         "evidence": ["puede interrumpirse"], "kind": "why", "split": "dev"},
        {"question": "¿Qué es un callback en Keras?", "source": "callbacks_es.pdf", "pages": [2],
         "evidence": ["objeto que Keras llama"], "split": "dev"},
        # the right page, but a phrase no answer holds: partly
        {"question": "¿Qué es un callback en Keras?", "source": "callbacks_es.pdf", "pages": [2],
         "evidence": ["objeto que Keras llama", "una frase que el curso no dice"], "split": "test"},
        # a page that does not answer it: not correct
        {"question": "¿Qué es un callback en Keras?", "source": "callbacks_es.pdf", "pages": [5],
         "evidence": ["objeto que Keras llama"], "split": "test"},
    ]
    path = callbacks_course / "set.jsonl"
    path.write_text("# a comment\n" + "\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    r = run_kb(["eval", "ask", str(path), "--offline", "--json"], cwd=callbacks_course)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert [q["verdict"] for q in got["questions"]] == ["correct", "correct", "partly", "partly"]
    assert got["quoted"] == 1.0 and got["splits"]["dev"]["correct"] == 1.0 and got["splits"]["test"]["n"] == 2
    r = run_kb(["eval", "ask", str(path), "--split", "test", "--offline"], cwd=callbacks_course)
    assert r.returncode == 0 and "partly" in r.stdout


@pytest.mark.parametrize("line, message", [
    ('{"question": "q", "source": "a.pdf", "evidence": ["x"]}',
     'set.jsonl:1: "pages" must be a non-empty list of page numbers'),
    ('{"question": "q", "pages": [1], "evidence": ["x"]}', 'set.jsonl:1: missing "source"'),
    ('{"question": "q", "source": "a.pdf", "pages": [1], "evidence": []}',
     'set.jsonl:1: "evidence" must be a non-empty list of phrases'),
    ("not json", "set.jsonl:1: not valid JSON"),
])
def test_a_bad_ask_set_names_the_line_and_the_fix(tmp_path, line, message):
    path = tmp_path / "set.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_ask_set(path)
    assert str(e.value).startswith(str(tmp_path / message)) and e.value.hint


def test_eval_ask_with_a_split_the_file_lacks_is_an_input_error(ingested, tmp_path):
    path = tmp_path / "set.jsonl"
    path.write_text('{"question": "q", "source": "a.pdf", "pages": [1], "evidence": ["x"], "split": "dev"}\n',
                    encoding="utf-8")
    r = run_kb(["eval", "ask", str(path), "--split", "test", "--offline"], cwd=ingested)
    assert r.returncode == 3 and "set.jsonl: no questions in split 'test'" in r.stderr
