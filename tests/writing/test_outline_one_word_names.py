"""A definition of a one-word NAME the deck teaches ("Horovod: …", "NCCL: …") keeps its weight in the outline; only
a one-word label of ordinary language ("Resultado: …") counts half (kb/outline.py `_plain_word`): before, any
capitalised word was taken for a label and "Horovod" ranked below "Resultado"."""

from __future__ import annotations

from kb.ingest import read_and_chunk
from kb.outline import build_outline

from ..pdfgen import make_pdf

PAGES = [["Entrenamiento distribuido", "• Máster en aprendizaje profundo"],
         ["Sincronizar gradientes", "• Conviene medir el ancho de banda entre tarjetas antes de escalar",
          "• Horovod: librería de Uber que sincroniza gradientes con all-reduce en anillo entre procesos"],
         ["Comunicaciones colectivas", "• Conviene fijar la topología del nodo antes de lanzar",
          "• NCCL: biblioteca de comunicaciones colectivas de NVIDIA optimizada para tarjetas gráficas"],
         ["Escalado", "• Conviene medir la eficiencia con varias tarjetas",
          "• Resultado: el entrenamiento escala casi lineal con ocho tarjetas en el mismo nodo"]]


def test_a_one_word_name_outranks_a_one_word_label(tmp_path):
    pdf = make_pdf(tmp_path / "deck.pdf", [[ln.replace("•", "\x95") for ln in p] for p in PAGES])
    _, chunks, _ = read_and_chunk(pdf, "deck.pdf", 50)
    score = {i.name: i.score for i in build_outline(chunks, "deck.pdf", bookmarks=[]).ideas}
    assert score["Horovod"] > score["Resultado"] and score["NCCL"] > score["Resultado"], score
    assert score["Horovod"] >= 0.5 * score["NCCL"], score
