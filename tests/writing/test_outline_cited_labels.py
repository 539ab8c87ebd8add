"""A slide's labelled list whose labels cite their source ("PANet (Liu et al., 2018): …", a common way decks name a
method) is a list of terms: the year is no label's number, and the name without its citation is the term
(kb/writing/ideas.py). A slide read from overlapping passages holds each bullet once (kb.text.join_windows: the
chunker repeats a window's last whole lines in the next). Round 26's fpn_pt, p. 14: its list read as "YOLOv3; YOLOv3"
and asked nothing; without its mistakes slide the deck wrote 7 of 12."""

from __future__ import annotations

import pytest

from kb.records import Chunk, Locator
from kb.text import join_windows
from kb.writing.ideas import read_slide

from ..conftest import deck_quizzes, heldout_decks


def test_overlapping_windows_keep_each_line_once():
    a = "• PANet: acrescenta um caminho bottom-up\n• NAS-FPN: topologia por busca\n• YOLOv3: funde por concatenação"
    b = "• NAS-FPN: topologia por busca\n• YOLOv3: funde por concatenação\n• ViTDet: pirâmide simples"
    assert join_windows([a, b]).split("\n") == [
        "• PANet: acrescenta um caminho bottom-up", "• NAS-FPN: topologia por busca",
        "• YOLOv3: funde por concatenação", "• ViTDet: pirâmide simples"]
    assert join_windows(["• x: um", "• y: dois"]) == "• x: um\n• y: dois"  # (no overlap: both whole)


def test_a_label_that_cites_its_source_is_the_name_without_the_citation():
    text = ("Variações da FPN\n• PANet (Liu et al., 2018): acrescenta um caminho bottom-up extra após o top-down\n"
            "• NAS-FPN (Ghiasi et al., 2019): topologia de fusão encontrada por busca de arquitetura\n"
            "• BiFPN (EfficientDet, Tan et al., 2020): caminhos bidirecionais repetidos e fusão ponderada\n"
            "• Modelo 1024: um número no rótulo não é um termo da aula")
    chunk = Chunk("decks/fpn_pt.pdf", "pdf", text, Locator(page=14, heading="Variações da FPN"), "pt", 14, "h", 3)
    labels = [it.label for it in read_slide(chunk).items if it.label]
    assert labels[:3] == ["PANet", "NAS-FPN", "BiFPN"], labels
    assert "Modelo 1024" not in labels  # (a number in a label still makes it no term)


@pytest.fixture(scope="module")
def fpn(tmp_path_factory, model_cache):
    return deck_quizzes(tmp_path_factory.mktemp("fpn"), heldout_decks(("fpn_pt",)), ("fpn_pt",), model_cache)["fpn_pt"]


@pytest.mark.slow
def test_the_variants_slide_is_asked_by_its_names(fpn):
    asked = [q for q in fpn if q.type == "mcq" and "PANet" in q.choices]
    assert asked, [q.prompt for q in fpn]
    assert all("et al." not in c for q in asked for c in q.choices)
