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
  colsample_bytree, sparse_es).
"""

from __future__ import annotations

import pytest

from kb.writing.offline import _spelled_in, title_topic

from .conftest import write_heldout_decks


def test_a_section_said_only_by_its_titles_is_no_topic():
    body = {"hiperparámetros clave": 1, "ray tune": 1}  # lines of the slides' text that say it
    heads = {"hiperparámetros clave": 2, "ray tune": 2}  # slide titles that say it

    def said(phrase: str, titles: bool = True) -> int:
        return body.get(phrase.lower(), 0) + (heads.get(phrase.lower(), 0) if titles else 0)

    assert title_topic("Hiperparámetros clave (I): estructura del árbol", said) == ""
    assert title_topic("Hiperparámetros clave (II): aleatoriedad y regularización", said) == ""  # not "II"
    assert title_topic("Ray Tune: conceitos", said) == "Ray Tune"  # a name: its titles count


def test_a_description_that_opens_a_part_of_the_name_spells_it():
    assert _spelled_in("colsample_bytree", "fracción de columnas por árbol", ["subsample", "reg_lambda", "reg_alpha"])
    assert _spelled_in("max_bin", "número máximo de bins por feature", ["max_depth", "num_leaves"])
    # a word that opens another option's name too tells nothing apart ("máxima": max_depth, max_bin)
    assert not _spelled_in("max_depth", "profundidad máxima de cada árbol", ["max_bin", "num_leaves", "min_child"])
    # what only a reader of both languages sees is not caught: "histograma" for max_bin
    assert not _spelled_in("max_bin", "resolución del histograma", ["max_depth", "num_leaves", "min_child_weight"])


DECKS = ("sparse_es", "kubernetes_pt", "detection_es", "contrastive_pt", "faiss_pt")


@pytest.mark.slow
def test_held_out_pages_of_split_u_and_v(tmp_path_factory, course_template):
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
