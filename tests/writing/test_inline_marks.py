"""A star that belongs to a formula stays; only Markdown emphasis around a phrase is dropped (kb.writing.ideas).

Round 18's raters read an AbsRel answer as "|d - d| / d" (always zero): the writer took the two stars of
"|d - d*| / d*" for emphasis. The same class: Python's power operator ("x**2", "(C / 120) ** 0.5")."""

from __future__ import annotations

import pytest

from kb.writing.ideas import clean_inline


@pytest.mark.parametrize("formula", [
    "AbsRel = media de |d - d*| / d* (error relativo absoluto)",
    "N_opt = (C / 120) ** 0.5",
    "loss = x**2 + y**2",
    "a * b * c",
])
def test_a_formulas_stars_are_kept(formula: str) -> None:
    assert clean_inline(formula) == formula


def test_emphasis_around_a_phrase_is_dropped() -> None:
    assert clean_inline("**Nota:** el paso es *importante* aquí") == "Nota: el paso es importante aquí"


def test_a_concept_keeps_the_star_written_onto_its_operand() -> None:
    from kb.writing.concepts import gist_of

    assert gist_of("media de |d - d*| / d* (error relativo absoluto)", 14) == "media de |d - d*| / d*"
