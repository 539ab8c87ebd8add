"""Writer v6: the classes of question raters 5C and 5D did not keep on 05modelos.pdf and
03Datos.pdf that the deck itself can show to be wrong or weak (eval/quiz_review_independent_v5.csv),
pinned on the real page that produced each:

- a slide sentence its own code example contradicts ("torch.save() con el parámetro
  map_location", p. 14, beside ``torch.load(…, map_location='cuda')``; "parameters() en lugar de
  state_dict()", p. 9, beside ``torch.save(model.state_dict(), …)``) → ``contradicts-code``;
- a model answer of empty qualifiers ("la extensión correcta … el formato correspondiente … una
  carga adecuada", p. 10) → ``vague-answer``;
- two labelled parts asked one by one as bare synonyms ("¿qué significa «arquitectura»?", p. 4)
  → the parts the slide announces, asked together;
- "¿Qué devuelve parameters()?" → "una lista de todos los parámetros": the name is the answer;
- a lone multiple choice replaced by an unrelated idea instead of its own sentence's cloze
  (DataParallel, 03Datos p. 15).
"""

from __future__ import annotations

import json
import re
import shutil

import pytest

from kb.config import Settings
from kb.quiz import Question
from kb.workspace import open_workspace
from kb.writing.checks import calls_passing, code_contradiction, defects, vague_answer
from kb.writing.generate import CourseTerms, GenerationRequest, choose_passages, dedupe, select
from kb.writing.offline import OfflineWriter

from ..conftest import CORPORA, course_with_decks, needs_corpora, run_kb, write_offline

pytestmark = [needs_corpora, pytest.mark.slow]

DECKS = ("03Datos.pdf", "05modelos.pdf", "001TFDist.pdf")


@pytest.fixture(scope="module")
def root(tmp_path_factory, decks_home, course_template):
    def add(corpora):
        for name in DECKS:
            shutil.copy(CORPORA / name, corpora / name)

    return course_with_decks(tmp_path_factory.mktemp("w6"), add, decks_home, course_template / ".kb")


@pytest.fixture(scope="module")
def ws(root):
    return open_workspace(Settings(home=root / ".kb"))


@pytest.fixture(scope="module")
def written(ws):
    """Per deck: every draft that passed the checks, what was rejected, and the -n 12 quiz."""
    out = write_offline(ws, {f"corpora/{deck}": 12 for deck in DECKS})
    return {deck: out[f"corpora/{deck}"] for deck in DECKS}


def _deck_text(ws, deck):
    return "\n".join(f"{c.locator.heading or ''}\n{c.text}" for c in ws.store.all_chunks()
                     if c.source.endswith(deck))


def _cloze(sentence, answer):
    return Question("cloze", f"Completa el espacio en blanco: {sentence}", answer, (), (answer,), lang="es")


def test_the_deck_code_shows_which_call_takes_map_location(ws):
    text = _deck_text(ws, "05modelos.pdf")
    assert calls_passing("map_location", text) == {"torch.load"}
    wrong = _cloze("Al guardar un modelo que se encuentra en la GPU, asegúrate de utilizar torch.save() con el "
                   "parámetro _____ para especificar que el modelo debe guardarse en la GPU.", "map_location")
    right = _cloze("Al cargar un modelo guardado que se encuentra en la GPU, utiliza torch.load() con el parámetro "
                   "_____ para cargar el modelo directamente en la GPU.", "map_location")
    assert code_contradiction(wrong, text) == "contradicts-code"
    assert code_contradiction(right, text) is None
    # without code that passes the parameter, nothing contradicts the sentence
    assert code_contradiction(wrong, "torch.save(model.state_dict(), 'm.pth')") is None


def test_instead_of_what_every_example_uses(ws):
    text = _deck_text(ws, "05modelos.pdf")
    q = Question("short", "En PyTorch, ¿cómo se pueden guardar solo los parámetros?",
                 "Utilizamos el método parameters() en lugar de state_dict().", (), ("parameters()",), lang="es")
    assert code_contradiction(q, text) == "contradicts-code"
    swapped = Question("short", q.prompt, "Utilizamos el método state_dict() en lugar de parameters().", (),
                       ("state_dict()",), lang="es")
    assert code_contradiction(swapped, text) is None


def test_contradicted_and_vague_sentences_are_not_asked(written):
    quiz = written["05modelos.pdf"]["quiz"]
    texts = [f"{q.prompt} {q.answer}" for q in quiz]
    assert not any("torch.save() con el parámetro" in t or "guardarse en la GPU" in t for t in texts)
    assert not any("parameters() en lugar de" in t for t in texts)
    assert not any("extensión correcta" in t for t in texts)
    reasons = " ".join(r.reason for r in written["05modelos.pdf"]["rejected"])
    assert "contradicts-code" in reasons and "vague-answer" in reasons
    # the right sentence of the same slide is asked instead
    (cloze,) = [q for q in quiz if q.type == "cloze" and q.correct_text == "map_location"]
    assert "torch.load()" in cloze.prompt


def test_vague_answer_is_a_defect_eval_quiz_sees():
    vague = Question("short", "En PyTorch, ¿qué hay que tener en cuenta al cargar un modelo?",
                     "Utilizar la extensión correcta y especificar el formato correspondiente para garantizar una "
                     "carga adecuada del modelo guardado.", (), ("formato",), lang="es")
    concrete = Question("short", "En PyTorch, ¿qué hay que tener en cuenta al cargar y guardar modelos en GPU?",
                        "Tener suficiente memoria GPU disponible para alojar el modelo y sus parámetros.", (),
                        ("memoria",), lang="es")
    assert vague_answer(vague) == "vague-answer"
    assert "vague-answer" in defects(vague, vague.answer)
    assert vague_answer(concrete) is None


def test_two_labelled_parts_are_asked_together(written):
    quiz = written["05modelos.pdf"]["quiz"]
    (parts,) = [q for q in quiz if q.origin == "parts"]
    assert parts.prompt == "¿Cuáles son los dos componentes principales de un modelo en PyTorch?"
    assert parts.concepts == ("arquitectura", "parámetros")
    assert "La arquitectura: estructura" in parts.answer and "Los parámetros: son los valores" in parts.answer
    # the weaker one-label questions of the same bullets are not in the quiz
    assert not any("«arquitectura»" in q.prompt or q.prompt.endswith("¿qué son los parámetros?") for q in quiz)


def test_a_name_that_says_what_it_returns_is_not_asked(written):
    prompts = [q.prompt for q in written["05modelos.pdf"]["drafts"]]
    assert not any("devuelve el método parameters()" in p for p in prompts)  # "una lista de todos los parámetros"
    assert any("devuelve el método state_dict()" in p for p in prompts)  # "un diccionario que mapea …": not named


def test_a_lone_multiple_choice_becomes_its_own_cloze(written):
    quiz = written["03Datos.pdf"]["quiz"]
    mcqs = [q for q in quiz if q.type == "mcq"]
    assert len(mcqs) != 1, [q.prompt for q in mcqs]  # one alone would put its answer at one position 100 %
    # (its sentence asked as a cloze, or as a multiple choice beside another: the deck's labelled lists offer more)
    assert [q for q in quiz if q.type in ("cloze", "mcq") and q.correct_text == "DataParallel"]


def test_eval_quiz_reports_a_contradicted_question(root):
    """``kb eval quiz`` on a hand-written quiz holding the old writer's map_location cloze."""
    r = run_kb(["quiz", "generate", "--offline", "--source", "corpora/05modelos.pdf", "-n", "3", "--types", "cloze",
                "-o", "quizzes/m.json", "--force", "--json"], cwd=root)
    assert r.returncode == 0, r.stderr
    quiz = json.loads((root / "quizzes" / "m.json").read_text())
    q = next(q for q in quiz["questions"] if q["answer"] == "map_location")
    q["prompt"] = q["prompt"].replace("Al cargar un modelo guardado", "Al guardar un modelo") \
        .replace("utiliza torch.load()", "utiliza torch.save()")
    (root / "quizzes" / "m.json").write_text(json.dumps(quiz, ensure_ascii=False))
    r = run_kb(["eval", "quiz", "quizzes/m.json", "--json"], cwd=root)
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    flagged = [p for p in report["per_question"] if p["id"] == q["id"]]
    assert flagged and "contradicts-code" in flagged[0]["defects"]


# --------------------------------------------------------------------------- after raters 6E/6F
# (eval/quiz_review_independent_v6a.csv): concepts that are a bare term, stems that quote a slide
# title, open "what to keep in mind" questions with a trivial answer, an answer one step short


def test_a_false_statement_names_what_the_term_really_means(written):
    quiz = written["03Datos.pdf"]["quiz"]
    (over,) = [q for q in quiz if q.type == "tf" and "Oversampling" in q.prompt]
    assert over.concepts == ("aumentar la cantidad de muestras en las clases minoritarias",)  # not "Oversampling"
    (scope,) = [q for q in quiz if q.type == "tf" and "data augmentation" in q.prompt]
    assert scope.concepts[0] == "conjunto de datos de entrenamiento"  # where it applies, not "validación"


def test_a_sentence_to_complete_is_situated_by_its_library(written):
    clozes = [q for d in ("03Datos.pdf", "05modelos.pdf") for q in written[d]["quiz"] if q.type == "cloze"]
    assert clozes
    for q in clozes:
        assert "(" not in q.prompt.split(":", 1)[0], q.prompt  # no "(Transformaciones en la Muestra)"
        # (or the sentence names it itself: "… coincida con la versión de PyTorch …")
        assert ": En PyTorch, " in q.prompt or "PyTorch" in q.prompt.split(":", 1)[1], q.prompt


def test_the_library_lead_does_not_hide_a_missing_subject():
    from kb.writing.check_subject import no_subject
    from kb.writing.checks import vocabulary

    vocab = vocabulary("Distribuye (shards) la copia al Layout solicitado. El Layout define cómo distribuir.")
    q = Question("cloze", "Completa el espacio en blanco: En TensorFlow, distribuye (shards) la copia al _____ "
                 "solicitado a través de sus dispositivos.", "Layout", (), ("Layout",), lang="es")
    assert no_subject(q, vocab) == "no-subject"


def test_open_caveats_with_a_trivial_answer_are_vague():
    memory = Question("short", "En PyTorch, ¿qué hay que tener en cuenta al cargar y guardar modelos en GPU?",
                      "Tener suficiente memoria GPU disponible para alojar el modelo y sus parámetros.", (),
                      ("memoria",), lang="es", origin="caveat")
    cloud = Question("short", "¿Qué hay que tener en cuenta al utilizar servicios en la nube para guardar modelos?",
                     "Aspectos como la seguridad, el costo y la escalabilidad de los servicios seleccionados.", (),
                     ("seguridad",), lang="es", origin="caveat")
    same = Question("short", "En PyTorch, ¿qué hay que tener en cuenta al cargar solo los parámetros?",
                    "Que la estructura del modelo sea la misma que al guardarlos para evitar errores de "
                    "incompatibilidad.", (), ("estructura",), lang="es", origin="caveat")
    assert vague_answer(memory) == vague_answer(cloud) == "vague-answer"
    assert vague_answer(same) is None


def test_caveats_are_situated_and_the_trivial_ones_left_out(written):
    quiz = written["05modelos.pdf"]["quiz"]
    caveats = [q for q in quiz if q.origin == "caveat"]
    assert [q.prompt for q in caveats] == ["En PyTorch, ¿qué hay que tener en cuenta al cargar solo los parámetros?"]


def test_an_answer_one_step_short_shows_the_course_code(written):
    (load,) = [q for q in written["05modelos.pdf"]["quiz"]
               if q.prompt == "En PyTorch, ¿cómo se puede cargar el estado del modelo?"]
    # said in words, the structure shown, the inner call's arguments (map_location: another
    # question's answer) left out
    assert load.answer.endswith("El resultado se pasa a load_state_dict(): model.load_state_dict(torch.load(…)).")
    assert "map_location" not in load.answer
    assert load.concepts[:2] == ("load_state_dict()", "torch.load()")
    (save,) = [q for q in written["05modelos.pdf"]["quiz"]
               if q.prompt == "En PyTorch, ¿cómo se puede guardar el estado del modelo?"]
    assert "El resultado" not in save.answer  # torch.save() is the outer call in the deck's code: nothing missing


def test_a_definition_names_what_its_subject_is_for(written):
    # (a draft: the quiz may ask the same sentence as its cloze, for the type mix)
    (tr,) = [q for q in written["03Datos.pdf"]["drafts"] if q.prompt == "En PyTorch, ¿qué son las transformaciones?"]
    # not "operaciones" alone: what they are for, as the answer's own phrase
    assert any("modificarlos o prepararlos" in c for c in tr.concepts), tr.concepts


# --------------------------------------------------------------------------- after raters 6G/6H
# (eval/quiz_review_independent_v6.csv)


def test_a_tool_a_step_merely_uses_is_no_required_concept(written):
    (steps,) = [q for q in written["05modelos.pdf"]["quiz"] if q.origin == "steps"]
    assert "torch.hub" in steps.answer  # "1. Utiliza torch.hub para cargar un modelo pre-entrenado …"
    assert "torch.hub" not in steps.concepts  # torchvision.models would do as well
    assert {"congelar", "reemplazar"} <= set(steps.concepts)


def test_a_slide_wording_gives_way_to_the_code_name_it_holds(written):
    prompts = [q.prompt for q in written["03Datos.pdf"]["quiz"]]
    # p. 9 «Configuraciones comunes del DataLoader»: students know the DataLoader, not the title
    assert any(p.startswith("¿Verdadero o falso? En el DataLoader de PyTorch, aleatorización") for p in prompts)
    assert not any("configuraciones comunes" in p for p in prompts)
    # a title's wording the course's text never says is no subject (v7): the statement stands alone (p. 34)
    assert not any("En métodos de manejo de datos desbalanceados" in p for p in prompts)
    assert any(re.match(r"¿Verdadero o falso\? (Over|Under)sampling consiste en", p) for p in prompts)


def test_two_sides_of_a_title_vs_are_compared_not_asked_alone(written):
    quiz = written["001TFDist.pdf"]["quiz"]
    (cmp,) = [q for q in quiz if q.prompt == "En TensorFlow distribuido, ¿qué diferencia hay entre el promediado "
              "síncrono y el promediado asíncrono de los pesos?"]
    assert "La sincronización supone un cuello de botella." in cmp.answer
    assert "Convergencia más lenta del modelo." in cmp.answer
    # each side with its consequence, as the answer's phrases
    assert any("cuello de botella" in c for c in cmp.concepts) and any("Convergencia" in c for c in cmp.concepts)
    assert not [q for q in quiz if q.prompt.startswith("¿En qué consiste el promediado")]


# --------------------------------------------------------------------------- the LLM writer's 03Datos quiz
# (Qwen2.5-Coder-1.5B through bench/llm_writer.py): what its validation let through


def _page_text(ws, deck, page):
    return "\n".join(c.text for c in ws.store.all_chunks() if c.source.endswith(deck) and c.locator.page == page)


def test_a_choice_among_list_members_has_several_right_answers(ws):
    p9 = _page_text(ws, "03Datos.pdf", 9)
    q = Question("mcq", "¿Cuál es una configuración común del DataLoader?", "Tamaño del lote (batch size)", (),
                 ("batch size",), lang="es", correct=1,
                 choices=("Multiprocesamiento", "Tamaño del lote (batch size)", "Aleatorización",
                          "Uso de pesos de clase"))
    assert "several-right" in defects(q, p9)
    # the offline writer's kind: a description singles one label out
    single = Question("mcq", "En «Configuraciones comunes del DataLoader», ¿qué término corresponde a esta "
                      "descripción: «Permite mezclar los datos en cada época (epoch) para evitar el sesgo del orden "
                      "de los datos»?", "Aleatorización", (), ("Aleatorización",), lang="es", correct=0,
                      choices=("Aleatorización", "Multiprocesamiento", "Tamaño del lote (batch size)",
                               "Último lote incompleto"))
    assert "several-right" not in defects(single, p9)


def test_a_list_asked_for_and_one_item_answered(ws):
    p38 = _page_text(ws, "03Datos.pdf", 38)
    one = Question("short", "¿Cuáles son los beneficios de usar Distributed Data Parallelism en PyTorch?",
                   "Mayor velocidad de entrenamiento al aprovechar el poder de procesamiento de múltiples "
                   "dispositivos.", (), ("velocidad",), lang="es")
    assert "partial-answer" in defects(one, p38)
    listed = Question("short", one.prompt, "Mayor velocidad de entrenamiento, modelos más grandes que no cabrían en "
                      "una GPU y mejor escalabilidad.", (), ("velocidad",), lang="es")
    assert "partial-answer" not in defects(listed, p38)


def test_a_book_exercise_names_its_code_and_never_just_the_library(ws):
    """The sample course's book chapter (sources/001_*): raters 5C-6J found "configuração; placas;
    sessão" for the CUDA_ERROR_OUT_OF_MEMORY exercise, "TensorFlow" as a whole concept list."""
    chunks = list(ws.store.all_chunks())
    course = CourseTerms(chunks, ws.embedder)
    req = GenerationRequest(n=8, sources=("sources/001_96d83118e2ee854a.txt",))
    w = OfflineWriter().write(choose_passages(ws, req, chunks), req, course)
    harvested = [d.question for d in w.drafts if d.question.origin == "harvested"]
    (cuda,) = [q for q in harvested if "CUDA_ERROR_OUT_OF_MEMORY" in q.prompt]
    assert {"CUDA_VISIBLE_DEVICES", "gpu_options.per_process_gpu_memory_fraction"} <= set(cuda.concepts)
    assert not any(c.endswith(".py") for c in cuda.concepts)  # "programa_2.py" is an example's file
    for q in w.drafts:
        if q.question.type == "short" and len(q.question.concepts) > 1:
            assert "TensorFlow" not in q.question.concepts, q.question


def test_a_swap_uses_up_the_sentence_it_borrows_in_every_copy_of_the_deck(ws):
    """The whole course holds "TensorFlow distribuido" twice (001TFDist.pdf and its text export
    sources/004_*): the true/false that gives "Método fit" evaluate's description, from one copy,
    and "¿qué significa «Método evaluate»?", from the other, were one exam's pair (6E-6L)."""
    chunks = list(ws.store.all_chunks())
    course = CourseTerms(chunks, ws.embedder)
    req = GenerationRequest(n=20)
    w = OfflineWriter().write(choose_passages(ws, req, chunks), req, course)
    kept, _ = dedupe(w.drafts, ws.embedder)
    quiz = [d.question for d in select(kept, req, w.drafts)[0]]
    swap = [q for q in quiz if q.type == "tf" and "«Método fit»" in q.prompt]
    evaluate = [q for q in quiz if "Método evaluate" in q.prompt]
    assert swap or evaluate
    assert not (swap and evaluate)


# --------------------------------------------------------------------------- held-out split A
# (eval/heldout_decks/amp_es.txt, checkpoint_pt.txt; rated 1/24 by 6M/6N): "X: …" bullets whose text
# is a fact about X in the slide, not what X means, were asked "¿Qué significa «X»?"


def test_only_a_description_that_says_what_a_term_is_defines_it():
    from kb.writing.terms import definitional

    for fact in ("normalmente el mismo tamaño que los parámetros",  # Gradientes
                 "las acumulaciones largas (sumas, normas, softmax) deben hacerse en FP32",  # Menor precisión
                 "mse_loss, l1_loss, nll_loss, cross_entropy, kl_div, entre otras",  # Funciones de pérdida
                 "o job reinicia automaticamente e se adapta quando o número de workers muda"):  # Treinamento elástico
        assert not definitional(fact), fact
    for definition in ("Un conjunto de imágenes de dígitos escritos a mano",  # MNIST (03Datos p. 5)
                       "reducir la cantidad de muestras en las clases dominantes",  # Undersampling (p. 34)
                       "Permite mezclar los datos en cada época (epoch)",  # Aleatorización (p. 9)
                       "para entrenar el modelo",  # Método fit (001TFDist p. 18)
                       "define la lista de dispositivos disponibles"):  # Mesh (p. 100)
        assert definitional(definition), definition


def test_labels_that_are_no_terms(ws):
    from kb.writing.terms import action_label
    from kb.writing.wording import GENERIC_LABEL

    course = CourseTerms(list(ws.store.all_chunks()), ws.embedder)
    for role in ("Regla práctica", "Limitación", "Paso 4", "Passo 3", "Consecuencia", "Alternativas"):
        assert GENERIC_LABEL.match(role), role
    assert action_label("Medir tiempos sin torch.cuda.synchronize()")
    assert action_label("Requiere hardware más reciente")
    assert not action_label("Aleatorización") and not action_label("Tamaño del lote (batch size)")
    for cond in ("Si aparecen inf/NaN", "Ao carregar", "Ex."):
        assert not OfflineWriter._term_label(cond, course), cond
    for term in ("Tamaño del lote (batch size)", "Oversampling", "Último lote incompleto", "Mesh"):
        assert OfflineWriter._term_label(term, course), term


def test_the_library_is_not_a_class_that_contains_an_alias():
    """Split C (eval/heldout_decks/mpi_pt.txt): ``import torch.distributed as dist`` made
    "DistributedSampler" the deck's library, and 10 of its 12 stems opened "Em DistributedSampler, …"."""
    from kb.writing.wording import framework

    texts = ["import torch.distributed as dist", "dist.all_reduce(t)", "dist.broadcast(t, src=0)",
             "dist.barrier()", "dist.all_gather(out, t)", "dist.reduce_scatter(out, ts)",
             "Use DistributedSampler en el DataLoader", "PyTorch: torch.distributed", "torch.cuda.set_device(rank)"]
    assert framework(texts) == "PyTorch"
