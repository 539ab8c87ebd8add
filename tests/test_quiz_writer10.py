"""Writer v11: what the raters of held-out splits U and V (eval/quiz_review_heldout_decks_{u,v}.csv,
rated before any fix on them) did not keep, pinned on the real pages of those decks (rendered from
eval/heldout_decks/*.txt, as eval/deck_pdf.py renders them):

- a section's two-word title as the stem's setting: "En Hiperparámetros clave, ¿…?" (3 of sparse_es's
  4 questions; both raters: "a slide title the student does not see"), said only by the titles
  "Hiperparámetros clave (I): …" and "(II): …"; and "(II)" read as an acronym ("En II, …");
- a cloze on a pasted command's column name ("… oferece kubectl get nodes -o
  custom-columns='_____:.metadata.name…'", kubernetes_pt): the reader joined the command to the bullet.
"""

from __future__ import annotations

import pytest

from kb.writing.offline import title_topic

from .conftest import write_heldout_decks


def test_a_section_said_only_by_its_titles_is_no_topic():
    body = {"hiperparámetros clave": 1, "ray tune": 1}  # lines of the slides' text that say it
    heads = {"hiperparámetros clave": 2, "ray tune": 2}  # slide titles that say it

    def said(phrase: str, titles: bool = True) -> int:
        return body.get(phrase.lower(), 0) + (heads.get(phrase.lower(), 0) if titles else 0)

    assert title_topic("Hiperparámetros clave (I): estructura del árbol", said) == ""
    assert title_topic("Hiperparámetros clave (II): aleatoriedad y regularización", said) == ""  # not "II"
    assert title_topic("Ray Tune: conceitos", said) == "Ray Tune"  # a name: its titles count


@pytest.mark.slow
def test_held_out_pages_of_split_u_and_v(tmp_path_factory, course_template):
    written = write_heldout_decks(tmp_path_factory.mktemp("w10"), ("sparse_es", "kubernetes_pt"),
                                  course_template / ".kb")
    quiz = {deck: [q.prompt for q in written[f"corpora/{deck}.pdf"]["quiz"]] for deck in ("sparse_es", "kubernetes_pt")}
    drafts = [q.prompt for deck in ("sparse_es", "kubernetes_pt") for q in written[f"corpora/{deck}.pdf"]["drafts"]]
    assert quiz["sparse_es"], "the deck still gets questions"
    assert not any("Hiperparámetros clave" in p or "En II," in p for p in drafts), drafts
    assert not any("kubectl" in p or "torchrun" in p for p in drafts), drafts
