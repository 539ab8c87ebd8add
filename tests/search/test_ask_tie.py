"""kb ask offline (issue 30): when the best units of two slides of one deck score within TIE_MARGIN of each other,
which one wins is the score's noise, so the answer quotes both, each with its passage, the winner first.
"¿Por qué load_best_model_at_end da un ValueError?" was answered with the "Errores típicos" line alone (p. 21),
a near tie with the slide that says why (p. 9: "eval y save DEBEN coincidir"). Real decks of
eval/ask_dev_fresh.jsonl (dev) rendered to PDFs and ingested with the sample course."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import course_with_decks, heldout_decks
from .helpers import ask, cited_pages, eval_ask


@pytest.fixture(scope="module")
def course(tmp_path_factory, course_template) -> Path:
    """The sample course with fsdp_pt.pdf, hftrainer_es.pdf, tokenizers_es.pdf and optim_es.pdf, ingested."""
    return course_with_decks(tmp_path_factory.mktemp("tie"),
                             heldout_decks(["fsdp_pt", "hftrainer_es", "tokenizers_es", "optim_es"]),
                             course_template / ".kb")


def test_a_near_tie_between_two_slides_quotes_both_the_winner_first(course):
    a = ask(course, "¿Por qué load_best_model_at_end da un ValueError?")
    assert {("hftrainer_es.pdf", 9), ("hftrainer_es.pdf", 21)} <= cited_pages(a), a["answer"]
    assert "DEBEN coincidir" in a["answer"]
    first, second = a["answer"].split("\n")[:2]
    assert first.endswith("[1]") and second.endswith("[2]")


def test_a_clear_winner_is_quoted_alone(course):
    a = ask(course, "¿Qué es el dynamic padding?")
    assert cited_pages(a) == {("tokenizers_es.pdf", 20)}, a["answer"]


def test_both_quotes_are_lines_of_their_cited_passages(course, tmp_path):
    items = [("¿Por qué load_best_model_at_end da un ValueError?", "hftrainer_es.pdf", [9], ["DEBEN coincidir"]),
             ("¿Cómo se calcula el batch efectivo?", "hftrainer_es.pdf", [13, 22], ["per_device"])]
    report = eval_ask(course, tmp_path, items)
    assert report["quoted"] == 1.0 and report["correct"] == 1.0, report
