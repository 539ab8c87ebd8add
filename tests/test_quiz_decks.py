"""Questions a teacher keeps, on real slide decks kb was not written for (../shared/corpora).

Each defect class a teacher found in the old offline writer is pinned here with the real PDF
page that produced it: the writer must no longer produce it, and ``kb.quizcheck`` (which
``kb eval quiz`` uses) must still see it in the question the old writer wrote.
"""

from __future__ import annotations

import json
import shutil

import pytest

from kb.config import Settings
from kb.quiz import Citation, Question
from kb.quizcheck import cut_off, defects, duplicate_choices, foreign_material, giveaway, unsupported
from kb.workspace import open_workspace

from .conftest import CORPORA, SOURCES, needs_corpora, run_kb

pytestmark = needs_corpora

DECKS = ("03Datos.pdf", "05modelos.pdf")
# words a teacher would never accept as "the key concept" of an answer
GENERIC = {"técnica", "tecnica", "valor", "valores", "sistema", "forma", "proceso", "manera", "cosa", "parte",
           "datos", "utiliza", "permite", "todos", "misma"}


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """The sample course plus the three real decks, ingested once for this module."""
    ws = tmp_path_factory.mktemp("decks")
    shutil.copytree(SOURCES, ws / "sources")
    (ws / "corpora").mkdir()
    for name in ("001TFDist.pdf", *DECKS):
        shutil.copy(CORPORA / name, ws / "corpora" / name)
    r = run_kb(["ingest", "sources", "corpora"], cwd=ws)
    assert r.returncode == 0, r.stderr
    return ws


def _generate(course, args, name):
    out = course / "quizzes" / f"{name}.json"
    r = run_kb(["quiz", "generate", *args, "--offline", "--force", "-o", str(out), "--json"], cwd=course)
    return r, out


def _eval(course, path):
    r = run_kb(["eval", "quiz", str(path), "--json"], cwd=course)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _chunks(course, source):
    ws = open_workspace(Settings(home=course / ".kb"))
    return [c for c in ws.store.all_chunks() if c.source.endswith(source)]


def _page(course, source, page):
    return next(c for c in _chunks(course, source) if c.locator.page == page)


def _q(prompt, answer, qtype="short", **kw):
    cit = kw.pop("citations", ())
    return Question(qtype, prompt, answer, cit, **kw)


# --------------------------------------------------------------------------- "Done when"

@pytest.mark.parametrize("deck", DECKS)
def test_each_deck_quiz_reaches_ten_clean_questions(course, deck):
    r, path = _generate(course, ["--source", f"corpora/{deck}", "-n", "12"], deck)
    assert r.returncode == 0, r.stderr
    qs = json.loads(r.stdout)["questions"]
    assert len(qs) >= 10
    m = _eval(course, path)
    assert "cut-off" not in m["defects"] and "duplicate-choices" not in m["defects"]
    assert m["clean"] >= 0.9, m["defects"]
    if m["mcq"] >= 2:
        assert m["position_skew"] <= 0.5
    assert all(q["citations"][0]["source"] == f"corpora/{deck}" for q in qs)
    assert {q["type"] for q in qs} >= {"short", "mcq", "tf"} or len({q["type"] for q in qs}) >= 3
    for q in qs:
        assert q["concepts"] and not {c.lower() for c in q["concepts"]} & GENERIC, q
        assert q["prompt"][0] == "¿" and q["prompt"][1].isupper() or q["prompt"][0].isupper(), q["prompt"]
        if q["type"] == "mcq":
            assert len(q["choices"]) == 4 and q["choices"][q["correct"]] == q["answer"]


def test_whole_course_quiz_reaches_sixteen(course):
    r, path = _generate(course, ["-n", "20"], "course")
    assert r.returncode == 0, r.stderr
    assert len(json.loads(r.stdout)["questions"]) >= 16
    m = _eval(course, path)
    assert "cut-off" not in m["defects"] and "duplicate-choices" not in m["defects"]
    assert m["mcq"] < 2 or m["position_skew"] <= 0.5


@pytest.mark.parametrize("topic", ["receita de bolo", "historia de roma"])
def test_off_course_topic_writes_no_quiz_and_fails(course, topic):
    r, path = _generate(course, ["--topic", topic, "-n", "5"], "off")
    assert r.returncode == 2
    assert f"--topic '{topic}': the course does not cover it" in r.stderr and "fix:" in r.stderr
    assert not path.exists()


def test_short_topic_says_why_it_wrote_fewer(course):
    r, path = _generate(course, ["--topic", "CUDA_ERROR_OUT_OF_MEMORY", "-n", "5"], "cuda")
    assert r.returncode == 0, r.stderr
    qs = json.loads(r.stdout)["questions"]
    assert 1 <= len(qs) < 5
    assert all("CUDA_ERROR_OUT_OF_MEMORY" in q["prompt"] + q["answer"] for q in qs)
    assert f"note: wrote {len(qs)} of 5: --topic 'CUDA_ERROR_OUT_OF_MEMORY' supports only" in " ".join(r.stderr.split())
    m = _eval(course, path)
    assert m["short_by"] == 5 - len(qs) and "off-topic" not in m["defects"]


def test_difficulty_filters_and_says_so(course):
    r, _ = _generate(course, ["--source", "corpora/03Datos.pdf", "-n", "12", "--difficulty", "hard"], "hard")
    assert r.returncode == 0, r.stderr
    qs = json.loads(r.stdout)["questions"]
    assert qs and all(q["difficulty"] == "hard" for q in qs)
    assert {q["origin"] for q in qs} <= {"compare", "scope", "steps", "harvested"}
    assert "--difficulty hard: the material supports" in " ".join(r.stderr.split())


# --------------------------------------------------------------------------- defect classes

def test_cut_off_line_is_seen_and_no_longer_written(course):
    # 05modelos.pdf p. 4: the old writer took the wrapped line "… esencial para su reutilización y"
    page = _page(course, "05modelos.pdf", 4)
    old = _q("¿Qué término corresponde a la descripción: “esencial para su reutilización y”?", "La capacidad",
             "mcq", choices=("La capacidad", "Los parámetros", "La arquitectura", "Los modelos"), correct=0)
    assert cut_off(old, page.text) == "cut-off"
    # 03Datos.pdf p. 5: "MNIST: Un conjunto de imágenes de dígitos escritos a mano, utilizado para"
    mnist = _page(course, "03Datos.pdf", 5)
    old = _q("¿Qué es MNIST?", "MNIST: Un conjunto de imágenes de dígitos escritos a mano, utilizado para")
    assert cut_off(old, mnist.text) == "cut-off"
    r, _ = _generate(course, ["--source", "corpora/05modelos.pdf", "-n", "30"], "m05")
    prompts = [q["prompt"] for q in json.loads(r.stdout)["questions"]]
    assert "¿Qué son los parámetros?" in prompts  # the article kept: never "¿Qué es parámetros?"
    for q in json.loads(r.stdout)["questions"]:
        assert not q["answer"].rstrip(" .”").endswith((" y", " el", " para", " los", " de")), q


def test_wrapped_bullet_comes_back_whole_and_the_right_way_round(course):
    # 03Datos.pdf p. 31: "… solo en el / conjunto de datos de entrenamiento y no en el conjunto / de datos de prueba …"
    r, _ = _generate(course, ["--topic", "data augmentation validación", "-n", "6", "--types", "short,tf"], "da")
    assert r.returncode == 0, r.stderr
    qs = [q for q in json.loads(r.stdout)["questions"] if q["citations"][0]["locator"].startswith("p. 31")]
    assert qs, "p. 31 (train-only augmentation) should be asked"
    for q in qs:
        text = q["prompt"] + " " + q["answer"]
        assert "solo en el conjunto de datos de entrenamiento y no en el conjunto de datos de prueba o validación" in text


def test_giveaway_stem_is_seen_and_no_longer_written(course):
    # 03Datos.pdf p. 30: "Rotación: rotar la imagen en un ángulo aleatorio" → Rotación
    page = _page(course, "03Datos.pdf", 30)
    mcq = _q("¿Qué término corresponde a la descripción: “rotar la imagen en un ángulo aleatorio”?", "Rotación", "mcq",
             choices=("Rotación", "Volteo horizontal", "Ruido aleatorio", "Recorte y redimensionamiento aleatorio"),
             correct=0)
    assert giveaway(mcq) == "giveaway"
    short = _q("¿Qué es Ruido aleatorio?", "Ruido aleatorio: agregar ruido aleatorio a la imagen.")
    assert giveaway(short) == "giveaway"
    cloze = _q("Completa el espacio en blanco: El _____ de PyTorch se crea con PyTorch.", "PyTorch", "cloze")
    assert giveaway(cloze) == "giveaway"
    from kb.generate import CourseTerms, GenerationRequest
    from kb.offline_writer import OfflineWriter

    ws = open_workspace(Settings(home=course / ".kb"))
    out = OfflineWriter().write([page], GenerationRequest(n=5), CourseTerms(list(ws.store.all_chunks()), ws.embedder))
    for d in out.drafts:  # every augmentation label restates its description: nothing to ask about them
        assert not any(x in d.question.answer for x in ("Rotación", "Volteo", "Ruido")), d.question.prompt


def test_implausible_distractors_are_seen_and_options_stay_in_the_deck(course):
    source_text = "\n".join(c.text for c in _chunks(course, "03Datos.pdf"))
    old = _q("¿Qué término corresponde a la descripción: “Permite mezclar los datos en cada época (epoch)”?",
             "Aleatorización", "mcq", choices=("Oversampling", "Aleatorización", "Rotación", "Dynamic"), correct=1)
    assert foreign_material(old, source_text) == "implausible-distractor"  # "Dynamic" is the TF deck's
    nonsense = _q("¿Verdadero o falso? Varios particionadores disponibles: los datos de entrada y las etiquetas",
                  "Falso.", "tf", correct=False)
    assert foreign_material(nonsense, source_text) == "implausible-distractor"
    r, path = _generate(course, ["--source", "corpora/03Datos.pdf", "-n", "20", "--types", "mcq,tf"], "mcq-03")
    assert r.returncode == 0, r.stderr
    deck_text = "\n".join(c.text for c in _chunks(course, "03Datos.pdf"))
    mcqs = [q for q in json.loads(r.stdout)["questions"] if q["type"] == "mcq"]
    assert len(mcqs) >= 2
    for q in mcqs:
        assert all(c in deck_text for c in q["choices"]), q["choices"]
    assert "implausible-distractor" not in _eval(course, path)["defects"]


def test_translation_giveaway_is_seen_and_left_to_typed_recall(course):
    # 05modelos.pdf p. 5: "Para guardar el estado del modelo, utilizamos el método torch.save() …"
    old = _q("Completa la frase: «Para guardar el estado del modelo, utilizamos el método _____ y pasamos la ruta.»",
             "torch.save()", "mcq", choices=("torch.save()", "torch.hub.load()", "named_modules()", "parameters()"),
             correct=0)
    assert giveaway(old) == "giveaway"  # "guardar" is "save": the only option that says it
    fair = _q(old.prompt, "torch.save()", "mcq", choices=("torch.save()", "torch.load()", "torch.hub.load()",
                                                           "parameters()"), correct=0)
    assert giveaway(fair) == "giveaway"  # still the only "save"; typed recall (cloze) is the honest form
    r, _ = _generate(course, ["--source", "corpora/05modelos.pdf", "-n", "12"], "m05-typed")
    qs = json.loads(r.stdout)["questions"]
    save = [q for q in qs if "Para guardar el estado del modelo" in q["prompt"]]
    assert save and all(q["type"] == "cloze" and q["answer"] == "torch.save()" for q in save)


def test_choices_naming_the_same_thing_are_seen():
    q = _q("Qual termo?", "Dependências de Controle", "mcq",
           choices=("Dependências de Controle", "dependência de controle", "Sessão", "Cluster"), correct=0)
    assert duplicate_choices(q) == "duplicate-choices"
    q = _q("Qual método?", "torch.save()", "mcq", choices=("torch.save()", "torch.load()", "torch.hub.load()", "to()"),
           correct=0)
    assert duplicate_choices(q) is None  # identifiers differ by their whole name


def test_true_false_support_logic(course):
    # 03Datos.pdf p. 29: the definition of data augmentation
    page = _page(course, "03Datos.pdf", 29)
    sentence = ("Data augmentation es una técnica comúnmente utilizada para aumentar la cantidad y variedad de datos "
                "de entrenamiento.")
    cit = (Citation("corpora/03Datos.pdf", "p. 29", page.id, sentence),)
    true_item = _q(f"¿Verdadero o falso? {sentence}", "Verdadero.", "tf", correct=True, citations=cit)
    assert unsupported(true_item, page.text) is None  # a bare "Verdadero." is supported by its statement
    false_but_in_passage = _q(f"¿Verdadero o falso? {sentence}", "Falso.", "tf", correct=False, citations=cit)
    assert unsupported(false_but_in_passage, page.text) == "unsupported"  # the passage says it is true
    made_false = _q("¿Verdadero o falso? Data augmentation es una técnica para reducir la variedad de datos de "
                    "entrenamiento.", "Falso.", "tf", correct=False, citations=cit)
    assert unsupported(made_false, page.text) is None
    assert defects(made_false, page.text) == []
