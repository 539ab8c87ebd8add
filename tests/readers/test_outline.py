"""The outline of a source: its sections and ideas, ranked by how central they are (``kb outline``,
``KB.outline``), on the sample course and on real slide decks (skipped without ../shared)."""

from __future__ import annotations

import json

import pytest

import kb
from kb.ingest import read_and_chunk
from kb.outline import build_outline, pdf_bookmarks

from ..conftest import CORPORA, needs_corpora, run_kb


def _deck(name: str, bookmarks: bool = True):
    """A real deck read and chunked as ingest does (no embedding), and its outline."""
    path = CORPORA / name
    _, chunks, failed = read_and_chunk(path, f"corpora/{name}", 50)
    assert failed is None
    return chunks, build_outline(chunks, f"corpora/{name}", bookmarks=pdf_bookmarks(path) if bookmarks else [])


def test_library_outline_of_a_sample_source(ingested_workspace):
    course = kb.open(ingested_workspace / ".kb")
    src = next(r["source"] for r in course.sources() if r["source"].endswith("002_79add5e0e3bc6419.txt"))
    o = course.outline(src.rsplit("/", 1)[-1])  # the end of the path names it too
    assert o.source == src
    assert o.title == "Computação distribuída com TensorFlow"
    kinds = {i.kind for i in o.ideas}
    assert "definition" in kinds and "title" in kinds
    names = [i.name for i in o.top(5)]
    assert "MapReduce" in names and "TensorFlow" in names
    assert all(i.locator and i.text for i in o.ideas)
    # a bullet that only opens a clause ("Observe que esses processos não são …") defines nothing
    assert not any(i.kind == "definition" and "Observe" in i.name for i in o.ideas)


def test_cli_outline_json_and_unknown_source(ingested_workspace):
    r = run_kb(["outline", "002_79add5e0e3bc6419.txt", "--json"], cwd=ingested_workspace)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["title"] == "Computação distribuída com TensorFlow"
    assert doc["sections"] and all(s["ideas"] for s in doc["sections"])
    names = [k.split("#")[-1] for k in doc["top"]]
    assert 3 <= len(names) <= 5 and len(set(names)) == len(names)  # the top ideas, each named once
    r = run_kb(["outline", "nowhere.pdf"], cwd=ingested_workspace)
    assert r.returncode == 3
    assert "nowhere.pdf: not in the knowledge base" in r.stderr and "kb sources" in r.stderr


def test_cli_outline_fits_one_screen(ingested_workspace):
    r = run_kb(["outline", "004_846eda6c7740515b.txt"], cwd=ingested_workspace)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert 5 < len(lines) <= 60
    assert any(ln.strip().startswith("1.") for ln in lines)  # the most central idea is marked


@needs_corpora
def test_bookmarks_make_the_sections_of_a_deck():
    _, o = _deck("03Datos.pdf")
    assert o.from_ == "bookmarks"
    titles = [s.title for s in o.sections]
    assert "Data Augmentation" in titles and "DDP" in titles
    top = [i.name for i in o.top(5)]
    # what the deck's index names, defines and gives pages to comes first
    assert "Distributed Data Parallelism" in top and "Data augmentation" in top
    kinds = {i.kind for i in o.ideas}
    assert {"definition", "list", "procedure", "title"} <= kinds


@needs_corpora
def test_index_page_makes_the_sections_without_bookmarks():
    _, o = _deck("03Datos.pdf", bookmarks=False)
    assert o.from_ == "index"
    assert "Data Augmentation" in [s.title for s in o.sections]
    assert o.index[0] == "Introducción"


@needs_corpora
def test_a_slide_over_several_pages_is_one_idea_with_its_pages():
    _, o = _deck("05modelos.pdf")
    gpu = [i for i in o.ideas if i.name == "Guardar y cargar modelos en GPU"]
    assert len(gpu) == 1 and gpu[0].pages == 3 and gpu[0].locator.startswith("pp. 14–16")
    assert "3 pages" in gpu[0].why
    assert o.top(1)[0].name == "torch.hub"


@needs_corpora
def test_a_deck_without_index_or_bookmarks_groups_titles_by_subject():
    _, o = _deck("001TFDist.pdf")
    assert o.from_ == "headings"
    assert len(o.sections) < len({i.locator.split(" · ")[-1] for i in o.ideas})
    assert any(i.kind == "code" for i in o.ideas)
    # a term the deck defines on five pages is one idea
    assert sum(1 for i in o.ideas if i.kind == "definition" and i.name == "TensorBoard") == 1


def test_outline_text_for_a_prompt():
    from kb.outline import Idea, Outline, Section

    a = Idea("definition", "DDP", "DDP es …", "Intro", "p. 2", ("c1",), 2, score=2.0)
    b = Idea("title", "Beneficios", "Escala …", "Intro", "p. 3", ("c2",), 3, score=1.0)
    o = Outline("x.pdf", "Datos", (Section("Intro", "p. 2", (a, b)),))
    assert o.text(1) == "Datos\n- Intro: DDP"
    assert [i.name for i in o.top()] == ["DDP", "Beneficios"]
    with pytest.raises(AttributeError):
        o.title = "other"  # type: ignore[misc]
