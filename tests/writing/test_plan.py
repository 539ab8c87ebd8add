"""Plan, then write (:mod:`kb.writing.plan`): a quiz aims at its sources' most central ideas, says
which of the top ideas it asks and why the others have no question, and asks a plain question on
a top idea no pattern fits when that question passes the checks."""

from __future__ import annotations

import json

from kb.outline import build_outline
from kb.records import Chunk, Locator
from kb.writing.generate import CourseTerms
from kb.writing.plan import coverage, plain_questions

from ..conftest import CORPORA, needs_corpora, run_kb

SRC = "slides/rnn.pdf"


def _chunk(page: int, title: str, text: str) -> Chunk:
    return Chunk(SRC, "pdf", text, Locator(page=page, heading=title), "es", page, "h", 4)


def _deck() -> list[Chunk]:
    return [
        _chunk(1, "Redes neuronales recurrentes", "Curso de aprendizaje profundo\nAutores"),
        _chunk(2, "Índice", "• Redes recurrentes\n• Celdas LSTM"),
        _chunk(3, "Redes recurrentes", "• Una red recurrente procesa secuencias paso a paso.\n"
               "• En cada paso combina la entrada con el estado oculto del paso anterior.\n"
               "• El gradiente se desvanece cuando la secuencia es larga."),
        _chunk(4, "Puertas de una celda LSTM",
               "• Puerta de olvido: decide qué parte del estado de la celda se descarta en cada paso.\n"
               "• Puerta de entrada: decide qué información nueva se escribe en el estado de la celda.\n"
               "• Puerta de salida: decide qué parte del estado de la celda pasa al estado oculto."),
    ]


def test_a_top_idea_no_pattern_wrote_gets_a_plain_question_answered_by_its_bullets():
    chunks = _deck()
    o = build_outline(chunks, SRC, bookmarks=[])
    gates = next(i for i in o.ideas if i.kind == "list")
    assert gates.name == "Puertas de una celda LSTM"
    course = CourseTerms(chunks, None)
    drafts, failed = plain_questions({SRC: o}, [], {c.id: c for c in chunks}, course, k=5, lang=None)
    # (its short form: a list of three sibling terms is also asked as a true/false or a multiple choice)
    q = next(d.question for d in drafts if d.idea == gates.key and d.question.type == "short")
    assert q.prompt == "En redes neuronales recurrentes, explica las puertas de una celda LSTM."
    assert "descarta" in q.answer and "estado oculto" in q.answer
    assert q.citations[0].chunk_id == chunks[3].id and q.type == "short"
    # an idea some draft already asks gets none
    again, _ = plain_questions({SRC: o}, drafts, {c.id: c for c in chunks}, course, k=5, lang=None)
    assert not again
    # --lang pt asks nothing of a Spanish deck
    assert plain_questions({SRC: o}, [], {c.id: c for c in chunks}, course, k=5, lang="pt")[0] == []
    assert failed == [] or all(r.reason.startswith("failed checks") for r in failed)


def test_coverage_says_which_top_ideas_have_a_question_and_why_others_have_none():
    chunks = _deck()
    o = build_outline(chunks, SRC, bookmarks=[])
    course = CourseTerms(chunks, None)
    drafts, _ = plain_questions({SRC: o}, [], {c.id: c for c in chunks}, course, k=5, lang=None)
    chosen = drafts[:1]
    notes = coverage({SRC: o}, chosen, drafts, [], k=3)
    assert len(notes) == 1
    assert notes[0].startswith(f"rnn.pdf: asks 1 of its top {min(3, len(o.ideas))} ideas")
    if len(drafts) > 1:
        assert "another question took its place" in notes[0]


def test_quiz_summary_reports_top_idea_coverage(ingested_workspace):
    r = run_kb(["quiz", "generate", "-n", "6", "--offline", "--source", "sources/002_79add5e0e3bc6419.txt", "--json"],
               cwd=ingested_workspace)
    assert r.returncode == 0, r.stderr
    assert "002_79add5e0e3bc6419.txt: asks " in r.stderr and "of its top" in r.stderr
    assert json.loads(r.stdout)["questions"]


@needs_corpora
def test_a_deck_quiz_asks_its_central_ideas(tmp_path):
    import shutil

    (tmp_path / "corpora").mkdir()
    shutil.copy(CORPORA / "03Datos.pdf", tmp_path / "corpora" / "03Datos.pdf")
    assert run_kb(["ingest", "corpora"], cwd=tmp_path).returncode == 0
    r = run_kb(["quiz", "generate", "-n", "12", "--offline", "--source", "corpora/03Datos.pdf", "--json"],
               cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    qs = json.loads(r.stdout)["questions"]
    assert len(qs) >= 10
    pages = {q["citations"][0]["locator"].split(" · ")[0] for q in qs}
    # Distributed Data Parallelism (pp. 37–40), Data augmentation (pp. 29–32)
    assert pages & {"p. 37", "p. 38", "p. 39", "p. 40"} and pages & {"p. 29", "p. 30", "p. 31", "p. 32"}
    line = next(ln for ln in r.stderr.replace("\n", " ").split("note: ") if ln.startswith("03Datos.pdf: asks"))
    assert int(line.split()[2]) >= 3  # of its top 5 ideas


def test_eval_quiz_reports_the_same_top_idea_coverage_as_the_summary(ingested_workspace):
    src = "sources/002_79add5e0e3bc6419.txt"
    r = run_kb(["quiz", "generate", "-n", "6", "--offline", "--source", src, "-o", "q.json"], cwd=ingested_workspace)
    assert r.returncode == 0, r.stderr
    said = int(r.stderr.replace("\n", " ").split(f"{src.rsplit('/', 1)[-1]}: asks ")[1].split()[0])
    r = run_kb(["eval", "quiz", "q.json", "--json"], cwd=ingested_workspace)
    assert r.returncode == 0, r.stderr
    ti = json.loads(r.stdout)["top_ideas"]
    assert 3 <= ti["total"] <= 5 and ti["covered"] == said >= 1  # (a small source has fewer distinct ideas)
    (per,) = ti["per_source"].values()
    assert len(per["missing"]) == ti["total"] - said


def test_no_plain_question_on_a_list_whose_labels_repeat():
    chunks = [*_deck()[:3], _chunk(4, "Estrategias de promediado",
                                  "• Síncrono: todos los trabajadores esperan al más lento antes de promediar.\n"
                                  "• Síncrono: el promedio se calcula con all-reduce en cada paso del bucle.\n"
                                  "• Asíncrono: cada trabajador envía sus gradientes sin esperar a los demás."),
              _chunk(5, "Puertas de una celda LSTM", _deck()[3].text)]
    o = build_outline(chunks, SRC, bookmarks=[])
    table = next(i for i in o.ideas if i.kind == "list")
    drafts, _ = plain_questions({SRC: o}, [], {c.id: c for c in chunks}, CourseTerms(chunks, None), k=5, lang=None)
    # (the LSTM gates' list, labels all different, gets one: the writer is not silent)
    assert drafts and not any(d.idea == table.key for d in drafts)
