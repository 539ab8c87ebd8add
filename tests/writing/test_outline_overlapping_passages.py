"""A slide read from overlapping passages holds each bullet once (kb.text.join_windows: the chunker repeats a window's
last whole lines in the next): round 26's fpn_pt, p. 14, read its list as "YOLOv3; YOLOv3". A label that cites a paper
or a version's year ("SDXL (2023): …", "ResMLP (Touvron et al., 2021): …") stays no term (kb/writing/ideas.py): read
as terms, such history slides were asked "which term matches …" and round 28's raters dropped all nine (27 of 27
ratings, trivia)."""

from __future__ import annotations

from kb.records import Chunk, Locator
from kb.text import join_windows
from kb.writing.ideas import read_slide


def test_overlapping_windows_keep_each_line_once():
    a = "• PANet: acrescenta um caminho bottom-up\n• NAS-FPN: topologia por busca\n• YOLOv3: funde por concatenação"
    b = "• NAS-FPN: topologia por busca\n• YOLOv3: funde por concatenação\n• ViTDet: pirâmide simples"
    assert join_windows([a, b]).split("\n") == [
        "• PANet: acrescenta um caminho bottom-up", "• NAS-FPN: topologia por busca",
        "• YOLOv3: funde por concatenação", "• ViTDet: pirâmide simples"]
    assert join_windows(["• x: um", "• y: dois"]) == "• x: um\n• y: dois"  # (no overlap: both whole)


def test_a_label_that_cites_a_year_is_no_term():
    text = ("Evolução\n• SDXL (2023): 1024 x 1024, dois codificadores de texto, U-Net ~2600 M\n"
            "• ResMLP (Touvron et al., 2021): troca o LayerNorm por uma transformação afim\n"
            "• Token-mixing: MLP aplicado ao longo dos patches, partilhado entre canais\n"
            "• Channel-mixing: MLP aplicado a cada patch, partilhado entre patches")
    chunk = Chunk("decks/x_pt.pdf", "pdf", text, Locator(page=3, heading="Evolução"), "pt", 3, "h", 3)
    labels = [it.label for it in read_slide(chunk).items if it.label]
    assert labels == ["Token-mixing", "Channel-mixing"], labels
