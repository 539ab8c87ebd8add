"""Writer v11: what the raters of held-out splits U and V (eval/quiz_review_heldout_decks_{u,v}.csv,
rated before any fix on them) did not keep, pinned on the real pages of those decks (rendered from
eval/heldout_decks/*.txt, as eval/deck_pdf.py renders them):

- a section's two-word title as the stem's setting: "En Hiperparámetros clave, ¿…?" (3 of sparse_es's
  4 questions; both raters: "a slide title the student does not see"), said only by the titles
  "Hiperparámetros clave (I): …" and "(II): …"; and "(II)" read as an acronym ("En II, …");
- a cloze on a pasted command's column name ("… oferece kubectl get nodes -o
  custom-columns='_____:.metadata.name…'", kubernetes_pt): the reader joined the command to the bullet;
- a cloze on a word the bracket beside it glosses ("En SSD, default _____ (anchors) …", detection_es);
- a use given as a definition: "¿Qué es NMS?" → "decidir si dos cajas son duplicados", a sub-bullet of
  "• Usos" of IoU (detection_es); likewise "HNSW: envolver em IndexIDMap para ter ids" (faiss_pt, P–T);
- a label's one word asked bare ("O que é Zero-shot?", contrastive_pt): the deck's subject situates it;
- a description that spells the code name it asks for ("«fracción de columnas por árbol»" →
  colsample_bytree, sparse_es);
- few questions on a new deck (3–6 of 12 asked): slides define with "=" about three times a deck (135
  such bullets in the 46 held-out decks) and nothing read them: "Scheduler = schedule de ruído + regra
  de atualização" (diffusion_pt), "batch efectivo = tamaño de micro-batch x pasos de acumulación x
  número de GPUs" (amp_es), "AP = área bajo la curva P-R" (detection_es), each now a question; a
  legend ("Cor = tipo de tarefa; vermelho = …"), a setting ("cudnn.benchmark = True si …"), an
  effect ("Batch grande = mais negativos") or an action ("Cuantizar = …") is none;
- role bullets on a slide about one technique ("Coste: …", "Idea: …", "Problema: …", "Ventaja: …",
  "Limitación: …"; about 170 in the 46 held-out decks) were never asked: "¿Qué coste tiene QAT?",
  "¿Qué problema resuelve CUDA graphs?"; a problem beside no remedy is the subject's own problem, not
  one it solves ("Problema: Q implícita = frequência do item nos logs", recsys_pt), and a title's role
  word is no subject ("Acumulação de gradientes: a ideia" → "Que problema a ideia resolve?", memory_pt,
  split Z, rated before this fix); and "qual é a diferença entre Estruturada e Estruturada?" from the
  title "Não estruturada vs estruturada" (pruning_pt, split AA, rated before this fix).
"""

from __future__ import annotations

import json
import re

import pytest

from kb.records import Chunk, Locator
from kb.writing.concepts import gist_of
from kb.writing.ideas import read_slide
from kb.writing.offline import OfflineWriter
from kb.writing.terms import framework_code, imported_modules, title_topic
from kb.writing.wording import deck_topic, infinitive, spelled_in

from ..conftest import write_heldout_decks


def test_a_section_said_only_by_its_titles_is_no_topic():
    body = {"hiperparámetros clave": 1, "ray tune": 1}  # lines of the slides' text that say it
    heads = {"hiperparámetros clave": 2, "ray tune": 2}  # slide titles that say it

    def said(phrase: str, titles: bool = True) -> int:
        return body.get(phrase.lower(), 0) + (heads.get(phrase.lower(), 0) if titles else 0)

    assert title_topic("Hiperparámetros clave (I): estructura del árbol", said) == ""
    assert title_topic("Hiperparámetros clave (II): aleatoriedad y regularización", said) == ""  # not "II"
    assert title_topic("Ray Tune: conceitos", said) == "Ray Tune"  # a name: its titles count


def test_a_description_that_opens_a_part_of_the_name_spells_it():
    assert spelled_in("colsample_bytree", "fracción de columnas por árbol", ["subsample", "reg_lambda", "reg_alpha"])
    assert spelled_in("max_bin", "número máximo de bins por feature", ["max_depth", "num_leaves"])
    # a word that opens another option's name too tells nothing apart ("máxima": max_depth, max_bin)
    assert not spelled_in("max_depth", "profundidad máxima de cada árbol", ["max_bin", "num_leaves", "min_child"])
    # what only a reader of both languages sees is not caught: "histograma" for max_bin
    assert not spelled_in("max_bin", "resolución del histograma", ["max_depth", "num_leaves", "min_child_weight"])


DECKS = ("sparse_es", "kubernetes_pt", "detection_es", "contrastive_pt", "faiss_pt", "diffusion_pt", "amp_es",
         "quant_es", "dask_pt", "deploy_es", "compile_es", "recsys_pt", "memory_pt", "pruning_pt")


def test_a_comparison_title_with_a_comment_still_names_its_sides():
    # split W (regular_pt): "L2 vs weight decay: não são a mesma coisa" over "L2: …" and "Weight decay: …"
    text = ("• L2: soma (lambda/2) * ||w||^2 na loss -> grad += lambda * w\n"
            "• Weight decay: w <- w - lr * lambda * w, fora do gradiente\n"
            "• SGD: praticamente equivalentes (PyTorch SGD implementa como L2)")
    slide = read_slide(Chunk("r.pdf", "pdf", text, Locator(page=4, heading="L2 vs weight decay: não são a mesma coisa"),
                             "pt", 0, "h", 1))
    assert OfflineWriter._vs_title(slide) == ("L2", "weight decay")
    assert [it.label for it in OfflineWriter._vs_rows(slide)] == ["L2", "Weight decay"]


def test_a_brackets_colon_does_not_end_a_gist():
    # split Z (memory_pt): "Problema: batch desejado (ex.: 512) não cabe na GPU" gave the concept "batch"
    assert gist_of("batch desejado (ex.: 512) não cabe na GPU", 14) == "batch desejado não cabe na GPU"
    assert gist_of("ds.map(f).batch(B) aplica la función a cada elemento", 14).startswith("ds.map(f).batch(B)")


def test_a_title_that_opens_on_an_infinitive_is_no_setting():
    assert infinitive("Exportar") and infinitive("Servir")
    assert not infinitive("Transformer") and not infinitive("Cluster") and not infinitive("Poder")
    assert deck_topic("Exportar modelos a ONNX e inferencia con ONNX Runtime") == ""
    assert deck_topic("Exportación e inferencia de modelos en PyTorch: TorchScript, ONNX y cuantización") \
        == "exportación e inferencia de modelos"


@pytest.mark.slow
def test_held_out_pages_of_splits_p_to_z(tmp_path_factory, course_template):
    written = write_heldout_decks(tmp_path_factory.mktemp("w10"), DECKS, course_template / ".kb")
    drafts = {deck: [q.prompt for q in written[f"corpora/{deck}.pdf"]["drafts"]] for deck in DECKS}
    every = [p for ps in drafts.values() for p in ps]
    assert written["corpora/sparse_es.pdf"]["quiz"], "the deck still gets questions"
    assert not any("Hiperparámetros clave" in p or "En II," in p for p in every), drafts["sparse_es"]
    assert not any("kubectl" in p or "torchrun" in p for p in every), drafts["kubernetes_pt"]
    assert not any("_____ (anchors)" in p for p in every), drafts["detection_es"]
    assert not any(p.endswith(("qué es NMS?", "o que é HNSW?")) for p in every)
    assert not any("fracción de columnas por árbol" in p for p in every)
    assert "Em modelos multimodais, o que é Zero-shot?" in drafts["contrastive_pt"]
    assert "O que é Zero-shot?" not in every
    # "=" definitions: made of, computed as, is
    equations = {q.prompt: q for deck in DECKS for q in written[f"corpora/{deck}.pdf"]["drafts"]
                 if q.origin == "equation"}
    made = equations["Em modelos de difusão, de que partes se compõe o scheduler?"]
    assert made.concepts == ("schedule de ruído", "regra de atualização", "não tem parâmetros treináveis")
    calc = equations["En entrenamiento con precisión mixta, ¿cómo se calcula el batch efectivo?"]
    assert calc.concepts == ("tamaño de micro-batch", "pasos de acumulación", "número de GPUs")
    assert "En detección de objetos, ¿qué es AP?" in equations  # (the title's "con deep learning" narrows nothing)
    assert not any(re.search(r"(?i)\b(?:cor|cuantizar|benchmark|batch grande)\b", p) for p in equations), equations
    # a formula on a slide about one thing is asked in that thing, not in the deck's subject
    assert "En batching, ¿de qué partes se compone la latencia?" in equations
    # role bullets: what the slide's one technique costs, is about, solves
    roles = {q.prompt: q for deck in DECKS for q in written[f"corpora/{deck}.pdf"]["drafts"] if q.origin == "role"}
    # (asked in the deck's field, as "what is" is: raters asked what "QAT", "TTA", "FCN" are about)
    assert roles["En exportación e inferencia de modelos, ¿qué coste tiene QAT?"].answer.startswith(
        "Coste: entrenamiento más lento por la fake quantization")
    assert "En cuantización de modelos de deep learning, ¿cuál es la idea de QAT?" in roles
    cuda = roles["En torch.compile y rendimiento, ¿qué problema resuelve CUDA graphs?"]
    assert cuda.concepts[0].startswith("en modelos pequeños la CPU no lanza")
    assert not any("negativos" in p for p in roles), roles  # recsys_pt: a problem beside no remedy
    assert not any("a ideia" in p or "la idea resuelve" in p for p in roles), roles
    # split AA (pruning_pt, rated before the fix): a "Não estruturada vs estruturada" title is no comparison
    # of "estruturada" with itself
    assert not any(re.search(r"(?i)entre (\w+) e \1\?", p) for p in every), drafts["pruning_pt"]


@pytest.mark.slow
def test_the_same_course_writes_the_same_quiz_in_every_process(tmp_path, course_template):
    """Two processes with different string-hash seeds wrote different clozes on hftrainer_es (split AA):
    the blank was the first of equally scored words in a set's order ("hub_strategy" or "every_save").
    Ties now go to the sentence's first word, and nothing the writer or the retriever chooses may
    depend on a set's order: the quiz of the sample course and three held-out decks, its order and
    its accepted answers are the same under two seeds."""
    from ..conftest import course_with_decks, heldout_decks, run_kb_process

    decks = ["hftrainer_es", "sparse_es", "pruning_pt"]
    root = course_with_decks(tmp_path / "ws", heldout_decks(decks), course_template / ".kb")
    quizzes = []
    for seed in ("0", "1"):  # seeds 0 and 1 chose different blanks on hftrainer_es before
        out = tmp_path / f"q{seed}.json"
        r = run_kb_process(["quiz", "generate", "--offline", "-n", "20", "-o", str(out)], cwd=root,
                           env={"PYTHONHASHSEED": seed})
        assert r.returncode == 0, r.stderr
        quizzes.append([(q["prompt"], q["answer"], q.get("accepted"), q.get("choices"), q.get("concepts"))
                        for q in json.loads(out.read_text(encoding="utf-8"))["questions"]])
    assert len(quizzes[0]) == 20 and quizzes[0] == quizzes[1]


def test_the_courses_whole_field_is_no_subject():
    # split AD (edge_pt): "Redes Neurais em Dispositivos de Borda (Edge)" is cut before "em Dispositivos"
    # as a title's setting is, which left the whole field: "Em redes neurais, qual é a vantagem de ExecuTorch?"
    assert deck_topic("Redes Neurais em Dispositivos de Borda (Edge)") == ""
    assert deck_topic("Redes neuronales con PyTorch") == ""
    assert deck_topic("Programación de GPUs para Deep Learning") == "programación de GPUs"
    assert deck_topic("Formatos e Carregamento de Dados em Escala para Deep Learning") == \
        "formatos e carregamento de dados"


def test_imported_modules():
    code = ("    import random, webdataset as wds\n    import pyarrow as pa, pyarrow.parquet as pq\n"
            "    from datasets.distributed import split_dataset_by_node\n")
    assert imported_modules(code) == {"random", "webdataset", "wds", "pyarrow", "pa", "pq", "datasets"}


@pytest.mark.slow
def test_split_ab_pages(tmp_path_factory, course_template):
    """Split AB (triton_es, dataformats_pt; eval/quiz_review_heldout_decks_ab.csv, rated before these
    fixes): "¿Cuál es la idea de el fusión?" (an "-ión" noun is feminine), "Em formatos e Carregamento de
    dados, …" (a capital only the deck's title writes is no name's), "Em TensorFlow, qual é a diferença
    entre WebDataset (tar) e Parquet?" (a side the code imports as a library of its own is no
    TensorFlow code)."""
    decks = ("triton_es", "dataformats_pt")
    written = write_heldout_decks(tmp_path_factory.mktemp("ab"), decks, course_template / ".kb")
    every = [q.prompt for d in decks for q in written[f"corpora/{d}.pdf"]["drafts"]]
    # (set in the name the deck teaches, its title's "Triton": kb.writing.subject.name_of)
    assert "En Triton, ¿cuál es la idea de la fusión?" in every, every
    assert not any(re.search(r"\bde el\b", p) for p in every), every
    assert not any("Carregamento" in p for p in every), every
    assert any(p.endswith("qual é o custo de S3?") for p in every), every
    assert not any(p.startswith("Em TensorFlow,") for p in every), every
    # the reader keeps "• X: a | b" a bullet now (chunking v7); a body in cells is a table's row, no
    # description of its label ("¿qué término corresponde a «NVIDIA (HIP para AMD) | NVIDIA + AMD | …»?")
    assert not any(" | " in p for p in every), every
    # ... while it stays a row of the comparison it is in, which no longer runs on into the next bullet
    differ = [q for q in written["corpora/dataformats_pt.pdf"]["drafts"] if "WebDataset (tar) e Parquet" in q.prompt]
    assert differ and "TFRecord" not in differ[0].answer and differ[0].answer.endswith("blobs grandes sem vantagem.")


def test_a_library_of_its_own_is_no_frameworks_code():
    source = ("import webdataset as wds\nds = wds.WebDataset(urls)\n"
              "import torch\nloader = torch.utils.data.DataLoader(ds)")
    assert not framework_code("Qual é a diferença entre WebDataset (tar) e Parquet?", source)
    assert framework_code("Qual é a diferença entre DataLoader e Dataset?", source)


def test_split_ae_and_af_pages(tmp_path_factory, course_template):
    """Splits AE and AF (normalization_pt: eval/quiz_review_heldout_decks_ae.csv, both raters FIX;
    sampler_pt, rated before this fix): two labels that are a verdict ("Vale a pena" / "Não vale") or a
    pitfall beside a clause ("set_epoch continua funcionando" / "Armadilha") are no terms to compare."""
    decks = ("normalization_pt", "sampler_pt")
    written = write_heldout_decks(tmp_path_factory.mktemp("ae"), decks, course_template / ".kb")
    every = [q.prompt for d in decks for q in written[f"corpora/{d}.pdf"]["drafts"]]
    assert not any(re.search(r"Vale a pena|Não vale|Armadilha|continua funcionando", p) for p in every), every
    assert any("reduz em (N, H, W)" in p for p in every), every  # the deck's other question stays


def test_an_intensifier_ends_no_phrase():
    # split AG (lrfinder_es): "LR alta a mitad = regularización (ruido) + exploración; cola muy" — the PDF
    # wrapped the line before "baja = afinado final" — was a model answer; both raters: "cut off"
    from kb.quiz import Question
    from kb.writing.checks import cut_off
    from kb.writing.ideas import dangling

    assert dangling("regularización (ruido) + exploración; cola muy") and dangling("uma rede muito, muito tão")
    q = Question("short", "En One-cycle, ¿qué aporta una LR alta a mitad?",
                 "LR alta a mitad = regularización (ruido) + exploración; cola muy.", (), ("regularización",))
    assert cut_off(q) == "cut-off"
    assert not dangling("el batch grande ayuda muy poco")
