"""kb ask offline (issue 30): when another deck's headings name the question's subject where the best unit's deck's
do not, that deck answers. "¿Qué es el paralelismo de modelo?" was answered "Modelo mais rígido de paralelismo, mas
facilita a otimização de desempenho" (a programming model) from a deck whose headings say "paralelismo" alone, while
the TF deck's slide "Distributed training en TF: Model parallelism" defines it. The store is the real sample course."""

from __future__ import annotations

from pathlib import Path

from .helpers import ask


def _cited(a: dict) -> list[dict]:
    return [p for p in a["passages"] if p["rank"] in a["cited"]]


def test_a_question_is_answered_from_the_deck_whose_headings_name_its_subject(ingested_workspace: Path):
    a = ask(ingested_workspace, "¿Qué es el paralelismo de modelo?")
    assert a["found"], a["answer"]
    assert "Modelo mais rígido" not in a["answer"], a["answer"]
    assert _cited(a) and all("Model parallelism" in (p["locator"].get("heading") or "") for p in _cited(a)), a
    assert "Dividimos la arquitectura del modelo" in a["answer"]

