"""One test of a deck's closing summary slide (kb.lang.summary_title) for the outline, whose key ideas it names,
and for kb ask, which ranks it below the slide that explains a topic: before, the outline missed "Puntos clave"
and "Key takeaways" and kb ask missed "Resumo e conselhos práticos"."""

from __future__ import annotations

import pytest

from kb.lang import summary_title


@pytest.mark.parametrize(("title", "summary"), [
    ("Resumen", True), ("Resumo e conselhos práticos", True), ("3. Resumen", True), ("Conclusões", True),
    ("Puntos clave", True), ("Pontos-chave", True), ("Key takeaways", True), ("Summary", True),
    ("Resumen de gradientes", False), ("Recap: attention", False), ("Agenda", False), ("", False),
])
def test_a_closing_summary_is_told_by_its_title(title, summary):
    assert summary_title(title) is summary
