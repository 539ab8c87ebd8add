"""Every reason the drop-risk model can give (each feature of kb/writing/defect_model.json, both ways) is said in
the interface's language or left out — never shown by its internal name ("stem's setting not in the deck",
"check:group-pronoun") to a Spanish or Portuguese teacher."""

from __future__ import annotations

import json

import pytest

from kb import i18n
from kb.ui import risk_words
from kb.writing.defect_model import MODEL_FILE


@pytest.mark.parametrize("lang", ["es", "pt"])
def test_each_reason_of_the_model_is_said_in_the_interfaces_language_or_left_out(lang):
    features = list(json.loads(MODEL_FILE.read_text(encoding="utf-8"))["drop"]["weights"])
    assert len(features) > 20
    i18n.choose(lang)
    try:
        said = {(f, high): risk_words({"feature": f, "high": high}) for f in features for high in (False, True)}
    finally:
        i18n.choose(None)
    raw = {k: v for k, v in said.items() if v and (v == k[0] or v == k[0].removeprefix("check:") or "check:" in v)}
    assert not raw, raw
    english = {k: v for k, v in said.items() if v and v == risk_words_en(k)}
    assert not english, english
    assert sum(1 for v in said.values() if v) >= len(features)  # most reasons have words


def risk_words_en(key):
    i18n.choose("en")
    try:
        return risk_words({"feature": key[0], "high": key[1]})
    finally:
        i18n.choose(None)
