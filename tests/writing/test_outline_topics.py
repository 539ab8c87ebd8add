"""The outline aims at what a teacher would call a deck's key ideas (:mod:`kb.outline`): an idea's
topic is its name less facet words ("Beneficios de", "Configuración de") and the words every part of
the deck uses; the top ideas are one per topic, spread over the sections, ranked by how much of the
deck their topic takes."""

from __future__ import annotations

from kb.outline import build_outline, same_word
from kb.records import Chunk, Locator

SRC = "slides/datos.pdf"


def _chunk(page: int, title: str, text: str) -> Chunk:
    return Chunk(SRC, "pdf", text, Locator(page=page, heading=title), "es", page, f"h{page}", 4)


def _bullets(*lines: str) -> str:
    return "\n".join(f"• {ln}" for ln in lines)


def _deck() -> list[Chunk]:
    """A deck with four sections: DDP takes four slides (three of them facets of it), DataLoaders
    three, transformations two, and a short closing one; PyTorch in titles all over it."""
    return [
        _chunk(1, "Conjuntos de datos en PyTorch", "Curso de aprendizaje profundo"),
        _chunk(2, "DataLoaders en PyTorch", _bullets(
            "Un DataLoader recorre un conjunto de datos en lotes de tamaño fijo.",
            "Puede mezclar las muestras en cada época para evitar sesgos de orden.")),
        _chunk(3, "Configuración del DataLoader", _bullets(
            "batch_size: cuántas muestras forman cada lote del entrenamiento.",
            "num_workers: cuántos procesos cargan los datos en paralelo.")),
        _chunk(4, "Iteración sobre un DataLoader", _bullets(
            "Cada iteración del bucle devuelve un lote de entradas y sus etiquetas.",
            "El último lote puede quedar incompleto si el tamaño no es múltiplo.")),
        _chunk(5, "Transformaciones en PyTorch", _bullets(
            "Las transformaciones preparan cada muestra antes de entrenar el modelo.",
            "Se encadenan con Compose en el orden en que deben aplicarse.")),
        _chunk(6, "Transformaciones de la muestra", _bullets(
            "Una transformación de la muestra se aplica dentro de __getitem__ a cada elemento.",
            "Permite normalizar y recortar las imágenes una a una durante la carga.")),
        _chunk(7, "Distributed Data Parallelism", _bullets(
            "Distributed Data Parallelism replica el modelo en varios procesos y varias GPUs.",
            "Cada proceso calcula gradientes sobre su parte del lote y se promedian.")),
        _chunk(8, "Beneficios de Distributed Data Parallelism", _bullets(
            "Escala el entrenamiento a varios nodos con un proceso por GPU disponible.",
            "Evita el cuello de botella del intérprete que tiene DataParallel con hilos.")),
        _chunk(9, "Configuración de Distributed Data Parallelism", _bullets(
            "Se inicializa el grupo de procesos con el backend de comunicación elegido.",
            "Se envuelve el modelo en DistributedDataParallel dentro de cada proceso.")),
        _chunk(10, "Ejemplo de uso de Distributed Data Parallelism en PyTorch", _bullets(
            "El script se lanza con torchrun indicando el número de procesos por nodo.",
            "Cada proceso lee su parte de los datos con un DistributedSampler propio.")),
        _chunk(11, "Aplicaciones del mundo real", _bullets("Visión por computador y lenguaje natural.")),
    ]


MARKS = [("DataLoaders", 2), ("Transformaciones", 5), ("DDP", 7), ("Aplicaciones", 11)]


def test_one_word_is_its_plural_and_its_inflections_not_a_longer_name():
    assert same_word("dataloader", "dataloaders") and same_word("transformacion", "transformaciones")
    assert same_word("distribuido", "distributed") and same_word("dtensor", "dtensors") and same_word("gpu", "gpus")
    assert not same_word("tensores", "tensorflow") and not same_word("tensor", "tensorboard")
    assert not same_word("datos", "data") and not same_word("modelo", "modulo")


def test_an_idea_s_topic_is_its_name_less_facets_and_the_deck_s_general_words():
    o = build_outline(_deck(), SRC, bookmarks=MARKS)
    topic = {i.name: set(i.topic) for i in o.ideas}
    # "Beneficios de …", "Configuración de …", "Ejemplo de uso de … en PyTorch": the same subject
    ddp = {"distributed", "data", "parallelism"}
    assert topic["Distributed Data Parallelism"] == ddp
    assert topic["Beneficios de Distributed Data Parallelism"] == ddp
    assert topic["Ejemplo de uso de Distributed Data Parallelism en PyTorch"] == ddp
    # PyTorch is in titles from page 2 to page 10 of 11: the deck's subject, no idea's topic
    assert topic["Transformaciones en PyTorch"] == {"transformaciones"}


def test_the_top_ideas_are_one_per_topic_spread_over_the_sections():
    o = build_outline(_deck(), SRC, bookmarks=MARKS)
    top = o.top(3)
    assert len(top) == 3
    # the three sections that take several pages, one idea each; no second DDP idea before them
    assert {i.section for i in top} == {"DataLoaders", "Transformaciones", "DDP"}
    assert sum("Distributed Data Parallelism" in i.name for i in top) == 1
    # its four slides' titles name one topic (the facets "Beneficios de", "Configuración de" and
    # "Ejemplo de uso de … en PyTorch" included)
    ddp = next(i for i in top if i.section == "DDP")
    assert "its topic titles 4 pages" in ddp.why
    # the closing slide, one page, comes after every idea of the three sections
    assert all(i.section != "Aplicaciones" for i in o.top(5)[:3])


def test_after_a_colon_the_idea_is_what_follows_it():
    chunks = [
        _chunk(1, "TensorFlow distribuido", "Curso"),
        _chunk(2, "Distribute.Strategy de TF", _bullets(
            "tf.distribute.Strategy reparte el entrenamiento entre varios dispositivos o máquinas.",
            "Se elige una estrategia según el hardware y el tipo de sincronización.")),
        _chunk(3, "Distribute.Strategy de TF: MirroredStrategy", _bullets(
            "MirroredStrategy crea una réplica del modelo en cada GPU de una misma máquina.",
            "Los gradientes de las réplicas se agregan con all-reduce en cada paso.")),
        _chunk(4, "Distribute.Strategy de TF: ParameterServerStrategy", _bullets(
            "ParameterServerStrategy reparte las variables entre servidores de parámetros.",
            "Los workers entrenan de forma asíncrona y piden las variables a los servidores.")),
    ]
    o = build_outline(chunks, SRC, bookmarks=[])
    topic = {i.name: set(i.topic) for i in o.ideas}
    assert topic["Distribute.Strategy de TF: MirroredStrategy"] == {"mirroredstrategy"}
    assert topic["Distribute.Strategy de TF: ParameterServerStrategy"] == {"parameterserverstrategy"}
    # three topics: the strategies are not the catalogue, so the top three hold all three
    assert len(o.top(3)) == 3 and len({frozenset(i.topic) for i in o.top(3)}) == 3


def test_the_deck_s_own_title_is_no_top_idea():
    chunks = [Chunk("notes/cap12.md", "markdown",
                    "Resumo do capítulo sobre TensorFlow distribuído em GPUs e servidores.",
                    Locator(heading="Capítulo 12: TensorFlow distribuído"), "pt", 0, "h0", 4),
              Chunk("notes/cap12.md", "markdown",
                    "- Paralelismo de dados: cada réplica treina com um mini-lote diferente.\n"
                    "- Paralelismo de modelo: cada GPU executa uma parte da rede neural.",
                    Locator(heading="Capítulo 12: TensorFlow distribuído > Paralelismo"), "pt", 1, "h1", 4)]
    o = build_outline(chunks, "notes/cap12.md", bookmarks=[])
    assert o.title == "Capítulo 12: TensorFlow distribuído"
    assert o.top(5) and all(i.name != o.title for i in o.top(5))


def test_an_index_entry_of_short_words_only_puts_no_idea_in_the_index():
    """An agenda line with no word of three letters ("IA") has no topic: it must not count every idea
    as named in the deck's index (an empty topic was held by every title)."""
    agenda = _chunk(1, "Agenda", _bullets("IA", "DataLoaders", "Transformaciones"))
    deck = [agenda, *(_chunk(c.locator.page + 1, c.locator.heading, c.text) for c in _deck()[1:])]
    o = build_outline(deck, SRC, bookmarks=[])
    indexed = {i.name for i in o.ideas if "in the index" in i.why}
    assert indexed, "the agenda's DataLoaders / Transformaciones entries are named ideas"
    assert not any("Distributed Data Parallelism" in n for n in indexed), indexed
