"""A stem whose deck has no subject to set it in opens as a sentence does, in every pattern (one rule,
kb.writing.setting.unset): "¿Qué consecuencia tiene …?", never "¿qué consecuencia tiene …?" (the
common-mistakes and discourse patterns each had their own copy, which left the letter after "¿" in lower case)."""

from __future__ import annotations

import pytest

from kb.writing.pattern_errors import error_forms
from kb.writing.setting import unset

PASSAGE = "Errores comunes\n• Olvidar llamar a model.eval() antes de evaluar -> el dropout sigue activo al evaluar"


def test_a_common_mistake_asked_with_no_subject_opens_on_a_capital():
    forms = error_forms("Errores comunes", PASSAGE, "", "es")
    assert forms and forms[0][0].startswith("¿Qué consecuencia tiene"), forms


@pytest.mark.parametrize(("template", "stem"), [
    ("En {s}, ¿qué es «{t}»?", "¿Qué es «{t}»?"),
    ("Em {s}, quais são as limitações?", "Quais são as limitações?"),
    ("¿Qué es NVIDIA DALI?", "¿Qué es NVIDIA DALI?"),
])
def test_unset_drops_the_setting_and_capitalises(template, stem):
    assert unset(template) == stem
