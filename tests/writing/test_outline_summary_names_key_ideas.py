"""What a teacher calls a deck's key ideas, read from its structure (issue 26): the deck's closing summary
slide names them (each bullet lifts the one idea it names), a slide of common mistakes is none of them,
and a bullet label of one ordinary word ("Resultado: …") is no term the deck teaches."""

from __future__ import annotations

from pathlib import Path

from kb.ingest import read_and_chunk
from kb.outline import build_outline
from tests.pdfgen import make_pdf

TOPICS = {"Poda de pesos": "quita las conexiones de magnitud pequeña de cada capa densa",
          "Cuantización": "guarda cada peso con ocho bits en lugar de treinta y dos",
          "Destilación": "entrena un alumno pequeño con las salidas blandas de un maestro",
          "Factorización": "escribe una matriz grande como producto de dos matrices estrechas",
          "Compilación": "funde operaciones vecinas en un solo kernel de la tarjeta",
          "Caché de activaciones": "guarda claves y valores ya calculados durante la generación",
          "Paralelismo de datos": "reparte los lotes entre varias tarjetas que sincronizan gradientes",
          "Acumulación": "suma gradientes de varios lotes pequeños antes de actualizar"}


def _outline(tmp_path: Path, pages: list[list[str]]):
    # ("•" is 0x95 in the font's WinAnsi encoding, as eval/deck_pdf.py writes it)
    pdf = make_pdf(tmp_path / "deck.pdf", [[ln.replace("•", "\x95") for ln in p] for p in pages])
    _, chunks, failed = read_and_chunk(pdf, "deck.pdf", 50)
    assert failed is None
    return build_outline(chunks, "deck.pdf", bookmarks=[])


def _slide(title: str) -> list[str]:
    return [title, f"• {title} {TOPICS[title]}", f"• Se usa cuando {title.lower()} cabe en el presupuesto del equipo",
            "• Conviene medir la exactitud antes y después de aplicarla"]


def _deck(summary: list[str], extra: list[list[str]] = ()) -> list[list[str]]:
    return [["Modelos eficientes", "• Máster en aprendizaje profundo"],
            ["Agenda", *(f"• {t}" for t in TOPICS)],
            *(_slide(t) for t in TOPICS), *extra, ["Resumen", *(f"• {b}" for b in summary)]]


def test_the_summary_slide_lifts_the_ideas_it_names(tmp_path):
    summary = ["Cuantización: menos bits por peso con una pérdida de exactitud pequeña",
               "Acumulación de gradientes para lotes grandes en poca memoria"]
    o = _outline(tmp_path, _deck(summary))
    top = [i.name for i in o.top(3)]
    assert "Cuantización" in top and "Acumulación" in top, top
    named = [i for i in o.ideas if "in the summary" in i.why]
    # one idea per bullet, never one read from the summary slide itself
    assert {i.name for i in named} == {"Cuantización", "Acumulación"}
    assert all(i.page != 11 for i in named)


def test_a_slide_of_common_mistakes_is_no_key_idea(tmp_path):
    mistakes = ["Errores comunes", *(f"• Aplicar la {t.lower()} sin medir la exactitud -> resultados peores"
                                     for t in list(TOPICS)[:4])]
    o = _outline(tmp_path, _deck(["Cuantización: menos bits por peso"], [mistakes]))
    assert "Errores comunes" not in [i.name for i in o.top(8)]
    assert all(i.score == 0 for i in o.ideas if i.locator.endswith("Errores comunes"))


def test_a_label_of_one_ordinary_word_ranks_below_the_terms_a_slide_defines(tmp_path):
    label = ["Cuantización en la práctica", "• Conviene calibrar con datos reales del dominio",
             "• Resultado: el modelo ocupa cuatro veces menos memoria en la GPU"]
    term = ["Cuantización con enteros", "• Conviene comparar con el modelo original en coma flotante",
            "• INT8: enteros de ocho bits que sustituyen a los pesos en coma flotante"]
    o = _outline(tmp_path, _deck(["Cuantización: menos bits por peso"], [label, term]))
    score = {i.name: i.score for i in o.ideas if i.kind == "definition"}
    assert score["INT8"] > 0 and score["Resultado"] < score["INT8"] / 1.5, score
