"""A PDF's first page is lowered in the hybrid ranking only when it is a title page (kb.rank_route): a slide deck's
title slide names every subject of the deck and would outrank the slide that explains one, but the first page of a
paper or a handout is prose that answers questions like any other page. Real PDFs, read and chunked by kb's reader."""

from __future__ import annotations

from pathlib import Path

from kb.ingest import read_and_chunk
from kb.rank_route import Routing
from kb.search import ChunkTable

from ..pdfgen import make_pdf

PROSE = ("La precarga de datos solapa la lectura del siguiente lote con el cómputo del actual, de modo que la GPU "
         "no espera a la CPU entre pasos. En la práctica se activa con varios workers en el DataLoader y con memoria "
         "fijada en el host, y su efecto se mide comparando el tiempo por paso con y sin ella.")


def _flags(tmp_path: Path, name: str, pages: list[list[str]]) -> dict[int, set[float]]:
    pdf = make_pdf(tmp_path / name, pages)
    _, chunks, failed = read_and_chunk(pdf, name, 50.0)
    assert failed is None and chunks
    routing = Routing(ChunkTable(chunks))
    by_page: dict[int, set[float]] = {}
    for i, c in enumerate(chunks):
        by_page.setdefault(int(c.locator.page or 0), set()).add(float(routing.overview[i]))
    return by_page


def test_a_slide_decks_title_page_is_lowered(tmp_path):
    flags = _flags(tmp_path, "deck.pdf", [
        ["Frameworks de Deep Learning", "Sesión 4: carga de datos", "Prerrequisitos: PyTorch básico"],
        ["Precarga de datos", "- Solapa la lectura del siguiente lote con el cómputo del actual"],
        ["Workers del DataLoader", "- num_workers procesos leen y transforman en paralelo"],
    ])
    assert flags[1] == {1.0}
    assert flags[2] == {0.0} and flags[3] == {0.0}


def test_a_first_page_of_prose_is_not(tmp_path):
    flags = _flags(tmp_path, "handout.pdf", [
        ["Apuntes de la sesión 4: la carga de datos", *[PROSE] * 4],
        ["Workers del DataLoader", "num_workers procesos leen y transforman los ejemplos en paralelo."],
    ])
    assert flags[1] == {0.0}
